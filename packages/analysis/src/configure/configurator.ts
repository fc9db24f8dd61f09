// The configurator (extensions section 6): a partial configuration (features selected and
// deselected) propagated to a state for every feature, the number of configurations left, a
// minimal conflict when nothing extends the decisions, and why a feature is forced or excluded.
//
// Built once per model and kept: the model is encoded once, one solver holds it with every
// constraint on (propagation), and the models it finds are kept to refute candidates of later
// steps. A step is the backbone under the decisions as assumptions: unit propagation first (what
// it derives is implied), one model, then each remaining candidate tested under its negation,
// every model found removing the candidates it disagrees with. Explanations use a second solver
// whose constraints each carry a selector, built when first needed.

import type { UvlModel } from '../../../uvl/src/index.ts';
import { satEncoding } from '../analyze.ts';
import { Deadline, DeadlineExceeded } from '../deadline.ts';
import { SatSolver } from '../sat/solver.ts';
import { exactCounter, type ConfigurationCounter } from './counter.ts';
import { minimalCore } from './minimal-core.ts';
import { ModelPatcher } from './model-patch.ts';
import { DecisionExplainer, decisionText } from './explain-decisions.ts';
import type { ConfigureResult, Decisions, FeatureState, WhyResult } from './types.ts';

/** A decision or a feature name that is not one of the model's features. */
export class UnknownFeatureError extends Error {
  readonly feature: string;
  constructor(feature: string) {
    super(`unknown feature: ${feature}`);
    this.name = 'UnknownFeatureError';
    this.feature = feature;
  }
}

export interface ConfiguratorOptions {
  /** The model's text, for constraint labels in the source's own words. */
  text?: string;
  /** Counts the configurations under signed feature literals; null when out of time. Default: the exact counter. */
  counter?: ConfigurationCounter;
}

export interface ConfigureOptions {
  /** Deadline of the propagation (the SAT part); past it a DeadlineExceeded is thrown. */
  deadline?: Deadline;
  /** Budget of the remaining count in ms (default 30 s); 0 skips the count. */
  countTimeoutMs?: number;
}

/** How many models found in earlier steps are kept to refute candidates without a call. */
const MODEL_POOL = 64;
const DEFAULT_COUNT_MS = 30_000;
/** Models with random phases kept from the build (each one SAT call). */
const DIVERSE_MODELS = 16;

export class Configurator {
  readonly names: string[];
  readonly booleanOnly: boolean;
  readonly ignoredConstraints: number;
  private readonly featureVars: number;
  private readonly varOf = new Map<string, number>();
  private readonly solver: SatSolver;
  private readonly counter: ConfigurationCounter;
  private readonly explainer: () => DecisionExplainer;
  /** Per feature variable: 1 in every configuration, -1 in none, 0 neither; null for a void model. */
  private readonly backbone: Int8Array | null;
  private readonly pool: Int8Array[] = [];
  /** Models with random phases, found once: they disagree with one another on most open features. */
  private readonly diverse: Int8Array[] = [];
  private readonly patcher: ModelPatcher;

  constructor(model: UvlModel, options: ConfiguratorOptions = {}) {
    const enc = satEncoding(model, options.text);
    this.names = enc.names;
    this.featureVars = enc.featureVars;
    this.ignoredConstraints = enc.ignored;
    this.booleanOnly = enc.ignored === 0;
    enc.names.forEach((n, i) => this.varOf.set(n, i + 1));
    this.solver = new SatSolver(enc.numVars);
    const clauses = [...enc.tree, ...enc.definitions];
    for (const k of enc.constraints) clauses.push(...k.clauses);
    for (const c of clauses) this.solver.addClause(c);
    this.patcher = new ModelPatcher(enc.numVars, clauses);
    for (let v = enc.featureVars + 1; v <= enc.numVars; v++) this.solver.setDecisionVar(v, false);
    this.counter = options.counter ?? exactCounter(model, enc, options.text);
    let explainer: DecisionExplainer | undefined;
    this.explainer = () => (explainer ??= new DecisionExplainer(enc));
    this.backbone = this.stepBackbone([], Deadline.none());
    // Proven once for all steps: as units they propagate in every later call.
    if (this.backbone) for (let v = 1; v <= this.featureVars; v++) if (this.backbone[v] !== 0) this.solver.addClause([this.backbone[v]! * v]);
    if (this.backbone) this.findDiverseModels();
  }

  private findDiverseModels(): void {
    let seed = 0x9e3779b9;
    const random = (): number => {
      seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
      return seed / 2 ** 32;
    };
    for (let i = 0; i < DIVERSE_MODELS; i++) {
      // From leaning on to leaning off, so that deep features (on only with all their ancestors) get their turn.
      const on = 1 - (i + 0.5) / DIVERSE_MODELS;
      for (let v = 1; v <= this.featureVars; v++) this.solver.setPhase(v, random() < on);
      if (this.solver.solve([]) !== 'sat') return;
      this.diverse.push(this.solver.model());
    }
  }

  /** The signed feature literals of the decisions; throws UnknownFeatureError for a name that is no feature. */
  decisionLiterals(decisions: Decisions): number[] {
    const lits: number[] = [];
    const seen = new Set<number>();
    const push = (lit: number) => {
      if (!seen.has(lit)) lits.push(lit);
      seen.add(lit);
    };
    for (const name of decisions.selected) push(this.varOfName(name));
    for (const name of decisions.deselected) push(-this.varOfName(name));
    return lits;
  }

  configure(decisions: Decisions, options: ConfigureOptions = {}): ConfigureResult {
    const deadline = options.deadline ?? Deadline.none();
    const timings: Record<string, number> = {};
    const lits = this.decisionLiterals(decisions);
    const start = performance.now();
    const values = this.stepBackbone(lits, deadline);
    timings.propagate = Math.round(performance.now() - start);
    const common = { boolean_only: this.booleanOnly, ignored_constraints: this.ignoredConstraints };
    if (values === null) {
      const conflictStart = performance.now();
      const conflict = this.conflict(lits, deadline);
      timings.conflict = Math.round(performance.now() - conflictStart);
      return { consistent: false, conflict, ...common, timings_ms: timings };
    }
    const features: Record<string, FeatureState> = {};
    const decided = new Map(lits.map((l) => [Math.abs(l), l > 0 ? 'selected' : 'deselected'] as const));
    for (let v = 1; v <= this.featureVars; v++) {
      features[this.names[v - 1]!] = decided.get(v) ?? (values[v] === 1 ? 'forced' : values[v] === -1 ? 'excluded' : 'open');
    }
    const budget = options.countTimeoutMs ?? DEFAULT_COUNT_MS;
    let remaining: string | null = null;
    if (budget > 0) {
      const countStart = performance.now();
      remaining = this.counter(lits, Deadline.after(budget))?.toString() ?? null;
      timings.count = Math.round(performance.now() - countStart);
    }
    const remaining_status = budget <= 0 ? 'skipped' : remaining === null ? 'timeout' : 'exact';
    return { consistent: true, remaining, remaining_status, features, ...common, timings_ms: timings };
  }

  /**
   * Why a feature has its state under the decisions: for a forced or excluded one, a minimal set
   * of decisions ("selected A") and constraint lines that with the tree implies it (["tree"]
   * when the tree alone does); a decision is its own reason; an open feature has none (null).
   * Undefined when the decisions are inconsistent (configure() gives the conflict).
   */
  why(decisions: Decisions, feature: string, options: { deadline?: Deadline } = {}): WhyResult | undefined {
    const deadline = options.deadline ?? Deadline.none();
    const v = this.varOfName(feature);
    const lits = this.decisionLiterals(decisions);
    const values = this.stepBackbone(lits, deadline);
    if (values === null) return undefined;
    const own = lits.find((l) => Math.abs(l) === v);
    if (own !== undefined) return { feature, state: own > 0 ? 'selected' : 'deselected', why: [decisionText(this.names, own)] };
    if (values[v] === 0) return { feature, state: 'open', why: null };
    const implied = values[v] === 1 ? v : -v;
    const reasons = this.explainer().explainImplied(implied, lits, deadline);
    return { feature, state: implied > 0 ? 'forced' : 'excluded', why: reasons.length === 0 ? ['tree'] : reasons };
  }

  private conflict(lits: number[], deadline: Deadline): { decisions: string[]; constraints: string[] } {
    const core = minimalCore(this.solver, [], lits, deadline) ?? lits;
    const constraints = this.explainer().constraintsAgainst(core, deadline);
    return { decisions: core.map((l) => decisionText(this.names, l)), constraints };
  }

  private varOfName(name: string): number {
    const v = this.varOf.get(name);
    if (v === undefined) throw new UnknownFeatureError(name);
    return v;
  }

  /**
   * Per feature variable, 1 / -1 when the decisions imply it selected / deselected, else 0; null
   * when no configuration extends them. Throws DeadlineExceeded past the deadline.
   */
  private stepBackbone(lits: number[], deadline: Deadline): Int8Array | null {
    const n = this.featureVars;
    const value = new Int8Array(n + 1);
    const implied = this.solver.impliedLiterals(lits);
    if (implied === null) return null;
    for (const l of implied) if (Math.abs(l) <= n) value[Math.abs(l)] = l > 0 ? 1 : -1;
    for (let v = 1; v <= n; v++) if (value[v] === 0) value[v] = this.solver.topValue(v);
    const assumptions = [...lits];
    // A first model with features off where they can be: turning a feature on (its ancestors,
    // a child per group) is what patches do best.
    for (let v = 1; v <= n; v++) this.solver.setPhase(v, false);
    const first = this.solve(assumptions, deadline);
    if (first === null) return null;
    // candidate[v]: the value v had in every model so far, for variables not yet settled.
    const candidate = new Int8Array(n + 1);
    for (let v = 1; v <= n; v++) if (value[v] === 0) candidate[v] = first[v]!;
    // Models of earlier steps and of the build, patched to the decisions where they need it,
    // refute most candidates at once, each in one pass (one SAT call assigns every variable).
    for (const m of [...this.diverse, ...this.pool]) {
      if (lits.every((l) => m[Math.abs(l)] === (l > 0 ? 1 : -1))) filter(candidate, m, 1);
      else {
        this.patcher.setBase(m);
        const patched = this.patcher.patchedModel(this.solver, lits);
        if (patched !== null) filter(candidate, patched, 1);
      }
    }
    this.remember(first);
    this.patcher.setBase(first);
    for (let v = 1; v <= n; v++) {
      const c = candidate[v]!;
      if (c === 0) continue;
      const lit = c > 0 ? v : -v;
      // Every candidate agrees with the first model: a patch of it refutes what it changes.
      assumptions.push(-lit);
      const changed = this.patcher.patch(this.solver, assumptions, assumptions.length - 1);
      assumptions.pop();
      if (changed !== null) {
        for (const u of changed) if (u <= n) candidate[u] = 0;
        continue;
      }
      // Models that disagree with the candidates refute more of them at once; settled
      // variables lean to off, which in a feature model leaves the most room.
      for (let u = v; u <= n; u++) this.solver.setPhase(u, candidate[u]! < 0);
      const model = this.solve([...assumptions, -lit], deadline);
      if (model === null) {
        value[v] = c;
        assumptions.push(lit); // implied: it only helps the following calls propagate
        continue;
      }
      this.remember(model);
      filter(candidate, model, v);
    }
    return value;
  }

  /** A model under the assumptions, or null when there is none. */
  private solve(assumptions: number[], deadline: Deadline): Int8Array | null {
    const status = this.solver.solve(assumptions, deadline);
    if (status === 'timeout') throw new DeadlineExceeded();
    return status === 'sat' ? this.solver.model() : null;
  }

  private remember(model: Int8Array): void {
    this.pool.push(model);
    if (this.pool.length > MODEL_POOL) this.pool.shift();
  }
}

function filter(candidate: Int8Array, model: Int8Array, from: number): void {
  for (let u = from; u < candidate.length; u++) if (candidate[u] !== 0 && candidate[u] !== model[u]) candidate[u] = 0;
}
