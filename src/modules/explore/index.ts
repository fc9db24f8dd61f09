import type { ExploreService } from './explore.service.ts';

export type { ExploreService } from './explore.service.ts';
// The API's search (extensions section 3) reads its body with the same rules as POST /explore.
export { MAX_TERMS, parseSearchBody } from './explore.routes.ts';

declare module '../../core/modules.ts' {
  interface ServiceRegistry {
    explore: ExploreService;
  }
}

// The one text normalization of the hub's searches (explore rule 1), shared with the analysis
// module's feature-name filter so that both sides of every comparison are folded alike.
export { normalizeText } from './explore.normalize.ts';
