import type { ExploreService } from './explore.service.ts';

export type { ExploreService } from './explore.service.ts';
// The API's search (extensions section 3) reads its body with the same rules as POST /explore.
export { MAX_TERMS, parseSearchBody } from './explore.routes.ts';

declare module '../../core/modules.ts' {
  interface ServiceRegistry {
    explore: ExploreService;
  }
}
