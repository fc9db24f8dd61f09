// The configurator's worker thread: keeps the last few models compiled (warm), so that a
// configure step or a commonality is one pass over the compiled form, and computes samples. A
// model is compiled when a job first needs it: the page's tree only needs it parsed.
// It reads no file and opens no database; the main thread sends the model's text when asked.
import { parentPort } from 'node:worker_threads';
import { flattenModel, formatDiagnostic, parseUvl, createReadAheadLoader, type Feature, type UvlModel } from '../../../packages/uvl/src/index.ts';
import {
  BitRows, compiledFormBytes, compiledFromBytes, compileModel, Configurator, Deadline, ENGINE_VERSION, formatProbability, packSample, probabilityBins, probabilityOf,
  rowsOfNames, StoredFormError, twiseSample, UnknownFeatureError, type CompiledModel, type TwiseResult,
} from '../../../packages/analysis/src/index.ts';
import { SAMPLE_CANCELLED, type ConfiguratorJob, type ConfiguratorReply } from './configurator.protocol.ts';
import { MemoryDeadline } from './memory-deadline.ts';
import { changedStates, RecentStates, type DecisionSet, type States } from './configurator.diff.ts';

/**
 * Cells (configurations × features) of one uniform sample: 10 000 configurations of automotive2_4
 * (18 616 features) are 186 million, 23 MB packed. The packed form passes through the main thread
 * on its way to the store, so a larger one (up to 2 billion cells with MAX_FEATURES) is refused.
 */
const MAX_SAMPLE_CELLS = 200_000_000;

/**
 * Bits of a t-wise sample's coverage tables in a worker (256 MB, within its 512 MB budget). The
 * engine's large pairwise path could take more (automotive2_4: 425 MB of tables, then about 40 000
 * configurations, 745 million cells, in up to an hour): such a request is refused with the reason
 * and the way to get the sample (the command line), not left to run out of memory or time.
 */
const MAX_TWISE_BITS = 2 ** 31;

/**
 * Heap and external memory a compile may reach (the worker's kind declares 512 MB to the
 * scheduler: a 448 MB heap and a 64 MB young generation). automotive2_4 compiles and samples
 * within it; linux-2.6.33.3 does not (it took over 1.1 GB by the end of its 60 s).
 */
const COMPILE_MEMORY_BYTES = 384 * 1024 * 1024;

/** Models kept compiled; a compiled automotive2_4 takes tens of MB, so only a few. */
const WARM_MODELS = 4;

interface WarmModel {
  model: UvlModel;
  text: string;
  /** Compiled at the first job that needs it: the page's tree and t-wise samples need only the parsed model. */
  compiled?: CompiledModel;
  /** The engine's configurator (SAT propagation, conflicts, why), built at the first step; it counts on the compiled form. */
  configurator?: Configurator;
  /** Feature indices in the order of their names, sorted once: a sample lists each configuration's names sorted. */
  byName?: Int32Array;
  /** The states of the last steps: a step with `since` answers what changed from them. */
  recent: RecentStates;
  /** Feature names in the order of the page's tree (`tree`), for compact answers. */
  treeOrder?: string[];
  /** The names a step accepts (the configurator's: the flattened model's, imports included), for `names`. */
  featureNames?: Set<string>;
}

/** Least recently used first (a Map keeps insertion order; a hit is moved to the end). */
const warm = new Map<string, WarmModel>();

class JobFailure extends Error {}
/** The model did not compile within the budget: remembered by the main thread, never tried again. */
class BudgetFailure extends JobFailure {}
/** The job needs the compiled form, which is stored: the main thread sends it (`need-form`). */
class NeedForm extends Error {}

/** A form this job compiled, sent with its reply to be stored (configurator.forms.ts). */
let compiledNow: Uint8Array | undefined;
/** The stored form this job was sent could not be read (another layout): said in the reply, so that it is compiled again. */
let formRefused = false;

/**
 * Loads the stored compiled form the job carries; asks for it when the main thread said it is
 * stored. False when there is none, or the bytes are refused (another layout): then compiled.
 */
function loadStored(entry: WarmModel, job: ConfiguratorJob): boolean {
  if (entry.compiled) return true;
  if (!job.form) {
    if (job.formStored) throw new NeedForm();
    return false;
  }
  try {
    entry.compiled = compiledFromBytes(entry.model, job.form, entry.text);
    return true;
  } catch (error) {
    if (!(error instanceof StoredFormError)) throw error;
    formRefused = true;
    return false;
  }
}

/**
 * Parses the model with the imports the main thread sent (paths inside the dataset, relative to
 * the importing file); `wanted` collects those not sent yet. Nothing outside the dataset is read.
 */
function parseWithImports(job: ConfiguratorJob, wanted: Set<string>) {
  const loader = createReadAheadLoader(job.model.fileName, job.model.imports ?? {}, wanted);
  return parseUvl(job.model.text!, { fileName: job.model.fileName, loader });
}

function warmModel(job: ConfiguratorJob): WarmModel | undefined {
  const hit = warm.get(job.model.sha256);
  if (hit) {
    warm.delete(job.model.sha256);
    warm.set(job.model.sha256, hit);
    return hit;
  }
  if (job.model.text === undefined) return undefined;
  const parsed = parseWithImports(job, new Set());
  const errors = parsed.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic);
  if (errors.length > 0 || !parsed.model) throw new JobFailure(`The model is not valid UVL: ${errors.slice(0, 5).join('; ')}`);
  const entry: WarmModel = { model: parsed.model, text: job.model.text, recent: new RecentStates() };
  warm.set(job.model.sha256, entry);
  while (warm.size > WARM_MODELS) warm.delete(warm.keys().next().value!);
  return entry;
}

function compiledOf(entry: WarmModel, job: ConfiguratorJob): CompiledModel {
  if (loadStored(entry, job)) return entry.compiled!;
  const deadline = new MemoryDeadline(job.timeoutMs, COMPILE_MEMORY_BYTES);
  entry.compiled = compileModel(entry.model, { text: entry.text, deadline }) ?? undefined;
  if (deadline.overMemory) entry.compiled = undefined;
  if (!entry.compiled) {
    throw new BudgetFailure(deadline.overMemory
      ? `The model could not be compiled within the memory budget of ${COMPILE_MEMORY_BYTES >> 20} MB.`
      : `The model could not be compiled within the time budget of ${Math.round(job.timeoutMs / 1000)} s.`);
  }
  compiledNow = compiledFormBytes(entry.compiled);
  return entry.compiled;
}

function commonality(compiled: CompiledModel) {
  const { configurations, counts } = compiled.commonality();
  const features: Record<string, { commonality: string; probability: number }> = {};
  const shown: Record<string, string> = {};
  compiled.names.forEach((name, i) => {
    // The nearest double to the exact ratio (extensions 6a), and its text for people.
    features[name] = { commonality: counts[i]!.toString(), probability: probabilityOf(counts[i]!, configurations) };
    shown[name] = formatProbability(counts[i]!, configurations);
  });
  // The page's summary: the texts (a variant feature never reads 0 or 1) and the histogram's bars,
  // decided on the integers, so the end bars hold exactly the dead and core features.
  const bins = probabilityBins(counts, configurations).map((b) => b.count);
  return { result: { configurations: configurations.toString(), boolean_only: compiled.ignoredConstraints === 0, features }, shown, bins };
}


/**
 * The sample packed as it is drawn (one bit per feature, packages/analysis sample/compact.ts): each
 * configuration lists its selected names in the order of `features`, the names sorted, as before.
 */
function uniform(entry: WarmModel, job: Extract<ConfiguratorJob, { op: 'uniform' }>): Uint8Array {
  const compiled = compiledOf(entry, job);
  const known = (name: string) => { if (compiled.variableOf(name) === undefined) throw new UnknownFeatureError(name); return name; };
  const decisions = { selected: job.selected.map(known), deselected: job.deselected.map(known) };
  if ((decisions.selected.length > 0 || decisions.deselected.length > 0) && compiled.count(decisions) === 0n) throw new JobFailure(contradiction(entry, decisions, job.timeoutMs));
  const names = compiled.names;
  if (job.n * names.length > MAX_SAMPLE_CELLS) {
    const most = Math.floor(MAX_SAMPLE_CELLS / names.length);
    throw new JobFailure(`A sample holds at most ${MAX_SAMPLE_CELLS} cells (configurations × features): ask for at most ${most} configurations of this model's ${names.length} features.`);
  }
  entry.byName ??= Int32Array.from(names.keys()).sort((a, b) => (names[a]! < names[b]! ? -1 : names[a]! > names[b]! ? 1 : 0));
  const order = entry.byName;
  const features = Array.from(order, (i) => names[i]!);
  const rows = new BitRows(features.length, job.n);
  for (const c of compiled.uniformSamples(job.n, job.seed, decisions)) rows.add((p) => Boolean(c[order[p]!]));
  const answer = {
    kind: 'uniform', n: job.n, seed: job.seed, selected: job.selected, deselected: job.deselected,
    engine_version: ENGINE_VERSION, boolean_only: compiled.ignoredConstraints === 0, features, configurations: [],
  };
  return packSample(answer, features, rows);
}

/**
 * Why no configuration keeps a sample's decisions: an empty sample would read as an answer, so the
 * request fails (422) naming a minimal conflict, as a configure step names it.
 */
function contradiction(entry: WarmModel, decisions: DecisionSet, timeoutMs: number): string {
  const none = 'No configuration keeps these decisions';
  entry.configurator ??= new Configurator(entry.model, { text: entry.text, counter: (assumptions) => entry.compiled?.count(assumptions) ?? null });
  try {
    const result = entry.configurator.configure({ selected: [...decisions.selected], deselected: [...decisions.deselected] }, { deadline: Deadline.after(timeoutMs), countTimeoutMs: 0 });
    if (result.consistent) return `${none}: the selections contradict each other or the model.`;
    const { decisions: conflicting, constraints } = result.conflict;
    const what = conflicting.length === 1 ? `${conflicting[0]} contradicts the model` : `${conflicting.join(', ')} contradict each other`;
    return `${none}: ${what} (${constraints.length > 0 ? constraints.join('; ') : 'through the tree'}).`;
  } catch {
    return `${none}: the selections contradict each other or the model.`;
  }
}

/** The feature tree in pre-order, compact: the configurator's page draws it (big models have ~20,000 features). */
function tree(model: UvlModel): { features: [string, number, string][] } {
  if (model.imports.length > 0) return graftedTree(model);
  const features: [string, number, string][] = [];
  const stack: { feature: Feature; parent: number; group: string }[] = model.root ? [{ feature: model.root, parent: -1, group: '' }] : [];
  while (stack.length > 0) {
    const { feature, parent, group } = stack.pop()!;
    const index = features.push([feature.name, parent, group]) - 1;
    // Pushed in reverse so that children come out in source order.
    for (const g of [...feature.groups].reverse()) {
      for (const child of [...g.children].reverse()) stack.push({ feature: child, parent: index, group: g.kind });
    }
  }
  return { features };
}

/** Relations as group kinds: the grafted tree knows a group only by its bounds. */
function kindOf(relation: { min: number; max: number; children: number[] }): string {
  if (relation.children.length === 1) return relation.min === 1 ? 'mandatory' : 'optional';
  if (relation.min === 1 && relation.max === 1) return 'alternative';
  return relation.min === 1 && relation.max === relation.children.length ? 'or' : 'cardinality';
}

/** A model with imports: the tree with the imported subtrees grafted in, under the names the configurator uses. */
function graftedTree(model: UvlModel): { features: [string, number, string][] } {
  const flat = flattenModel(model).features;
  const features: [string, number, string][] = [];
  const stack: { at: number; parent: number; group: string }[] = flat.length > 0 ? [{ at: 0, parent: -1, group: '' }] : [];
  while (stack.length > 0) {
    const { at, parent, group } = stack.pop()!;
    const index = features.push([flat[at]!.name, parent, group]) - 1;
    const relations = flat[at]!.relations;
    for (let r = relations.length - 1; r >= 0; r--) {
      const kids = relations[r]!.children;
      for (let k = kids.length - 1; k >= 0; k--) stack.push({ at: kids[k]!, parent: index, group: kindOf(relations[r]!) });
    }
  }
  return { features };
}

/**
 * One configure step, with the explanation of one feature's state when asked. Propagation needs
 * no compiled form: the remaining count is given only when the model is compiled already here.
 */
function configure(entry: WarmModel, job: Extract<ConfiguratorJob, { op: 'configure' }>) {
  // The counter looks for the compiled form at each step: a compile in the background may add it later.
  entry.configurator ??= new Configurator(entry.model, { text: entry.text, counter: (assumptions) => entry.compiled?.count(assumptions) ?? null });
  const decisions = { selected: job.selected, deselected: job.deselected };
  const deadline = Deadline.after(job.timeoutMs);
  // A stored form is loaded (never a compile here): the step is counted at once.
  const counted = loadStored(entry, job);
  // Before the step: the engine patches its models from the last step's decisions to the next's.
  const base = job.since && statesUnder(entry, job.since, deadline);
  const result = entry.configurator.configure(decisions, { deadline, countTimeoutMs: counted ? job.timeoutMs : 0 });
  if (result.consistent) entry.recent.remember(decisions, result.features);
  let answer: object = result.consistent && !counted ? { ...result, remaining: null, remaining_status: 'not counted' } : result;
  if (base && result.consistent) {
    const { features, ...rest } = answer as typeof result;
    answer = { ...rest, changed: changedStates(base, features) };
  } else if (job.compact && result.consistent) {
    entry.treeOrder ??= tree(entry.model).features.map(([name]) => name);
    const { features, ...rest } = answer as typeof result;
    const states = compactStates(entry.treeOrder, features);
    answer = states === undefined ? answer : { ...rest, states };
  }
  if (job.why === undefined || !result.consistent) return answer;
  return { ...answer, why: entry.configurator.why(decisions, job.why, { deadline }) };
}

/** Letters of the compact answer, one per state. */
const LETTERS: Record<string, string> = { selected: 's', deselected: 'd', forced: 'f', excluded: 'x', open: 'o' };

/**
 * Every feature's state as one letter, in the order of the page's tree: the page's first step
 * (automotive2_4: 18,616 letters instead of 613 KB of names and states). Undefined when the tree
 * and the states do not name the same features (the full answer then).
 */
function compactStates(order: string[], features: Record<string, string>): string | undefined {
  if (order.length !== Object.keys(features).length) return undefined;
  let letters = '';
  for (const name of order) {
    const letter = LETTERS[features[name]!];
    if (letter === undefined) return undefined;
    letters += letter;
  }
  return letters;
}

/**
 * The states under the decisions of the state a page holds: kept from a recent step, else
 * propagated again (uncounted); undefined when they have no configuration (the full answer then).
 */
function statesUnder(entry: WarmModel, since: DecisionSet, deadline: Deadline): States | undefined {
  const kept = entry.recent.get(since);
  if (kept) return kept;
  const result = entry.configurator!.configure({ selected: [...since.selected], deselected: [...since.deselected] }, { deadline, countTimeoutMs: 0 });
  if (!result.consistent) return undefined;
  entry.recent.remember(since, result.features);
  return result.features;
}

/** The job's budget, ended early when the main thread sets the job's cancel flag (a shared word). */
class CancellableDeadline extends Deadline {
  private readonly flag: Int32Array;
  constructor(at: number, flag: Int32Array) {
    super(at);
    this.flag = flag;
  }
  private get cancelled(): boolean { return Atomics.load(this.flag, 0) !== 0; }
  override expired(): boolean { return this.cancelled || super.expired(); }
  override remainingMs(): number { return this.cancelled ? 0 : super.remainingMs(); }
  override check(): void { if (this.cancelled) throw new JobFailure(CANCELLED); super.check(); }
}

const CANCELLED = SAMPLE_CANCELLED;

/** Packed as the uniform sample is, unless a configuration lists its names in another order than `features` (then JSON). */
function twise(entry: WarmModel, job: Extract<ConfiguratorJob, { op: 'twise' }>): ConfiguratorReply {
  const deadline = job.cancel ? new CancellableDeadline(Date.now() + job.timeoutMs, job.cancel) : Deadline.after(job.timeoutMs);
  // Progress goes to the main thread as the greedy builds configurations (the page shows it).
  const onProgress = ({ covered, total }: { covered: number; total: number }) => parentPort!.postMessage({ id: job.id, kind: 'progress', covered, total });
  const sample = twiseSample(entry.model, { t: job.t, seed: job.seed, deadline, text: entry.text, onProgress, maxBits: MAX_TWISE_BITS, maxCells: MAX_SAMPLE_CELLS });
  if (job.cancel && Atomics.load(job.cancel, 0) !== 0) throw new JobFailure(CANCELLED);
  if (sample.limit) throw new JobFailure(overBudget(sample, sample.features.length));
  const result = { ...sample, engine_version: ENGINE_VERSION };
  const rows = rowsOfNames(result.features, result.configurations);
  return rows ? { id: job.id, kind: 'done', json: '', sample: packSample(result, result.features, rows) } : { id: job.id, kind: 'done', json: JSON.stringify(result) };
}

/** Why the hub does not give a t-wise sample that passes its limits, and how to get it. */
function overBudget(sample: TwiseResult, features: number): string {
  const cli = `Run \`hub uvl sample FILE --twise ${sample.t} --timeout 3600\` on the command line for the whole sample.`;
  if (sample.limit === 'cells') {
    return `The ${sample.t}-wise sample of this model is larger than the hub keeps: after ${sample.size} configurations of ${features} features it would pass the limit of ${MAX_SAMPLE_CELLS} cells (configurations × features) a sample may hold. ${cli}`;
  }
  return `The ${sample.t}-wise sample of this model needs more memory than the hub's workers have (${sample.note?.replace(/^not sampled: /, '').replace(/, more than allowed$/, '')}; the limit is ${MAX_TWISE_BITS / 8 / 2 ** 20} MB). ${cli}`;
}

/** The import paths the model still needs (none: the main thread has them all). */
function resolve(job: ConfiguratorJob): ConfiguratorReply {
  if (job.model.text === undefined) return { id: job.id, kind: 'need-text' };
  const wanted = new Set<string>();
  parseWithImports(job, wanted);
  return wanted.size > 0 ? { id: job.id, kind: 'need-imports', paths: [...wanted].sort() } : { id: job.id, kind: 'done', json: '{}' };
}

function run(job: ConfiguratorJob): ConfiguratorReply {
  if (job.op === 'resolve') return resolve(job);
  const entry = warmModel(job);
  if (!entry) return { id: job.id, kind: 'need-text' };
  switch (job.op) {
    case 'configure': return { id: job.id, kind: 'done', json: JSON.stringify(configure(entry, job)), compiled: entry.compiled !== undefined };
    case 'compile': compiledOf(entry, job); return { id: job.id, kind: 'done', json: '{}', compiled: true };
    case 'tree': return { id: job.id, kind: 'done', json: JSON.stringify(tree(entry.model)) };
    case 'names': {
      // The configurator's own names when it is built; else the same ones without building it (no SAT work).
      const known = entry.featureNames ??= new Set(entry.configurator?.names ?? flattenModel(entry.model).features.map((f) => f.name));
      return { id: job.id, kind: 'done', json: JSON.stringify({ unknown: job.names.filter((name) => !known.has(name)) }) };
    }
    case 'commonality': {
      const { result, shown, bins } = commonality(compiledOf(entry, job));
      const probability = Object.fromEntries(Object.entries(result.features).map(([name, f]) => [name, f.probability]));
      return { id: job.id, kind: 'done', json: JSON.stringify(result), summary: JSON.stringify({ probability, shown, bins }) };
    }
    case 'uniform': return { id: job.id, kind: 'done', json: '', sample: uniform(entry, job) };
    case 'twise': return twise(entry, job);
  }
}

parentPort!.on('message', (job: ConfiguratorJob) => {
  let reply: ConfiguratorReply;
  compiledNow = undefined;
  formRefused = false;
  try {
    reply = run(job);
    if (reply.kind === 'done' && compiledNow) reply.form = compiledNow;
    if (reply.kind === 'done' && formRefused) reply.formRefused = true;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const kind = error instanceof UnknownFeatureError ? 'bad-value' : error instanceof BudgetFailure ? 'budget' : 'failed';
    reply = error instanceof NeedForm ? { id: job.id, kind: 'need-form' } : { id: job.id, kind, message };
  }
  // A sample's and a form's bytes are handed over, not copied (23 MB for 10 000 configurations of automotive2_4).
  const transfer = reply.kind === 'done' ? [reply.sample?.buffer, reply.form?.buffer].filter((b): b is ArrayBuffer => b !== undefined) : [];
  parentPort!.postMessage(reply, transfer);
});
