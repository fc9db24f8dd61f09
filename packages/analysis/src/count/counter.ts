// Exact model counting (#SAT) in the design of sharpSAT: DPLL with unit propagation over two
// watched literals, the residual formula split into connected components after every decision,
// each component counted on its own (the counts multiply) and remembered in a cache keyed by
// the component's variables and active clauses, so that a component met again under another
// assignment is not counted twice.
//
// Auxiliary variables (Tseitin, group counters) come with their definitions marked: a definition
// that nothing active uses any more counts 1 for any inputs, so it is left out of the components
// instead of tying together features whose constraint is already satisfied.
//
// On a formula whose static elimination order is wide, decisions follow balanced separators of
// what is left of each large component (separator.ts), or a short lookahead where no small
// separator exists: the residual components are far narrower than the whole formula.
//
// The counter is one class in layers: the formula and its propagation (counter-formula.ts),
// finding components and the arena (counter-components.ts), the separator and lookahead
// heuristics that steer the decisions (counter-steering.ts), and here the search and its cache;
// the thresholds of the heuristics are in counter-tuning.ts.
//
// The search runs on an explicit stack (a model with thousands of features would overflow the
// call stack), and the components on its path live in one arena (finding components is most of
// the work, so it allocates nothing). Counts are BigInts: real models have far more than 2^53
// configurations.
//
// Conflict clauses are not learned here: a clause learned under one branch would be used to
// prune components whose cached counts are then reused where the clause's premises do not hold
// (sharpSAT must clean such "polluted" entries). Feature models propagate so strongly that
// unit propagation plus components and the cache carry the work; learning is where the SAT
// solver (sat/solver.ts) uses it.

import { Deadline } from '../deadline.ts';
import { ComponentCache } from './component-cache.ts';
import { ComponentSteering } from './counter-steering.ts';
import {
  MAX_CACHE_BYTES,
  NARROW_MAX_COST,
  NARROW_MAX_VARS,
  NARROW_MAX_WIDTH,
  NARROW_MIN_VARS,
  TABLE_MIN_VARS,
  type CountOptions,
} from './counter-tuning.ts';
import { mergeEquivalentLiterals } from './equivalences.ts';
import { TreeDecompositionCounter } from './tree-decomposition.ts';
import { BIGINT_COUNT, type CountAlgebra } from './count-algebra.ts';

export type { CountOptions };

/**
 * The number of assignments of variables 1..numVars that satisfy every clause (DIMACS literals),
 * or null when the deadline passed first.
 *
 * `definitions` are clauses that define auxiliary variables: each defines its largest variable,
 * and the clauses that define one variable must give it exactly one value for every assignment
 * of the others (Tseitin definitions in both directions, counters). They count like any clause;
 * knowing them lets the counter drop a definition whose variable nothing active uses any more
 * (a constraint already satisfied): such a variable has one value whatever its inputs are, so
 * its definition no longer ties those inputs into one component. A definition may be given in
 * both lists (the same array object): it then counts once, at its place in `clauses`.
 */
export function countCnf(
  numVars: number,
  clauses: number[][],
  deadline: Deadline = Deadline.none(),
  definitions: number[][] = [],
  options: CountOptions = {},
): bigint | null {
  // A definition given only in `definitions` is a clause too: the counter sees one list of clauses.
  const listed = new Set(clauses);
  const all = [...clauses, ...definitions.filter((d) => !listed.has(d))];
  const reduced = mergeEquivalentLiterals(numVars, all, definitions);
  if (reduced === null) return 0n;
  const counter = new ComponentCounter(reduced.numVars, reduced.clauses, reduced.definitions, deadline, options, BIGINT_COUNT);
  return counter.count();
}

/**
 * The counter's search with its values in another algebra (count-algebra.ts): the compiler
 * (compile/) gets a node for each component from the same trace. The search runs on countCnf's
 * formula after its equivalent literals are merged: `literalOf[v]` is the literal of that
 * reduced formula (1..reducedVars) that input variable v equals, and the algebra is made once
 * that is known. The value is null when the deadline passed first.
 */
export function traceCnf<T>(
  numVars: number,
  clauses: number[][],
  deadline: Deadline,
  definitions: number[][],
  makeAlgebra: (literalOf: Int32Array, reducedVars: number) => CountAlgebra<T>,
  options: CountOptions = {},
): { value: T | null; reducedVars: number; literalOf: Int32Array } {
  const listed = new Set(clauses);
  const all = [...clauses, ...definitions.filter((d) => !listed.has(d))];
  const reduced = mergeEquivalentLiterals(numVars, all, definitions);
  const literalOf = reduced?.literalOf ?? Int32Array.from({ length: numVars + 1 }, (_, v) => v);
  const reducedVars = reduced?.literalOf ? reduced.numVars : numVars;
  const algebra = makeAlgebra(literalOf, reducedVars);
  if (reduced === null) return { value: algebra.zero, reducedVars, literalOf };
  const counter = new ComponentCounter(reduced.numVars, reduced.clauses, reduced.definitions, deadline, options, algebra);
  return { value: counter.count(), reducedVars, literalOf };
}

class ComponentCounter<T> extends ComponentSteering {
  private readonly deadline: Deadline;
  private readonly cache = new ComponentCache<T>(MAX_CACHE_BYTES);
  private readonly algebra: CountAlgebra<T>;
  /** Whether narrow components are counted by dynamic programming, and from which size. */
  private readonly countsNarrow: boolean;
  private readonly narrowMinVars: number;
  private readonly narrowCounter = new TreeDecompositionCounter();
  private steps = 0;
  private readonly frames: Frame<T>[] = [];

  constructor(numVars: number, input: number[][], definitions: number[][], deadline: Deadline, options: CountOptions, algebra: CountAlgebra<T>) {
    super(numVars, input, definitions, options);
    this.algebra = algebra;
    this.deadline = deadline;
    const wide = this.wide;
    // The dynamic programming gives a count, not a trace: an algebra that wants the trace (the
    // compiler) searches them, unless it keeps them as formulas (fromNarrow).
    this.countsNarrow = (wide || options.narrowComponents === 'always') && (algebra.fromCount !== undefined || algebra.fromNarrow !== undefined);
    this.narrowMinVars = options.narrowComponents === 'always' ? 2 : algebra.fromNarrow !== undefined ? TABLE_MIN_VARS : NARROW_MIN_VARS;
  }

  /**
   * The count of a component not in the cache by dynamic programming over a tree decomposition
   * of its residual formula (remembered in the cache), or undefined when it is outside the sizes
   * for that or too wide: the search counts it.
   */
  private countNarrow(record: number): T | undefined {
    if (!this.countsNarrow) return undefined;
    const nv = this.recordVars[record]!;
    if (nv < this.narrowMinVars || nv > NARROW_MAX_VARS) return undefined;
    const formula = this.residualFormula(record);
    if (this.algebra.fromNarrow !== undefined) {
      // Its elimination is kept with it: the first query would otherwise find it again.
      const plan = this.narrowCounter.planWithin(formula, NARROW_MAX_WIDTH, NARROW_MAX_COST);
      if (plan === null) return undefined;
      const leaf = this.algebra.fromNarrow(formula, this.lists, this.recordStart[record]!, plan);
      this.remember(record, leaf);
      return leaf;
    }
    const value = this.narrowCounter.count(formula, NARROW_MAX_WIDTH, NARROW_MAX_COST);
    if (value === null) return undefined;
    const result = this.algebra.fromCount!(value);
    this.remember(record, result);
    return result;
  }

  private cached(record: number): T | undefined {
    return this.cache.get(this.recordHash[record]!, this.lists, this.recordStart[record]!, this.recordVars[record]!, this.recordClauses[record]!);
  }

  private remember(record: number, value: T): void {
    this.cache.set(this.recordHash[record]!, this.lists, this.recordStart[record]!, this.recordVars[record]!, this.recordClauses[record]!, value);
  }

  count(): T | null {
    const algebra = this.algebra;
    if (this.contradiction || !this.propagate()) return algebra.zero;
    // The whole formula as the first record: every variable, every long clause.
    const numClauses = this.clauseStamp.length;
    this.reserve(this.n + numClauses, 1);
    const all = this.recordTop++;
    this.recordStart[all] = this.listTop;
    this.recordVars[all] = this.n;
    this.recordClauses[all] = numClauses;
    this.recordPlan[all] = 0;
    for (let v = 1; v <= this.n; v++) this.lists[this.listTop++] = v;
    for (let c = 0; c < numClauses; c++) this.lists[this.listTop++] = c;
    const firstComponent = this.recordTop;
    const free = this.components(all);
    let result = algebra.branch(this.trail, 0, this.trailSize, this.freeVars, free);
    for (let r = firstComponent; r < this.recordTop; r++) {
      const c = this.countComponent(r);
      if (c === null) return null;
      result = algebra.times(result, c);
      if (algebra.isZero(result)) return algebra.zero;
    }
    return result;
  }

  private countComponent(root: number): T | null {
    const known = this.cached(root) ?? this.countNarrow(root);
    if (known !== undefined) return known;
    const frames = this.frames;
    const algebra = this.algebra;
    let depth = 0;
    startFrame(frameAt(frames, 0, algebra), root, this.trailSize, algebra);
    let childResult: T | undefined;
    while (depth >= 0) {
      const f = frames[depth]!;
      if (childResult !== undefined) {
        f.product = algebra.times(f.product, childResult);
        f.sub++;
        childResult = undefined;
      }
      if (f.subsEnd >= 0) {
        while (!algebra.isZero(f.product) && f.sub < f.subsEnd) {
          const value = this.cached(f.sub) ?? this.countNarrow(f.sub);
          if (value === undefined) break;
          f.product = algebra.times(f.product, value);
          f.sub++;
        }
        if (!algebra.isZero(f.product) && f.sub < f.subsEnd) {
          startFrame(frameAt(frames, ++depth, algebra), f.sub, this.trailSize, algebra);
          continue;
        }
        f.total = algebra.plus(f.total, f.product);
        this.undo(f.trailStart);
        this.listTop = f.listMark;
        this.recordTop = f.recordMark;
        f.branch++;
        f.subsEnd = -1;
      }
      if (f.branch === 2) {
        this.remember(f.record, f.total);
        depth--;
        childResult = f.total;
        continue;
      }
      // A decision costs up to the size of its component (thousands of variables on big models).
      if ((++this.steps & 15) === 0 && this.deadline.expired()) {
        this.undo(frames[0]!.trailStart);
        return null;
      }
      // The component's variable is chosen when it is found (components()), unless it has no
      // separator variable left to decide: then it may get a new separator, or a lookahead.
      if (f.branch === 0 && this.plansSeparators && this.recordNeedsPlan[f.record]) this.steer(f.record);
      // Deselecting first suits feature models: a deselected parent switches its subtree off.
      const v = this.recordBranch[f.record]!;
      f.trailStart = this.trailSize;
      this.assign(f.branch === 0 ? (v << 1) | 1 : v << 1);
      if (!this.propagate()) {
        this.undo(f.trailStart);
        f.branch++;
        continue;
      }
      f.listMark = this.listTop;
      f.recordMark = this.recordTop;
      const free = this.components(f.record);
      f.product = algebra.branch(this.trail, f.trailStart, this.trailSize, this.freeVars, free);
      f.sub = f.recordMark;
      f.subsEnd = this.recordTop;
    }
    return childResult!;
  }
}

/** The search state of one component being counted (reused from one depth to the next). */
interface Frame<T> {
  record: number;
  /** 0: first polarity in progress, 1: second, 2: both done. */
  branch: number;
  trailStart: number;
  total: T;
  /** The records of the current branch's components are sub .. subsEnd (-1 between branches). */
  sub: number;
  subsEnd: number;
  product: T;
  /** The arena's tops before the current branch's components. */
  listMark: number;
  recordMark: number;
}

function frameAt<T>(frames: Frame<T>[], depth: number, algebra: CountAlgebra<T>): Frame<T> {
  while (frames.length <= depth) frames.push({ record: 0, branch: 0, trailStart: 0, total: algebra.zero, sub: 0, subsEnd: -1, product: algebra.zero, listMark: 0, recordMark: 0 });
  return frames[depth]!;
}

function startFrame<T>(f: Frame<T>, record: number, trailStart: number, algebra: CountAlgebra<T>): void {
  f.record = record;
  f.branch = 0;
  f.trailStart = trailStart;
  f.total = algebra.zero;
  f.sub = 0;
  f.subsEnd = -1;
  f.product = algebra.zero;
}
