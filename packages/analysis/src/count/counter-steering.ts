// The heuristics that steer the counter's decisions on a wide formula (counter.ts): balanced
// separators of a component's residual formula and a short lookahead where none is small. They
// choose only the order of the decisions, never the count.

import { ComponentArena } from './counter-components.ts';
import {
  LOOKAHEAD_CANDIDATES,
  LOOKAHEAD_MIN_VARS,
  MAX_SEPARATOR,
  PLAN_MAX_VARS,
  PLAN_MIN_VARS,
  type CountOptions,
} from './counter-tuning.ts';
import { withRoom } from './int32-arrays.ts';
import { BalancedSeparator } from './separator.ts';
import type { NarrowFormula } from './tree-decomposition.ts';

export class ComponentSteering extends ComponentArena {
  /** Whether decisions follow balanced separators of the residual formula (on a wide order only). */
  protected readonly plansSeparators: boolean;
  private planCount = 0;
  private readonly separatorFinder = new BalancedSeparator();
  /** Separators and lookahead are tried on components of at least these many variables. */
  private readonly planMinVars: number;
  private readonly maxSeparator: number;
  private readonly lookaheadMinVars: number;
  /** Each variable's index in the component being planned, valid where localStamp = localEpoch. */
  private readonly localOf: Int32Array;
  private readonly localStamp: Int32Array;
  private localEpoch = 0;
  private narrowFormula: NarrowFormula = { vars: 0, clauseStart: new Int32Array(64), lits: new Int32Array(256), clauses: 0 };

  constructor(numVars: number, input: number[][], definitions: number[][], options: CountOptions) {
    super(numVars, input, definitions, options);
    // Separators and lookahead: on the narrow orders of real models the static order is as good
    // (a CDL model: 25 000 decisions by rank, 32 000 with separators).
    const alwaysSeparators = options.separators === 'always';
    this.plansSeparators = this.wide || alwaysSeparators;
    this.planMinVars = alwaysSeparators ? 3 : PLAN_MIN_VARS;
    this.maxSeparator = alwaysSeparators ? 2 : MAX_SEPARATOR;
    this.lookaheadMinVars = alwaysSeparators ? 2 : LOOKAHEAD_MIN_VARS;
    this.localOf = new Int32Array(numVars + 1);
    this.localStamp = new Int32Array(numVars + 1);
  }

  /**
   * For a component about to be decided that has no separator variable left to decide: a new
   * separator, or a lookahead.
   */
  protected steer(record: number): void {
    const size = this.recordVars[record]!;
    if (size <= PLAN_MAX_VARS) {
      const planned = size >= this.planMinVars && this.planSeparator(record);
      if (!planned && size >= this.lookaheadMinVars) this.lookahead(record);
    }
  }

  /**
   * Makes the component follow a balanced separator of its residual primal graph (see
   * separator.ts): the separator's variables are its next decisions (the one with the most
   * occurrences first), and its subcomponents keep deciding what is left of them, so the
   * component falls apart into halves after at most that many decisions. Returns false, with
   * nothing changed, when the separator has more than MAX_SEPARATOR variables: deciding that
   * many before anything splits costs more than the occurrence heuristic's choices.
   */
  private planSeparator(record: number): boolean {
    const start = this.recordStart[record]!;
    const lists = this.lists;
    // The residual primal graph: variables adjacent when they share a clause of what is left.
    const formula = this.residualFormula(record);
    const graph = this.separatorFinder;
    graph.reset(formula.vars);
    graph.linkClauses(formula.clauseStart, formula.lits, formula.clauses);
    const separator = graph.find();
    if (separator.length > this.maxSeparator) return false;
    const plan = ++this.planCount;
    let first = -1;
    for (const local of separator) {
      const v = lists[start + local]!;
      this.planOf[v] = plan;
      // The occurrences counted when the component was found (nothing has touched them since).
      if (first === -1 || this.score[v]! > this.score[first]!) first = v;
    }
    this.recordPlan[record] = plan;
    this.recordNeedsPlan[record] = 0;
    this.recordBranch[record] = first;
    return true;
  }

  /**
   * For a large component without a usable separator (the top of the search on a wide formula):
   * of the LOOKAHEAD_CANDIDATES variables that score best, the one whose two branches leave the
   * smallest largest components (summed over both branches), each tried by propagating it and
   * finding the components. These few decisions shape all of the search below them.
   */
  private lookahead(record: number): void {
    const start = this.recordStart[record]!;
    const nv = this.recordVars[record]!;
    const candidates: number[] = [];
    for (let i = start; i < start + nv; i++) candidates.push(this.lists[i]!);
    // The scores as components() left them, before the trials below overwrite them.
    const scoreOf = new Map(candidates.map((v) => [v, this.score[v]! + this.rankWeight * this.rank[v]!]));
    candidates.sort((a, b) => scoreOf.get(b)! - scoreOf.get(a)!);
    candidates.length = Math.min(candidates.length, LOOKAHEAD_CANDIDATES);
    let best = this.recordBranch[record]!;
    let bestCost = Infinity;
    for (const v of candidates) {
      let cost = 0;
      for (const lit of [(v << 1) | 1, v << 1]) {
        const trailStart = this.trailSize;
        const listMark = this.listTop;
        const recordMark = this.recordTop;
        this.assign(lit);
        // A branch that fails costs nothing.
        if (this.propagate()) {
          this.components(record);
          let largest = 0;
          for (let r = recordMark; r < this.recordTop; r++) largest = Math.max(largest, this.recordVars[r]!);
          cost += largest;
        }
        this.undo(trailStart);
        this.listTop = listMark;
        this.recordTop = recordMark;
      }
      if (cost < bestCost) {
        bestCost = cost;
        best = v;
      }
    }
    this.recordBranch[record] = best;
  }

  /**
   * The residual formula of a component just found (nothing assigned since): its variables
   * numbered from 0, its binary clauses between two of them, and its active long clauses
   * without their literals outside it (all false). The same object each time, refilled.
   */
  protected residualFormula(record: number): NarrowFormula {
    const start = this.recordStart[record]!;
    const nv = this.recordVars[record]!;
    const nc = this.recordClauses[record]!;
    const lists = this.lists;
    const localOf = this.localOf;
    const inComponent = this.localStamp;
    const epoch = ++this.localEpoch;
    for (let i = 0; i < nv; i++) {
      localOf[lists[start + i]!] = i;
      inComponent[lists[start + i]!] = epoch;
    }
    const f = this.narrowFormula;
    let clauses = 0;
    let top = 0;
    const room = (items: number): void => {
      f.clauseStart = withRoom(f.clauseStart, clauses, clauses + 2);
      f.lits = withRoom(f.lits, top, top + items);
    };
    for (let i = 0; i < nv; i++) {
      const v = lists[start + i]!;
      // Binary clause (not-lit or q) for each q that lit implies; once, from its smaller variable.
      for (let lit = v << 1; lit <= ((v << 1) | 1); lit++) {
        for (let k = this.binStart[lit]!, end = this.binStart[lit + 1]!; k < end; k++) {
          const q = this.binData[k]!;
          const w = q >> 1;
          if (w <= v || inComponent[w] !== epoch) continue;
          room(2);
          f.clauseStart[clauses++] = top;
          f.lits[top++] = (localOf[v]! << 1) | ((lit & 1) ^ 1);
          f.lits[top++] = (localOf[w]! << 1) | (q & 1);
        }
      }
    }
    for (let i = start + nv; i < start + nv + nc; i++) {
      const c = lists[i]!;
      const from = this.clauseStart[c]!;
      const to = this.clauseStart[c + 1]!;
      room(to - from);
      f.clauseStart[clauses++] = top;
      for (let m = from; m < to; m++) {
        const l = this.clauseLits[m]!;
        if (inComponent[l >> 1] === epoch) f.lits[top++] = (localOf[l >> 1]! << 1) | (l & 1);
      }
    }
    f.clauseStart[clauses] = top;
    f.vars = nv;
    f.clauses = clauses;
    return f;
  }
}
