import type { ExploreService } from './explore.service.ts';

export type { ExploreService } from './explore.service.ts';

declare module '../../core/modules.ts' {
  interface ServiceRegistry {
    explore: ExploreService;
  }
}
