// The backbone of a configurator step: which features the decisions force or exclude, the rest
// open. A feature is open once two models of the decisions disagree on it, so the work is finding
// models, and a full SAT call (about 20 ms on automotive2_4) is what to avoid. Steps come one
// decision at a time, so what a step learned is carried to the next:
// - witnesses: models of the last step's decisions, kept. Each is patched to the new decisions
//   (model-patch.ts; only the decisions it violates are propagated), and together they settle
//   most open features without a call.
// - the sweep: each feature the witnesses agree on is flipped by a patch of one model that
//   drifts along (each successful patch stays in it), so the model it ends as disagrees with the
//   witnesses on many of them and becomes a witness for the next step; a failed patch asks the
//   SAT solver, as it must: nothing is ever guessed.
// - decisions that only grow (the usual step) keep every feature the last step proved forced or
//   excluded, and the same decisions again (a "why" after its step) reuse the whole answer.
// Decisions are assumed in a stable order (earlier ones first), so that the solver's propagation
// levels of the earlier decisions are reused by every patch of the step.

import { DeadlineExceeded, type Deadline } from '../deadline.ts';
import type { SatSolver } from '../sat/solver.ts';
import type { ModelPatcher } from './model-patch.ts';

/** Models kept between steps; each costs a pass over the features per step and a patch when it violates a new decision. */
const WITNESSES = 128;

/** What the last step did, for benches. */
export interface StepStats {
  /** Witnesses that held or were patched to the decisions. */
  witnesses: number;
  /** Features still undecided after the witnesses. */
  candidates: number;
  patches: number;
  satCalls: number;
  /** The same decisions as the step before: the answer was reused. */
  reused: boolean;
  /** Milliseconds: propagation of the decisions, patching the witnesses, the sweep. */
  ms: { propagate: number; witnesses: number; sweep: number };
}

export class StepBackbone {
  private witnesses: Int8Array[] = [];
  /** The last consistent step's decision literals, in the order assumed, and its answer. */
  private lastLits: number[] = [];
  private lastValue: Int8Array | null = null;
  stats: StepStats = { witnesses: 0, candidates: 0, patches: 0, satCalls: 0, reused: false, ms: { propagate: 0, witnesses: 0, sweep: 0 } };

  constructor(
    private readonly solver: SatSolver,
    private readonly patcher: ModelPatcher,
    private readonly featureVars: number,
  ) {}

  /** Models of the formula to start from (they need not satisfy any decision); the next step sweeps again. */
  addWitnesses(models: Int8Array[]): void {
    this.witnesses.push(...models);
    if (this.witnesses.length > WITNESSES) this.witnesses.splice(0, this.witnesses.length - WITNESSES);
    this.lastValue = null;
    this.lastLits = [];
  }

  /**
   * Sweeps under no decisions again until the witnesses stop covering more (at most `rounds`
   * times): each sweep leaves the models a little more spread, which the first steps would
   * otherwise pay for.
   */
  spread(deadline: Deadline, rounds: number): void {
    let before = Infinity;
    for (let i = 0; i < rounds; i++) {
      this.lastValue = null;
      this.lastLits = [];
      if (this.backbone([], deadline) === null || this.stats.candidates >= before) return;
      before = this.stats.candidates;
    }
  }

  /**
   * Per feature variable, 1 / -1 when the decision literals imply it selected / deselected, else
   * 0; null when no configuration extends them. The array is shared with later calls: read only.
   * Throws DeadlineExceeded past the deadline.
   */
  backbone(decisionLits: number[], deadline: Deadline): Int8Array | null {
    const lits = this.ordered(decisionLits);
    const grown = this.lastValue !== null && this.lastLits.length <= lits.length && this.lastLits.every((l, i) => lits[i] === l);
    this.stats = { witnesses: 0, candidates: 0, patches: 0, satCalls: 0, reused: false, ms: { propagate: 0, witnesses: 0, sweep: 0 } };
    let start = performance.now();
    if (grown && this.lastLits.length === lits.length) {
      this.stats.reused = true;
      return this.lastValue;
    }
    const n = this.featureVars;
    const value = new Int8Array(n + 1);
    const implied = this.solver.impliedLiterals(lits);
    if (implied === null) return null;
    for (const l of implied) if (Math.abs(l) <= n) value[Math.abs(l)] = l > 0 ? 1 : -1;
    for (let v = 1; v <= n; v++) if (value[v] === 0) value[v] = this.solver.topValue(v);
    // Fewer decisions imply less: what the last step proved still holds.
    if (grown) for (let v = 1; v <= n; v++) if (this.lastValue![v] !== 0) value[v] = this.lastValue![v]!;
    this.stats.ms.propagate = performance.now() - start;
    start = performance.now();
    const models = this.patchWitnesses(lits);
    if (models.length === 0) {
      // A first model with features off where they can be: turning a feature on (its ancestors,
      // a child per group) is what patches do best.
      for (let v = 1; v <= n; v++) this.solver.setPhase(v, false);
      const first = this.solve(lits, deadline);
      if (first === null) return null;
      models.push(first);
    }
    this.stats.witnesses = models.length;
    const candidate = agreement(value, models, n);
    for (let v = 1; v <= n; v++) if (candidate[v] !== 0) this.stats.candidates++;
    // Copies drift apart in the sweep.
    for (let i = 0; models.length < WITNESSES; i++) models.push(models[i]!.slice());
    this.stats.ms.witnesses = performance.now() - start;
    start = performance.now();
    this.sweep(lits, candidate, value, models, deadline);
    this.stats.ms.sweep = performance.now() - start;
    this.witnesses = models;
    this.lastLits = lits;
    this.lastValue = value;
    return value;
  }

  /** The decision literals with those of the last step first, in its order, then the new ones. */
  private ordered(lits: number[]): number[] {
    const wanted = new Set(lits);
    const out = this.lastLits.filter((l) => wanted.has(l));
    const kept = new Set(out);
    for (const l of lits) if (!kept.has(l)) out.push(l);
    return out;
  }

  /**
   * The witnesses that have every decision literal or could be patched to have them (patched in
   * place). Those that could not are left out, unless none could: then they are all kept for
   * later steps, since this one may have no model at all.
   */
  private patchWitnesses(lits: number[]): Int8Array[] {
    const out: Int8Array[] = [];
    for (const m of this.witnesses) {
      const held = lits.filter((l) => m[Math.abs(l)] === (l > 0 ? 1 : -1));
      if (held.length === lits.length) {
        out.push(m);
        continue;
      }
      // The literals it has first: the patch propagates only those it lacks.
      const order = held.length === 0 ? lits : [...held, ...lits.filter((l) => m[Math.abs(l)] !== (l > 0 ? 1 : -1))];
      this.patcher.setBase(m);
      this.stats.patches++;
      const changed = this.patcher.patch(this.solver, order, held.length);
      if (changed === null) continue;
      this.patcher.commit(changed);
      out.push(m);
    }
    return out;
  }

  /**
   * Settles every candidate: a patch of one of the models (all of the decisions) that flips it
   * shows it open, and the patch is kept in that model; when the patch fails, a SAT call
   * decides. The models take turns, so that features that exclude one another (the children of
   * an alternative group, numbered one after the other) are each flipped in a model of their
   * own and stay so for the next step.
   */
  private sweep(lits: number[], candidate: Int8Array, value: Int8Array, models: Int8Array[], deadline: Deadline): void {
    const n = this.featureVars;
    const assumptions = [...lits];
    let turn = 0;
    for (let v = 1; v <= n; v++) {
      const c = candidate[v]!;
      if (c === 0) continue;
      const lit = c > 0 ? v : -v;
      // Every model agrees with every candidate (a patch that changes one clears it).
      assumptions.push(-lit);
      this.stats.patches++;
      this.patcher.setBase(models[turn]!);
      const changed = this.patcher.patch(this.solver, assumptions, assumptions.length - 1);
      assumptions.pop();
      if (changed !== null) {
        for (const u of changed) if (u <= n) candidate[u] = 0;
        this.patcher.commit(changed);
        turn = (turn + 1) % models.length;
        continue;
      }
      // Models that disagree with the candidates refute more of them at once; settled
      // variables lean to off, which in a feature model leaves the most room.
      for (let u = v; u <= n; u++) this.solver.setPhase(u, candidate[u]! < 0);
      this.stats.satCalls++;
      const model = this.solve([...assumptions, -lit], deadline);
      if (model === null) {
        value[v] = c;
        assumptions.push(lit); // implied: it only helps the following calls propagate
        continue;
      }
      filter(candidate, model, v);
    }
  }

  /** A model under the assumptions, or null when there is none. */
  private solve(assumptions: number[], deadline: Deadline): Int8Array | null {
    const status = this.solver.solve(assumptions, deadline);
    if (status === 'timeout') throw new DeadlineExceeded();
    return status === 'sat' ? this.solver.model() : null;
  }
}

/**
 * candidate[v]: for each feature variable not settled in `value`, the value every model gives
 * it, else 0. The models are compared four variables at a time: the XOR of a model with the
 * first, ORed over the models, is zero in a byte exactly where all of them agree (values are
 * 1 and -1, so a byte differs or XORs to 0).
 */
function agreement(value: Int8Array, models: Int8Array[], n: number): Int8Array {
  // Witnesses are copies (slice) or the solver's models: their own buffers, aligned.
  const first = models[0]!.byteOffset % 4 === 0 ? models[0]! : models[0]!.slice();
  const words = (n + 1) >> 2;
  const ref = new Int32Array(first.buffer, first.byteOffset, words);
  const acc = new Int32Array(words + 1);
  const accBytes = new Uint8Array(acc.buffer);
  for (let i = 1; i < models.length; i++) {
    const m = models[i]!;
    if (m.byteOffset % 4 !== 0) {
      for (let v = 1; v <= n; v++) if (m[v] !== first[v]) accBytes[v] = 1;
      continue;
    }
    const w = new Int32Array(m.buffer, m.byteOffset, words);
    for (let k = 0; k < words; k++) acc[k]! |= w[k]! ^ ref[k]!;
    for (let v = words << 2; v <= n; v++) if (m[v] !== first[v]) accBytes[v] = 1;
  }
  const candidate = new Int8Array(n + 1);
  for (let v = 1; v <= n; v++) if (value[v] === 0 && accBytes[v] === 0) candidate[v] = first[v]!;
  return candidate;
}

function filter(candidate: Int8Array, model: Int8Array, from: number): void {
  for (let u = from; u < candidate.length; u++) if (candidate[u] !== 0 && candidate[u] !== model[u]) candidate[u] = 0;
}
