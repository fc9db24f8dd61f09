// One model, every analysis of extensions section 1, within one time budget. The order puts
// the cheap answers first (satisfiable, backbone) so that a model too hard to count still gets
// them; the count may use most of what is left, the remaining operations share the rest.
// An operation that runs out of time gives null and is listed in `timeouts`: nothing is guessed.

import type { UvlModel } from '../../uvl/src/index.ts';
import { compileEncoded, type Commonality, type CompiledEncoding } from './compile/compiled-model.ts';
import { countCnf } from './count/counter.ts';
import { treeFormulaCount } from './count/tree-formula.ts';
import { Deadline } from './deadline.ts';
import { counterEncoding, encodeModel, modelClauses, type EncodedConstraint, type EncodedModel } from './encode.ts';
import { atomicSets } from './ops/atomic-sets.ts';
import { compiledAtomicSets, compiledBackbone, compiledFalseOptional } from './ops/compiled-anomalies.ts';
import { solverBackbone } from './ops/backbone.ts';
import { Explainer } from './ops/explain.ts';
import { falseOptionalNodes } from './ops/false-optional.ts';
import { computeMetrics } from './ops/metrics.ts';
import { TreeIndex } from './ops/tree-index.ts';
import { deadPath, falseOptionalPath, type PathContext } from './ops/tree-paths.ts';
import { SatSolver } from './sat/solver.ts';
import { estimateConfigurations, estimateField } from './estimate.ts';
import type { AnalysisResult, AnalyzeOptions, OperationName } from './types.ts';

const DEFAULT_TIMEOUT_MS = 60_000;
/** Alternative groups up to this size are pairwise for the SAT calls (the counter keeps its own encoding). */
const SAT_PAIRWISE_LIMIT = 512;
/** Share of the remaining budget the count may use. */
const COUNT_SHARE = 0.7;
/**
 * Share of the budget the compilation may use: automotive2_4 compiles in about 1.5 s of 60 (over
 * 9 s on the 2-core machine at a load of 10). A model that takes longer is hard: it gets the SAT
 * operations, which report core and dead before the count (a hard model's count may run for most
 * of the budget), and the counter, which then has at least three quarters of its former time.
 */
const COMPILE_SHARE = 0.25;

/** What the estimate leaves of the budget for its last step and the result's hand-over. */
const ESTIMATE_RESERVE_MS = 300;

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function analyzeModel(model: UvlModel, options: AnalyzeOptions = {}): AnalysisResult {
  const overall = Deadline.after(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const run = new Run(computeMetrics(model), options.onProgress);
  const { result, timeouts, timed } = run;
  if (!model.root) {
    // An empty file: no features, hence no configuration to speak of. Void by its (empty) tree
    // alone: no constraint explains it (extensions section 1, the reason `tree`).
    markVoid(result);
    explanationsOf(result).void = [];
    result.reasons = { void: 'tree' };
    return result;
  }

  run.report(['satisfiable', 'backbone', 'count', 'false_optional', 'atomic_sets', 'explanations']);
  const enc = timed('encode', () => satEncoding(model, options.text));
  result.ignored_constraints = enc.ignored;
  result.ignored = enc.ignoredConstraints;
  result.boolean_only = enc.ignored === 0;
  const names = enc.names;
  const solver = satSolverFor(enc);
  const tree = new TreeIndex(enc);

  // Satisfiability first: a void model needs nothing else but its explanation.
  const status = timed('satisfiable', () => solver.solve([], overall));
  if (status === 'timeout') {
    // Nothing after it ran: every operation is listed, since every value is null.
    timeouts.push('satisfiable', 'backbone', 'count', 'false_optional', 'atomic_sets', 'explanations');
    result.configurations_status = 'timeout';
    return run.finish();
  }
  const explainer = lazyExplainer(enc, overall);
  if (status === 'unsat') {
    markVoid(result);
    const why = timed('explanations', () => explainer([]));
    if (why === null) timeouts.push('explanations');
    else if (why !== undefined) {
      explanationsOf(result).void = why.map((c) => c.label);
      if (why.length === 0) result.reasons = { void: 'tree' };
    }
    return run.finish();
  }
  result.satisfiable = true;
  const sample = solver.model();
  result.sample_configuration = names.filter((_, i) => sample[i + 1]! > 0).sort(byName);

  // One compilation gives the count, the backbone, the false-optional features and the atomic
  // sets; a model that does not compile within its share of the budget gets the SAT operations
  // and the counter with what is left.
  const compiled =
    !options.skipCount && options.useCompiledForm !== false
      ? timed('compile', () => compileEncoded(counterEncoding(model, enc, options.text), Deadline.after(overall.remainingMs() * COMPILE_SHARE)))
      : null;
  const count = (): bigint | null =>
    options.countBudgetMs === 0 ? null : countConfigurations(model, enc, Deadline.after(options.countBudgetMs ?? overall.remainingMs() * COUNT_SHARE), options.text);
  const ops = compiled ? compiledOperations(compiled, enc, overall) : satOperations(solver, enc, tree, overall, count);
  // A model that did not compile may not count either (linux-2.6.33.3): the SAT operations and
  // the explanations, a few seconds, go first, and the count and its estimate share the rest.
  const countLast = !compiled && !options.skipCount;
  const anomalies = runOperations(run, enc, ops, options.skipCount ? 'skip' : countLast ? 'later' : 'now');
  if (anomalies === null) return run.finish();

  run.report(countLast ? ['explanations', 'count'] : ['explanations']);
  const complete = timed('explanations', () => explainAnomalies(result, { enc, tree, backbone: anomalies.backbone }, anomalies.deadVars, anomalies.falseOptional, explainer));
  if (!complete) timeouts.push('explanations');
  if (countLast) {
    run.report(['count']);
    countOrEstimate(run, enc, ops, anomalies.backbone, overall, { seed: options.estimateSeed, factor: options.estimateFactor });
  }
  return run.finish();
}

/**
 * The exact count, or, when it runs out of time, the estimate (within the rest of the budget). The
 * estimate counts the components it can exactly (estimate.ts): when that is all of them, the
 * count is exact after all and is given as such.
 */
function countOrEstimate(run: Run, enc: EncodedModel, ops: Operations, backbone: Int8Array, deadline: Deadline, how: { seed?: number; factor?: boolean }): void {
  const { result, timeouts, timed } = run;
  const count = timed('count', () => ops.count()) ?? undefined;
  // The estimate ends a little before the budget (it reads the clock between steps that can take
  // tens of milliseconds), so that the result is handed over within it.
  const estimate = count === undefined
    ? timed('estimate', () => estimateConfigurations(enc, { backbone, deadline: Deadline.after(Math.max(0, deadline.remainingMs() - ESTIMATE_RESERVE_MS)), seed: how.seed, factor: how.factor }))
    : null;
  // An estimate that counted every component is the exact count after all.
  const exact = count ?? (estimate?.exact ? estimate.value : undefined);
  if (exact !== undefined) {
    result.configurations = exact.toString();
    result.configurations_status = 'exact';
    return;
  }
  result.configurations_status = 'timeout';
  timeouts.push('count');
  if (estimate) result.configurations_estimate = estimateField(estimate);
}

/** One analysis under way: its result so far, the operations that timed out, their timings. */
class Run {
  readonly timings: Record<string, number> = {};
  readonly timeouts: OperationName[] = [];
  readonly result: AnalysisResult;

  constructor(
    metrics: AnalysisResult['metrics'],
    private readonly onProgress: AnalyzeOptions['onProgress'],
  ) {
    this.result = {
      valid: true,
      boolean_only: true,
      ignored_constraints: 0,
      ignored: [],
      satisfiable: null,
      configurations: null,
      configurations_status: 'skipped',
      core: null,
      dead: null,
      false_optional: null,
      variant: null,
      atomic_sets: null,
      explanations: { void: [], dead: {}, false_optional: {} },
      metrics,
      timings_ms: this.timings,
    };
  }

  readonly timed = <T>(name: string, run: () => T): T => {
    const start = performance.now();
    try {
      return run();
    } finally {
      this.timings[name] = Math.round(performance.now() - start);
    }
  };

  /** What is known so far, a copy: the caller may keep it (or send it to another thread) while this goes on. */
  report(running: OperationName[]): void {
    if (!this.onProgress) return;
    this.onProgress(structuredClone({ ...this.result, ...(this.timeouts.length > 0 ? { timeouts: [...new Set(this.timeouts)] } : {}) }), running);
  }

  finish(): AnalysisResult {
    return finish(this.result, this.timeouts);
  }
}

/**
 * The backbone, the count, the false-optional features and the atomic sets into the result, in
 * that order, each reported as it comes; what the explanations need, or null when the backbone
 * ran out of time (then nothing after it ran).
 */
function runOperations(run: Run, enc: EncodedModel, ops: Operations, counting: 'now' | 'later' | 'skip'): { backbone: Int8Array; deadVars: number[]; falseOptional: number[] } | null {
  const { result, timeouts, timed } = run;
  const names = enc.names;
  const backbone = timed('backbone', () => ops.backbone());
  if (backbone === null) {
    timeouts.push('backbone', 'count', 'false_optional', 'atomic_sets', 'explanations');
    result.configurations_status = 'timeout';
    return null;
  }
  const featureVars = Array.from({ length: enc.featureVars }, (_, i) => i + 1);
  const byFeatureName = (a: number, b: number) => byName(names[a - 1]!, names[b - 1]!);
  const deadVars = featureVars.filter((v) => backbone[v]! < 0).sort(byFeatureName);
  const nameOf = (v: number) => names[v - 1]!;
  result.core = featureVars.filter((v) => backbone[v]! > 0).sort(byFeatureName).map(nameOf);
  result.dead = deadVars.map(nameOf);
  result.variant = featureVars.filter((v) => backbone[v] === 0).sort(byFeatureName).map(nameOf);

  // What is still to run, in its order: a count left for later goes last.
  const pending = (ops: OperationName[]): OperationName[] => (counting === 'later' ? [...ops, 'count'] : ops);
  run.report(counting === 'now' ? ['count', 'false_optional', 'atomic_sets', 'explanations'] : pending(['false_optional', 'atomic_sets', 'explanations']));
  if (counting === 'skip') {
    result.configurations_status = 'skipped';
  } else if (counting === 'now') {
    const count = timed('count', () => ops.count());
    if (count === null) {
      result.configurations_status = 'timeout';
      timeouts.push('count');
    } else {
      result.configurations = count.toString();
      result.configurations_status = 'exact';
    }
  }

  run.report(pending(['false_optional', 'atomic_sets', 'explanations']));
  const falseOptional = timed('false_optional', () => ops.falseOptional(backbone));
  if (falseOptional === null) timeouts.push('false_optional');
  else result.false_optional = [...new Set(falseOptional.map((i) => enc.flat.features[i]!.name))].sort(byName);

  run.report(pending(['atomic_sets', 'explanations']));
  const sets = timed('atomic_sets', () => ops.atomicSets(backbone));
  if (sets === null) timeouts.push('atomic_sets');
  else result.atomic_sets = sets.map((set) => set.map(nameOf).sort(byName)).sort((a, b) => byName(a[0]!, b[0]!));
  return { backbone, deadVars, falseOptional: falseOptional ?? [] };
}

type Explain = (assumptions: number[]) => EncodedConstraint[] | null | undefined;

/** The explainer's answers, its solver built at the first question (a model without anomalies needs none). */
function lazyExplainer(enc: EncodedModel, deadline: Deadline): Explain {
  let explainer: Explainer | undefined;
  return (assumptions) => {
    explainer ??= new Explainer(enc);
    return explainer.explain(assumptions, deadline);
  };
}

/**
 * Why each dead feature is dead, and why each false-optional one is forced, into the result;
 * each also gets the tree path from its constraints to it when they do not name it
 * (ops/tree-paths.ts). False when the deadline passed first.
 */
function explainAnomalies(result: AnalysisResult, pathContext: PathContext, deadVars: number[], falseOptional: number[], explain: Explain): boolean {
  const { enc } = pathContext;
  const explanations = explanationsOf(result);
  const paths = (result.explanation_paths = { dead: {}, false_optional: {} } as NonNullable<AnalysisResult['explanation_paths']>);
  const anomalies: { name: string; assumptions: number[]; into: Record<string, string[]>; path: (why: EncodedConstraint[]) => string[] | undefined; pathsInto: Record<string, string[]> }[] = deadVars.map((v) => ({
    name: enc.names[v - 1]!,
    assumptions: [v],
    into: explanations.dead,
    path: (why) => deadPath(pathContext, v, why),
    pathsInto: paths.dead,
  }));
  const seen = new Set<string>();
  for (const i of falseOptional) {
    const node = enc.flat.features[i]!;
    if (seen.has(node.name)) continue;
    seen.add(node.name);
    anomalies.push({
      name: node.name,
      assumptions: [enc.nodeVar[node.parent]!, -enc.nodeVar[i]!],
      into: explanations.false_optional,
      path: (why) => falseOptionalPath(pathContext, i, why),
      pathsInto: paths.false_optional,
    });
  }
  for (const anomaly of anomalies) {
    const why = explain(anomaly.assumptions);
    if (why === null) return false;
    if (why === undefined) continue;
    anomaly.into[anomaly.name] = why.map((c) => c.label);
    if (why.length === 0) (result.reasons ??= {})[anomaly.name] = 'tree';
    const path = anomaly.path(why);
    if (path) anomaly.pathsInto[anomaly.name] = path;
  }
  return true;
}

/** The operations after satisfiability; null from one: it ran out of time. */
interface Operations {
  /** Per feature variable: 1 core, -1 dead, 0 variant. */
  backbone(): Int8Array | null;
  count(): bigint | null;
  /** Flat tree nodes. */
  falseOptional(backbone: Int8Array): number[] | null;
  atomicSets(backbone: Int8Array): number[][] | null;
}

/** From the compiled form: one commonality pass, then passes over the form (ops/compiled-anomalies.ts). */
function compiledOperations(compiled: CompiledEncoding, enc: EncodedModel, deadline: Deadline): Operations {
  let known: Commonality | undefined;
  const commonality = () => (known ??= compiled.compiled.commonality());
  return {
    backbone: () => {
      const c = commonality();
      return compiledBackbone(c.counts, c.configurations, enc.numVars);
    },
    // The commonality pass's total: no second pass over the form.
    count: () => commonality().configurations,
    falseOptional: (backbone) => compiledFalseOptional(enc, commonality().counts, backbone),
    atomicSets: (backbone) => compiledAtomicSets(compiled, backbone, deadline),
  };
}

/** By SAT calls, on the solver that found the sample (every model found is kept for the atomic sets), and the count as given. */
function satOperations(solver: SatSolver, enc: EncodedModel, tree: TreeIndex, deadline: Deadline, count: () => bigint | null): Operations {
  const models: Int8Array[] = [];
  const featureVars = Array.from({ length: enc.featureVars }, (_, i) => i + 1);
  return {
    backbone: () => solverBackbone(solver, featureVars, deadline, (m) => models.push(m))?.value ?? null,
    count,
    falseOptional: (backbone) => falseOptionalNodes(solver, enc, tree, backbone, deadline, models.slice(), (m) => models.push(m)),
    atomicSets: (backbone) => atomicSets(solver, enc, tree, backbone, models, deadline),
  };
}

/** No configuration: the count is 0 and the feature lists mean nothing, so they are empty (extensions section 1). */
function markVoid(result: AnalysisResult): AnalysisResult {
  result.satisfiable = false;
  result.configurations = '0';
  result.configurations_status = 'exact';
  result.core = [];
  result.dead = [];
  result.false_optional = [];
  result.variant = [];
  result.atomic_sets = [];
  return result;
}

/** The explanations being filled in: an object until `finish` (null only once they ran out of time). */
function explanationsOf(result: AnalysisResult): NonNullable<AnalysisResult['explanations']> {
  if (result.explanations === null) throw new Error('the explanations of a finished analysis');
  return result.explanations;
}

function finish(result: AnalysisResult, timeouts: OperationName[]): AnalysisResult {
  if (timeouts.length > 0) result.timeouts = [...new Set(timeouts)];
  // Extensions section 1: an operation out of time gives null. Explanations found before the
  // deadline are a part of the answer that cannot say it is a part: they go, with what they imply.
  if (timeouts.includes('explanations')) {
    result.explanations = null;
    delete result.explanation_paths;
    delete result.reasons;
  }
  return result;
}

/** The backbone of the model's feature variables on its own solver (the benchmark times it alone). */
export function modelBackbone(enc: EncodedModel, deadline: Deadline): ReturnType<typeof solverBackbone> {
  const solver = satSolverFor(enc);
  const vars: number[] = [];
  for (let v = 1; v <= enc.featureVars; v++) vars.push(v);
  return solverBackbone(solver, vars, deadline);
}

function satSolverFor(enc: EncodedModel): SatSolver {
  const solver = new SatSolver(enc.numVars);
  for (const c of modelClauses(enc)) solver.addClause(c);
  // Auxiliary variables follow from the features by propagation: branching on them is wasted.
  for (let v = enc.featureVars + 1; v <= enc.numVars; v++) solver.setDecisionVar(v, false);
  return solver;
}

/** The encoding the SAT-based operations use. */
export function satEncoding(model: UvlModel, text?: string): EncodedModel {
  return encodeModel(model, text, { pairwiseLimit: SAT_PAIRWISE_LIMIT });
}

/** The exact number of configurations, or null past the deadline. */
export function countConfigurations(model: UvlModel, satEncoding: EncodedModel, deadline: Deadline, text?: string): bigint | null {
  if (satEncoding.constraints.length === 0 && !satEncoding.sharedNames) return treeFormulaCount(satEncoding.flat);
  const enc = counterEncoding(model, satEncoding, text);
  return countCnf(enc.numVars, modelClauses(enc), deadline, enc.definitions);
}
