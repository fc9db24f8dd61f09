// The catalogue of every module the project ships: the one place that knows them all.
// Core provides the mechanism (core/modules.ts); the application picks the modules.
import { loadModulesFrom, type HubModule, type ModuleCatalogue } from '../core/modules.ts';

/** Loaded only when selected (webhook must not load elsewhere). */
export const moduleCatalogue: ModuleCatalogue = {
  public: async () => (await import('../modules/public/module.ts')).publicModule,
  auth: async () => (await import('../modules/auth/module.ts')).authModule,
  profile: async () => (await import('../modules/profile/module.ts')).profileModule,
  dataset: async () => (await import('../modules/dataset/module.ts')).datasetModule,
  explore: async () => (await import('../modules/explore/module.ts')).exploreModule,
  featuremodel: async () => (await import('../modules/featuremodel/module.ts')).featuremodelModule,
  hubfile: async () => (await import('../modules/hubfile/module.ts')).hubfileModule,
  modeltool: async () => (await import('../modules/modeltool/module.ts')).modeltoolModule,
  model: async () => (await import('../modules/model/module.ts')).modelModule,
  configurator: async () => (await import('../modules/configurator/module.ts')).configuratorModule,
  webhook: async () => (await import('../modules/webhook/module.ts')).webhookModule,
  mail: async () => (await import('../modules/mail/module.ts')).mailModule,
  tokens: async () => (await import('../modules/tokens/module.ts')).tokensModule,
  api: async () => (await import('../modules/api/module.ts')).apiModule,
  analysis: async () => (await import('../modules/analysis/module.ts')).analysisModule,
  citation: async () => (await import('../modules/citation/module.ts')).citationModule,
  statistics: async () => (await import('../modules/statistics/module.ts')).statisticsModule,
  cart: async () => (await import('../modules/cart/module.ts')).cartModule,
  orcid: async () => (await import('../modules/orcid/module.ts')).orcidModule,
  review: async () => (await import('../modules/review/module.ts')).reviewModule,
  oai: async () => (await import('../modules/oai/module.ts')).oaiModule,
  editor: async () => (await import('../modules/editor/module.ts')).editorModule,
  collection: async () => (await import('../modules/collection/module.ts')).collectionModule,
};

/** The selected modules of this project, every coupling rule checked (decisions section 2). */
export function loadModules(names: string[]): Promise<HubModule[]> {
  return loadModulesFrom(moduleCatalogue, names);
}
