// The REST dataset objects of a list of summaries, with their version fields and, when the analysis
// module is enabled, each model's analysis summary.
import type { DatasetSummary } from '../dataset.types.ts';
import type { DatasetDeps } from '../dataset.deps.ts';
import { restFields } from '../lifecycle/dataset.versions.ts';
import { restDataset } from './dataset.presenter.ts';

export async function restObjects(d: DatasetDeps, list: DatasetSummary[]): Promise<ReturnType<typeof restDataset>[]> {
  const { ctx } = d;
  const versionFields = await restFields(d, list);
  if (!ctx.isEnabled('analysis')) return list.map((s) => restDataset(s, versionFields.get(s.id)!));
  const summaries = await ctx.services.analysis.summaries(list.flatMap((s) => s.files.map((f) => ({ id: f.id, name: f.name }))));
  const byFile = new Map(summaries.map((m) => [m.file_id, m]));
  return list.map((s) => restDataset(s, versionFields.get(s.id)!, s.files.flatMap((f) => (byFile.has(f.id) ? [byFile.get(f.id)!] : []))));
}
