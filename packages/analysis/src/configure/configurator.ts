// The configurator (extensions section 6): a partial configuration (features selected and
// deselected) propagated to a state for every feature, the number of configurations left, a
// minimal conflict when nothing extends the decisions, and why a feature is forced or excluded.
//
// Built once per model and kept: the model is encoded once, one solver holds it with every
// constraint on (propagation), and models of the last step's decisions are kept as witnesses of
// open features for the next step (step-backbone.ts). A step is the backbone under the decisions
// as assumptions: unit propagation first (what it derives is implied), the witnesses patched to
// the new decisions, then each feature they all agree on tested under its negation. Explanations
// use a second solver whose constraints each carry a selector, built when first needed.

import type { UvlModel } from '../../../uvl/src/index.ts';
import { satEncoding } from '../analyze.ts';
import { Deadline } from '../deadline.ts';
import { modelClauses } from '../encode.ts';
import { SatSolver } from '../sat/solver.ts';
import { exactCounter, type ConfigurationCounter } from './counter.ts';
import { minimalCore } from './minimal-core.ts';
import { ModelPatcher } from './model-patch.ts';
import { StepBackbone, type StepStats } from './step-backbone.ts';
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
  private readonly steps: StepBackbone;

  constructor(model: UvlModel, options: ConfiguratorOptions = {}) {
    const enc = satEncoding(model, options.text);
    this.names = enc.names;
    this.featureVars = enc.featureVars;
    this.ignoredConstraints = enc.ignored;
    this.booleanOnly = enc.ignored === 0;
    enc.names.forEach((n, i) => this.varOf.set(n, i + 1));
    this.solver = new SatSolver(enc.numVars);
    const clauses = modelClauses(enc);
    for (const c of clauses) this.solver.addClause(c);
    this.steps = new StepBackbone(this.solver, new ModelPatcher(enc.numVars, clauses), enc.featureVars);
    for (let v = enc.featureVars + 1; v <= enc.numVars; v++) this.solver.setDecisionVar(v, false);
    this.counter = options.counter ?? exactCounter(model, enc, options.text);
    let explainer: DecisionExplainer | undefined;
    this.explainer = () => (explainer ??= new DecisionExplainer(enc));
    this.backbone = this.steps.backbone([], Deadline.none());
    // Proven once for all steps: as units they propagate in every later call.
    if (this.backbone) for (let v = 1; v <= this.featureVars; v++) if (this.backbone[v] !== 0) this.solver.addClause([this.backbone[v]! * v]);
    if (this.backbone) {
      this.findDiverseModels();
      // Sweeps with every witness now, so that the first step finds most features open already.
      this.steps.spread(Deadline.none(), 4);
    }
  }

  /** What the last propagation did (witnesses, patches, SAT calls), for benches. */
  get lastStepStats(): StepStats {
    return this.steps.stats;
  }

  /** Models with random phases, found once: they disagree with one another on most open features. */
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
      this.steps.addWitnesses([this.solver.model()]);
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
    const values = this.steps.backbone(lits, deadline);
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
    const values = this.steps.backbone(lits, deadline);
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
}
