// Where the model page gets a file's analysis: the analysis module's service (its index.ts),
// reached through the registry at call time. That module is optional for this one: without it
// the page still shows the source, the diagram (uncoloured) and the tools, and says that models
// are not analysed here.
import type { ModuleContext, ServiceRegistry } from '../../core/modules.ts';
import type { AnalysisResult, OperationName } from '../../../packages/analysis/src/types.ts';

/** A file's analysis as the analysis service answers it; through the registry, since model does not require analysis. */
type FileAnalysis = NonNullable<Awaited<ReturnType<ServiceRegistry['analysis']['getForFile']>>>;

export type AnalysisState =
  | { kind: 'unavailable' }
  /** `partial`: what the running analysis knows so far, `running` what it still computes. */
  | { kind: 'pending'; api?: FileAnalysis; partial?: AnalysisResult; running?: OperationName[] }
  | { kind: 'failed'; error: string; api: FileAnalysis }
  | { kind: 'finished'; status: 'done' | 'partial'; result: AnalysisResult; api: FileAnalysis };

/** The analysis of a file the caller has already found visible to `viewerId`. */
export async function analysisOf(d: { ctx: ModuleContext }, fileId: number, viewerId: number | null): Promise<AnalysisState> {
  const { ctx } = d;
  if (!ctx.isEnabled('analysis')) return { kind: 'unavailable' };
  const found = await ctx.services.analysis.getForFile(fileId, viewerId);
  // No row yet: the file is queued by that lookup and is analysed shortly.
  if (!found || found.status === 'pending') {
    if (!found?.running) return { kind: 'pending', api: found };
    const { file_id: _f, sha256: _s, status: _t, running, ...partial } = found;
    return { kind: 'pending', api: found, partial: partial as AnalysisResult, running };
  }
  if (found.status === 'failed') return { kind: 'failed', error: found.error ?? 'The analysis failed.', api: found };
  // done and partial carry the engine's whole result (the API's shape: the result plus file_id, sha256, status).
  const { file_id: _f, sha256: _s, status, error: _e, ...result } = found;
  return { kind: 'finished', status, result: result as AnalysisResult, api: found };
}
