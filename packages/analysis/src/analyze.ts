// One model, every analysis of extensions section 1, within one time budget. The order puts
// the cheap answers first (satisfiable, backbone) so that a model too hard to count still gets
// them; the count may use most of what is left, the remaining operations share the rest.
// An operation that runs out of time gives null and is listed in `timeouts`: nothing is guessed.

import type { UvlModel } from '../../uvl/src/index.ts';
import { countCnf } from './count/counter.ts';
import { treeFormulaCount } from './count/tree-formula.ts';
import { Deadline } from './deadline.ts';
import { PAIRWISE_LIMIT, encodeModel, type EncodedConstraint, type EncodedModel } from './encode.ts';
import { atomicSets } from './ops/atomic-sets.ts';
import { solverBackbone } from './ops/backbone.ts';
import { Explainer } from './ops/explain.ts';
import { falseOptionalNodes } from './ops/false-optional.ts';
import { computeMetrics } from './ops/metrics.ts';
import { TreeIndex } from './ops/tree-index.ts';
import { deadPath, falseOptionalPath } from './ops/tree-paths.ts';
import { SatSolver } from './sat/solver.ts';
import type { AnalysisResult, AnalyzeOptions, OperationName } from './types.ts';

const DEFAULT_TIMEOUT_MS = 60_000;
/** Alternative groups up to this size are pairwise for the SAT calls (the counter keeps its own encoding). */
const SAT_PAIRWISE_LIMIT = 512;
/** Share of the remaining budget the count may use. */
const COUNT_SHARE = 0.7;

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function analyzeModel(model: UvlModel, options: AnalyzeOptions = {}): AnalysisResult {
  const overall = Deadline.after(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const timings: Record<string, number> = {};
  const timeouts: OperationName[] = [];
  const timed = <T>(name: string, run: () => T): T => {
    const start = performance.now();
    try {
      return run();
    } finally {
      timings[name] = Math.round(performance.now() - start);
    }
  };

  const metrics = computeMetrics(model);
  const result: AnalysisResult = {
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
    timings_ms: timings,
  };
  // What is known so far, a copy: the caller may keep it (or send it to another thread) while this goes on.
  const report = (running: OperationName[]) => options.onProgress?.(structuredClone({ ...result, ...(timeouts.length > 0 ? { timeouts: [...new Set(timeouts)] } : {}) }), running);
  if (!model.root) {
    // An empty file: no features, hence no configuration to speak of.
    return markVoid(result);
  }

  report(['satisfiable', 'backbone', 'count', 'false_optional', 'atomic_sets', 'explanations']);
  const enc = timed('encode', () => satEncoding(model, options.text));
  result.ignored_constraints = enc.ignored;
  result.ignored = enc.ignoredConstraints;
  result.boolean_only = enc.ignored === 0;
  const names = enc.names;
  const featureVars: number[] = [];
  for (let v = 1; v <= enc.featureVars; v++) featureVars.push(v);

  const solver = satSolverFor(enc);
  const tree = new TreeIndex(enc);

  // Satisfiability and the backbone, with every model found kept for the atomic sets.
  const models: Int8Array[] = [];
  const backbone = timed('backbone', () => solverBackbone(solver, featureVars, overall, (m) => models.push(m)));
  if (backbone === null) {
    // Nothing after it ran: every operation is listed, since every value is null.
    timeouts.push('satisfiable', 'backbone', 'count', 'false_optional', 'atomic_sets', 'explanations');
    result.configurations_status = 'timeout';
    return finish(result, timeouts);
  }
  result.satisfiable = backbone.satisfiable;

  let explainer: Explainer | undefined;
  const explain = (assumptions: number[]): EncodedConstraint[] | null | undefined => {
    explainer ??= new Explainer(enc);
    return explainer.explain(assumptions, overall);
  };

  if (!backbone.satisfiable) {
    markVoid(result);
    const why = timed('explanations', () => explain([]));
    if (why === null) timeouts.push('explanations');
    else if (why !== undefined) {
      result.explanations.void = why.map((c) => c.label);
      if (why.length === 0) result.reasons = { void: 'tree' };
    }
    return finish(result, timeouts);
  }

  const sample = models[0]!;
  result.sample_configuration = featureVars.filter((v) => sample[v]! > 0).map((v) => names[v - 1]!).sort(byName);
  const byFeatureName = (a: number, b: number) => byName(names[a - 1]!, names[b - 1]!);
  const deadVars = featureVars.filter((v) => backbone.value[v]! < 0).sort(byFeatureName);
  const nameOf = (v: number) => names[v - 1]!;
  result.core = featureVars.filter((v) => backbone.value[v]! > 0).sort(byFeatureName).map(nameOf);
  result.dead = deadVars.map(nameOf);
  result.variant = featureVars.filter((v) => backbone.value[v] === 0).sort(byFeatureName).map(nameOf);

  report(['count', 'false_optional', 'atomic_sets', 'explanations']);

  // The count: the tree formula when nothing crosses the tree, else the component counter.
  if (options.skipCount) {
    result.configurations_status = 'skipped';
  } else {
    const countDeadline = Deadline.after(overall.remainingMs() * COUNT_SHARE);
    const count = timed('count', () => countConfigurations(model, enc, countDeadline, options.text));
    if (count === null) {
      result.configurations_status = 'timeout';
      timeouts.push('count');
    } else {
      result.configurations = count.toString();
      result.configurations_status = 'exact';
    }
  }

  report(['false_optional', 'atomic_sets', 'explanations']);
  const falseOptional = timed('false_optional', () => falseOptionalNodes(solver, enc, tree, backbone.value, overall, models.slice(), (m) => models.push(m)));
  if (falseOptional === null) timeouts.push('false_optional');
  else result.false_optional = [...new Set(falseOptional.map((i) => enc.flat.features[i]!.name))].sort(byName);

  report(['atomic_sets', 'explanations']);
  const sets = timed('atomic_sets', () => atomicSets(solver, enc, tree, backbone.value, models, overall));
  if (sets === null) timeouts.push('atomic_sets');
  else result.atomic_sets = sets.map((set) => set.map((v) => names[v - 1]!).sort(byName)).sort((a, b) => byName(a[0]!, b[0]!));

  report(['explanations']);
  // Explanations: why each dead feature is dead, and why each false-optional one is forced.
  // Each also gets the tree path from its constraints to it when they do not name it (ops/tree-paths.ts).
  const pathContext = { enc, tree, backbone: backbone.value };
  const paths = (result.explanation_paths = { dead: {}, false_optional: {} } as NonNullable<AnalysisResult['explanation_paths']>);
  const anomalies: { name: string; assumptions: number[]; into: Record<string, string[]>; path: (why: EncodedConstraint[]) => string[] | undefined; pathsInto: Record<string, string[]> }[] = deadVars.map((v) => ({
    name: names[v - 1]!,
    assumptions: [v],
    into: result.explanations.dead,
    path: (why) => deadPath(pathContext, v, why),
    pathsInto: paths.dead,
  }));
  const seen = new Set<string>();
  for (const i of falseOptional ?? []) {
    const node = enc.flat.features[i]!;
    if (seen.has(node.name)) continue;
    seen.add(node.name);
    anomalies.push({
      name: node.name,
      assumptions: [enc.nodeVar[node.parent]!, -enc.nodeVar[i]!],
      into: result.explanations.false_optional,
      path: (why) => falseOptionalPath(pathContext, i, why),
      pathsInto: paths.false_optional,
    });
  }
  timed('explanations', () => {
    for (const anomaly of anomalies) {
      const why = explain(anomaly.assumptions);
      if (why === null) {
        timeouts.push('explanations');
        return;
      }
      if (why === undefined) continue;
      anomaly.into[anomaly.name] = why.map((c) => c.label);
      if (why.length === 0) (result.reasons ??= {})[anomaly.name] = 'tree';
      const path = anomaly.path(why);
      if (path) anomaly.pathsInto[anomaly.name] = path;
    }
  });
  return finish(result, timeouts);
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

function finish(result: AnalysisResult, timeouts: OperationName[]): AnalysisResult {
  if (timeouts.length > 0) result.timeouts = [...new Set(timeouts)];
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
  for (const c of enc.tree) solver.addClause(c);
  for (const c of enc.definitions) solver.addClause(c);
  for (const k of enc.constraints) for (const c of k.clauses) solver.addClause(c);
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
  // The counter wants linear counters for wide alternative groups; otherwise the SAT encoding is the same.
  const enc = satEncoding.widestPairwiseGroup > PAIRWISE_LIMIT ? encodeModel(model, text) : satEncoding;
  // The definitions stand between the tree and the constraints, as in every other CNF of the model.
  const clauses: number[][] = [...enc.tree, ...enc.definitions];
  for (const k of enc.constraints) clauses.push(...k.clauses);
  return countCnf(enc.numVars, clauses, deadline, enc.definitions);
}
