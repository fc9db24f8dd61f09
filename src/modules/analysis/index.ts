// The analysis module's public face: the only file other modules import. Callers reach the
// service through the registry and must check `ctx.isEnabled('analysis')` first: every module
// works without this one. Those that do not require it name its types through the registry too
// (`ServiceRegistry['analysis']`), so that no module imports this one beyond its `requires`.
import type { AnalysisService } from './analysis.service.ts';

export type { CorpusCounts, ValueCounts } from './analysis.statistics.ts';
export type { AnalysisService, AnalysisStatus, FileAnalysis, ModelFacts, ModelSummary, SearchModel, ModelFilter } from './analysis.service.ts';

declare module '../../core/modules.ts' {
  interface ServiceRegistry {
    analysis: AnalysisService;
  }
}
