// Model changes between two versions of a dataset (extensions section 2): per model, matched by
// file name, the features and constraints added and removed, and the edit class decided by the
// analysis engine in its worker: the page waits a moment for it, then shows "being decided" and
// asks again (never a guess; "not decided" once the pair's own budget ran out). Constraints are compared by their canonical printed text (packages/uvl's printer).
import type { ModuleContext } from '../../../core/modules.ts';
import { notFound } from '../../../core/http/errors.ts';
import type { CompareModels, ReadModel } from './compare-models.ts';
import * as repo from '../dataset.repository.ts';
import type { DatasetSummary } from '../dataset.types.ts';
import type { DatasetDeps } from '../dataset.deps.ts';
import { summary } from '../pages/dataset.parts.ts';

export type EditClassOrUndecided = 'refactoring' | 'generalization' | 'specialization' | 'arbitrary' | 'unknown' | 'invalid' | 'unavailable' | 'pending';

export interface ModelChange {
  name: string;
  /**
   * `added`: only in the newer version; `removed`: only in the older one; `changed`: in both, the
   * texts differ; `unchanged`: the same text in both (no edit class to decide: nothing shows as pending).
   */
  status: 'added' | 'removed' | 'changed' | 'unchanged';
  addedFeatures: string[];
  removedFeatures: string[];
  addedConstraints: string[];
  removedConstraints: string[];
  /** Null for a model only in one version or unchanged. */
  editClass: EditClassOrUndecided | null;
  /** Set when a version of the model could not be read as UVL here. */
  unreadable: boolean;
}

export interface Comparison {
  before: DatasetSummary;
  after: DatasetSummary;
  models: ModelChange[];
}

const minus = (a: Set<string>, b: Set<string>) => [...a].filter((x) => !b.has(x)).sort();

async function textsOf(ctx: ModuleContext, dataset: DatasetSummary): Promise<Map<string, string | undefined>> {
  const texts = new Map<string, string | undefined>();
  for (const file of dataset.files) {
    const stored = await ctx.services.hubfile.getFile(file.id);
    texts.set(file.name, stored ? await ctx.services.hubfile.readText(stored) : undefined);
  }
  return texts;
}

/**
 * Both datasets must be versions of one concept that the viewer can see (synchronized, or the
 * viewer's own); anything else is 404. The older version is "before", whichever order the URL names them.
 * The page waits `compareWaitMs` (COMPARE_WAIT_MS, default 0.5 s), all models together, for edit
 * classes being decided; the rest show "being decided" and the page's script asks again (the
 * analysis module gives each pair its own budget).
 */
export async function compareVersions(d: DatasetDeps, id: number, otherId: number, viewerId: number | null, waitMs = d.ctx.config.compareWaitMs): Promise<Comparison> {
  const { ctx } = d;
  const missing = () => notFound('These are not two versions of one dataset that you can see.');
  const [a, b] = await Promise.all([repo.findById(ctx.db, id), repo.findById(ctx.db, otherId)]);
  const visible = (r: repo.DatasetRow | undefined) => r !== undefined && (r.dataset_doi !== null || r.user_id === viewerId);
  if (!visible(a) || !visible(b) || a!.concept_id !== b!.concept_id || a!.id === b!.id) throw missing();
  const [older, newer] = a!.version_number <= b!.version_number ? [a!, b!] : [b!, a!];
  const [before, after] = await Promise.all([summary(d, older.id), summary(d, newer.id)]);
  if (!before || !after) throw missing();
  const [oldTexts, newTexts] = await Promise.all([textsOf(ctx, before), textsOf(ctx, after)]);
  const names = [...new Set([...oldTexts.keys(), ...newTexts.keys()])].sort();
  const deadline = Date.now() + waitMs;
  const models: ModelChange[] = [];
  for (const name of names) {
    const change = modelChange(d.compareModels, name, oldTexts, newTexts);
    if (change.status === 'changed') {
      if (change.unreadable) change.editClass = 'invalid';
      else if (!ctx.isEnabled('analysis')) change.editClass = 'unavailable';
      else {
        change.editClass = await ctx.services.analysis.classifyEdit(
          { name, text: oldTexts.get(name)! }, { name, text: newTexts.get(name)! }, Math.max(0, deadline - Date.now()),
        );
      }
    }
    models.push(change);
  }
  return { before, after, models };
}

/** The features and constraints added and removed in one model, its edit class still to be decided. */
function modelChange(models: CompareModels, name: string, oldTexts: Map<string, string | undefined>, newTexts: Map<string, string | undefined>): ModelChange {
  const inOld = oldTexts.has(name);
  const inNew = newTexts.has(name);
  const read = (text: string | undefined) => (text === undefined ? null : models.read(name, text));
  const oldModel = inOld ? read(oldTexts.get(name)) : null;
  const newModel = inNew ? read(newTexts.get(name)) : null;
  const empty: ReadModel = { features: new Set(), constraints: new Set() };
  const o = oldModel ?? empty;
  const n = newModel ?? empty;
  const same = inOld && inNew && oldTexts.get(name) !== undefined && oldTexts.get(name) === newTexts.get(name);
  return {
    name,
    status: same ? 'unchanged' : inOld && inNew ? 'changed' : inNew ? 'added' : 'removed',
    addedFeatures: minus(n.features, o.features),
    removedFeatures: minus(o.features, n.features),
    addedConstraints: minus(n.constraints, o.constraints),
    removedConstraints: minus(o.constraints, n.constraints),
    editClass: null,
    unreadable: (inOld && !oldModel) || (inNew && !newModel),
  };
}
