import type { ExploreService } from './explore.service.ts';

export type { ExploreService } from './explore.service.ts';

declare module '../../core/modules.ts' {
  interface ServiceRegistry {
    explore: ExploreService;
  }
}

// The one text normalization of the hub's searches (explore rule 1), shared with the analysis
// module's feature-name filter so that both sides of every comparison are folded alike.
export { normalizeText } from './explore.normalize.ts';
