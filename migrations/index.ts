// One migration history for every dialect, in order. Never edit a migration after it landed.
import type { Migration } from 'kysely';
import * as initialSchema from './2026_11_22_0001_initial_schema.ts';
import * as exploreSearch from './2026_11_22_0010_explore_search.ts';
import * as modelAnalysis from './2026_11_23_0020_model_analysis.ts';

export const migrations: Record<string, Migration> = {
  '2026_11_22_0001_initial_schema': initialSchema,
  '2026_11_22_0010_explore_search': exploreSearch,
  '2026_11_23_0020_model_analysis': modelAnalysis,
};
