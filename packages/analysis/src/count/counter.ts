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
import { eliminationRanks } from './elimination.ts';
import { BalancedSeparator } from './separator.ts';
import { mergeEquivalentLiterals } from './equivalences.ts';
import { TreeDecompositionCounter, type NarrowFormula } from './tree-decomposition.ts';
import { withRoom } from './int32-arrays.ts';
import { BIGINT_COUNT, type CountAlgebra } from './count-algebra.ts';

const TRUE = 1;
const FALSE = -1;

/** CSR lists: the items of key k are data[start[k] .. start[k+1]). */
function buildCsr(size: number, keyOf: (i: number) => number, valueOf: (i: number) => number, count: number) {
  const start = new Int32Array(size + 1);
  for (let i = 0; i < count; i++) start[keyOf(i) + 1]++;
  for (let k = 0; k < size; k++) start[k + 1] += start[k]!;
  const fill = start.slice(0, size);
  const data = new Int32Array(start[size]!);
  for (let i = 0; i < count; i++) data[fill[keyOf(i)]!++] = valueOf(i);
  return { start, data };
}

const MAX_CACHE_BYTES = 64 * 1024 * 1024;
/**
 * The decision is the variable of the component with the most occurrences in its active clauses
 * plus RANK_WEIGHT * (its rank / numVars), or by rank alone (RANK_ONLY) when the elimination order
 * is narrow (width at most WIDE) or was cut short by its budget. A narrow order is a good tree
 * decomposition to follow (the CDL models: width about 30, counted in about 1 s by rank, time
 * out by occurrences); a wide one is not (fm3.uvl: width 123, occurrences plus rank count it in
 * about 20 s, rank alone takes minutes; 10 beats 3 and 30 there).
 */
const WIDE = 64;
const RANK_WEIGHT = 10;
const RANK_ONLY = 1e9;
/**
 * On a wide order, the decisions of a component of PLAN_MIN_VARS..PLAN_MAX_VARS variables that has
 * no separator left to decide follow a new balanced separator of it, when one has at most
 * MAX_SEPARATOR variables (planSeparator); otherwise one of at least LOOKAHEAD_MIN_VARS takes the
 * best of LOOKAHEAD_CANDIDATES trial decisions (lookahead). Measured on fm3.uvl (decisions; the
 * occurrence heuristic alone makes 775 000): separators on every component from 8 variables 330 000,
 * plus the lookahead 271 000; separators from 80 variables make as few decisions with a tenth
 * of the planning (120 variables: the same again, 124 plans). Separators of at most 12 or 28
 * variables, or the smallest of several randomized eliminations, do worse than 20; more
 * candidates (16) do worse than 8. Above PLAN_MAX_VARS neither is tried: the planning is quadratic
 * in the component's size and a lookahead finds its components 16 times.
 */
const PLAN_MIN_VARS = 80;
const PLAN_MAX_VARS = 2000;
const MAX_SEPARATOR = 20;
const LOOKAHEAD_MIN_VARS = 100;
const LOOKAHEAD_CANDIDATES = 8;

/**
 * A component of NARROW_MIN_VARS..NARROW_MAX_VARS variables whose residual formula has a
 * min-degree elimination with bags of at most NARROW_MAX_WIDTH + 1 variables and at most
 * NARROW_MAX_COST table entries in all is counted by dynamic programming over that
 * decomposition (tree-decomposition.ts) instead of a search.
 */
const NARROW_MIN_VARS = 16;
/**
 * The compiler keeps narrow components as TABLE nodes from this size (compile/narrow-leaf.ts);
 * smaller ones it searches. Measured: fm3.uvl's are about 200 variables (907 tables from 16
 * variables, 889 from 100, the same compile time); the Financial_Services_01 models get 155 of
 * 32 variables on average from 16, whose tables made every feature's commonality 10 ms -> 290 ms
 * and 1 000 samples 32 -> 53 ms against their searched nodes, for no faster a compile.
 */
const TABLE_MIN_VARS = 100;
const NARROW_MAX_VARS = 1000;
const NARROW_MAX_WIDTH = 10;
const NARROW_MAX_COST = 1 << 16;

export interface CountOptions {
  /** When unused definitions are left out: on a wide elimination order only (default), or always (tests). */
  dropUnusedDefinitions?: 'wide' | 'always';
  /**
   * When decisions follow separators and lookahead: on a wide elimination order only (default),
   * or always, from components of a few variables and with separators of at most 2 so that the
   * lookahead is used too (tests: the heuristics choose only the order, never the count).
   */
  separators?: 'wide' | 'always';
  /**
   * When narrow components are counted by dynamic programming: on a wide elimination order only
   * (default), or always, from components of two variables (tests).
   */
  narrowComponents?: 'wide' | 'always';
}

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

class ComponentCounter<T> {
  private readonly n: number;
  private readonly deadline: Deadline;
  private readonly litVal: Int8Array;
  private readonly trail: Int32Array;
  private trailSize = 0;
  private qhead = 0;
  private contradiction = false;

  // Binary clauses: implied[lit] are the literals made true when lit becomes true.
  private binStart!: Int32Array;
  private binData!: Int32Array;
  // Long clauses (3 literals or more), literals in one array.
  private clauseStart!: Int32Array;
  private clauseLits!: Int32Array;
  /**
   * The long clauses watching each literal: watchData[watchStart[l] .. watchStart[l] + watchCount[l]).
   * A clause watches a literal at most once, so each literal's room is its number of long clauses
   * and the lists never move (growing and shrinking arrays made garbage at every propagation).
   */
  private watchStart!: Int32Array;
  private watchCount!: Int32Array;
  private watchData!: Int32Array;
  // For component detection: per variable, its long clauses and its binary neighbours (with the
  // variable each binary clause defines, 0 for none).
  private occStart!: Int32Array;
  private occData!: Int32Array;
  private nbrStart!: Int32Array;
  private nbrData!: Int32Array;
  private nbrDefines!: Int32Array;
  /**
   * A literal that was true in each long clause when it was last found satisfied: it usually
   * still is (it was assigned above the component being split), and then one look settles it.
   */
  private satisfiedBy!: Int32Array;
  /** The variable each long clause defines, 0 for none. */
  private clauseDefines!: Int32Array;
  /** Whether a variable has a definition. */
  private readonly defined: Uint8Array;

  private readonly liveStamp: Int32Array;
  private readonly clauseStamp: Int32Array;
  private readonly varBuf: Int32Array;
  /** The unassigned variables of the clause being looked at. */
  private readonly clauseVars: Int32Array;
  private readonly varOwner: Int32Array;
  private readonly clauseOwner: Int32Array;
  private stamp = 0;

  /** Position of each variable in a min-degree elimination order (the last eliminated is highest). */
  private readonly rank: Int32Array;
  /** Whether definitions are told apart (on a wide order only, see the constructor). */
  private readonly usesDefinitions: boolean;
  /** Whether decisions follow balanced separators of the residual formula (on a wide order only). */
  private readonly plansSeparators: boolean;
  /** What one step of rank is worth against one occurrence (see RANK_WEIGHT). */
  private readonly rankWeight: number;
  /** Occurrences of each variable in its component's active clauses, while components are found. */
  private readonly score: Int32Array;
  /** The plan (separator) each variable was last made part of; see planSeparator. */
  private readonly planOf: Int32Array;
  private planCount = 0;
  private readonly separatorFinder = new BalancedSeparator();
  /** Each variable's index in the component being planned, valid where localStamp = localEpoch. */
  private readonly localOf: Int32Array;
  private readonly localStamp: Int32Array;
  private localEpoch = 0;
  /** Separators and lookahead are tried on components of at least these many variables. */
  private readonly planMinVars: number;
  private readonly maxSeparator: number;
  private readonly lookaheadMinVars: number;
  private readonly cache = new ComponentCache<T>(MAX_CACHE_BYTES);
  private readonly algebra: CountAlgebra<T>;
  /** The free variables components() found last (the algebra may want them, not only their number). */
  private readonly freeVars: Int32Array;
  /** Whether narrow components are counted by dynamic programming, and from which size. */
  private readonly countsNarrow: boolean;
  private readonly narrowMinVars: number;
  private readonly narrowCounter = new TreeDecompositionCounter();
  private narrowFormula: NarrowFormula = { vars: 0, clauseStart: new Int32Array(64), lits: new Int32Array(256), clauses: 0 };
  private steps = 0;

  // The arena: the components on the search path, as records whose variables (sorted) and then
  // active clauses (sorted) are lists[recordStart .. recordStart + recordVars + recordClauses).
  // A branch's components are pushed on top and popped when the branch is done.
  private lists = new Int32Array(1 << 16);
  private listTop = 0;
  private recordStart = new Int32Array(1 << 10);
  private recordVars = new Int32Array(1 << 10);
  private recordClauses = new Int32Array(1 << 10);
  private recordHash = new Int32Array(1 << 10);
  /** The variable to branch on first in each component. */
  private recordBranch = new Int32Array(1 << 10);
  /** The separator plan a component follows (0 for none), and whether it has no variable of it left. */
  private recordPlan = new Int32Array(1 << 10);
  private recordNeedsPlan = new Int32Array(1 << 10);
  private recordTop = 0;
  /** Where the next variable and clause of each new component go, while the lists are dealt out. */
  private readonly fillVar: Int32Array;
  private readonly fillClause: Int32Array;
  private readonly frames: Frame<T>[] = [];

  constructor(numVars: number, input: number[][], definitions: number[][], deadline: Deadline, options: CountOptions, algebra: CountAlgebra<T>) {
    this.n = numVars;
    this.algebra = algebra;
    this.freeVars = new Int32Array(numVars + 1);
    this.deadline = deadline;
    this.litVal = new Int8Array(2 * numVars + 2);
    this.trail = new Int32Array(numVars + 1);
    this.liveStamp = new Int32Array(numVars + 1);
    this.varBuf = new Int32Array(numVars + 1);
    this.clauseVars = new Int32Array(numVars + 1);
    this.varOwner = new Int32Array(numVars + 1);
    this.defined = new Uint8Array(numVars + 1);
    this.fillVar = new Int32Array(numVars + 1);
    this.fillClause = new Int32Array(numVars + 1);

    const binaries: number[] = [];
    const binDefines: number[] = [];
    const longs: number[][] = [];
    const longDefines: number[] = [];
    const units: number[] = [];
    const take = (clause: number[], isDefinition: boolean): void => {
      const set = new Set<number>();
      let tautology = false;
      let top = 0;
      for (const d of clause) {
        if (!Number.isInteger(d) || d === 0 || Math.abs(d) > numVars) throw new RangeError(`not a literal of ${numVars} variables: ${d}`);
        const l = d > 0 ? d << 1 : ((-d) << 1) | 1;
        if (set.has(l ^ 1)) tautology = true;
        set.add(l);
        top = Math.max(top, Math.abs(d));
      }
      if (tautology) return;
      const lits = [...set];
      const defines = isDefinition ? top : 0;
      if (defines) this.defined[defines] = 1;
      if (lits.length === 0) this.contradiction = true;
      else if (lits.length === 1) units.push(lits[0]!);
      else if (lits.length === 2) {
        binaries.push(lits[0]!, lits[1]!);
        binDefines.push(defines);
      } else {
        longs.push(lits);
        longDefines.push(defines);
      }
    };
    // countCnf puts every definition in `input` (the same array), in the caller's order.
    const definitionSet = new Set(definitions);
    for (const clause of input) take(clause, definitionSet.has(clause));
    this.clauseStamp = new Int32Array(longs.length);
    this.satisfiedBy = new Int32Array(longs.length);
    this.clauseOwner = new Int32Array(longs.length);
    this.clauseDefines = Int32Array.from(longDefines);

    const nb = binaries.length / 2;
    const bin = buildCsr(2 * numVars + 2, (i) => (i < nb ? binaries[2 * i]! ^ 1 : binaries[2 * (i - nb) + 1]! ^ 1), (i) => (i < nb ? binaries[2 * i + 1]! : binaries[2 * (i - nb)]!), 2 * nb);
    this.binStart = bin.start;
    this.binData = bin.data;
    const nbrKey = (i: number) => (i < nb ? binaries[2 * i]! >> 1 : binaries[2 * (i - nb) + 1]! >> 1);
    const nbr = buildCsr(numVars + 1, nbrKey, (i) => (i < nb ? binaries[2 * i + 1]! >> 1 : binaries[2 * (i - nb)]! >> 1), 2 * nb);
    this.nbrStart = nbr.start;
    this.nbrData = nbr.data;
    this.nbrDefines = buildCsr(numVars + 1, nbrKey, (i) => binDefines[i < nb ? i : i - nb]!, 2 * nb).data;

    this.clauseStart = new Int32Array(longs.length + 1);
    let total = 0;
    for (let c = 0; c < longs.length; c++) {
      this.clauseStart[c] = total;
      total += longs[c]!.length;
    }
    this.clauseStart[longs.length] = total;
    this.clauseLits = new Int32Array(total);
    const occKeys: number[] = [];
    const occVals: number[] = [];
    this.watchStart = new Int32Array(2 * numVars + 3);
    for (const lits of longs) for (const l of lits) this.watchStart[l + 1]++;
    for (let l = 0; l < 2 * numVars + 2; l++) this.watchStart[l + 1] += this.watchStart[l]!;
    this.watchCount = new Int32Array(2 * numVars + 2);
    this.watchData = new Int32Array(this.watchStart[2 * numVars + 2]!);
    for (let c = 0; c < longs.length; c++) {
      const lits = longs[c]!;
      this.clauseLits.set(lits, this.clauseStart[c]!);
      for (const l of lits) {
        occKeys.push(l >> 1);
        occVals.push(c);
      }
      this.watch(lits[0]!, c);
      this.watch(lits[1]!, c);
    }
    const occ = buildCsr(numVars + 1, (i) => occKeys[i]!, (i) => occVals[i]!, occKeys.length);
    this.occStart = occ.start;
    this.occData = occ.data;

    const order = eliminationRanks(numVars, binaries, longs);
    this.rank = order.rank;
    const wide = order.width !== null && order.width > WIDE;
    this.rankWeight = wide ? RANK_WEIGHT / numVars : RANK_ONLY;
    // Dropping unused definitions pays on a wide order (fm3: 6.7 M decisions down to 1.05 M), but
    // the liveness pass at every split costs more than it saves on a narrow one (a CDL model: 1.0 s
    // to 4.5 s): there the definitions count as plain clauses.
    this.usesDefinitions = wide || options.dropUnusedDefinitions === 'always';
    // Separators and lookahead: on the narrow orders of real models the static order is as good
    // (a CDL model: 25 000 decisions by rank, 32 000 with separators).
    const alwaysSeparators = options.separators === 'always';
    this.plansSeparators = wide || alwaysSeparators;
    this.planMinVars = alwaysSeparators ? 3 : PLAN_MIN_VARS;
    this.maxSeparator = alwaysSeparators ? 2 : MAX_SEPARATOR;
    this.lookaheadMinVars = alwaysSeparators ? 2 : LOOKAHEAD_MIN_VARS;
    // The dynamic programming gives a count, not a trace: an algebra that wants the trace (the
    // compiler) searches them, unless it keeps them as formulas (fromNarrow).
    this.countsNarrow = (wide || options.narrowComponents === 'always') && (algebra.fromCount !== undefined || algebra.fromNarrow !== undefined);
    this.narrowMinVars = options.narrowComponents === 'always' ? 2 : algebra.fromNarrow !== undefined ? TABLE_MIN_VARS : NARROW_MIN_VARS;
    if (!this.usesDefinitions) {
      this.defined.fill(0);
      this.clauseDefines.fill(0);
      this.nbrDefines.fill(0);
    }
    this.score = new Int32Array(numVars + 1);
    this.planOf = new Int32Array(numVars + 1);
    this.localOf = new Int32Array(numVars + 1);
    this.localStamp = new Int32Array(numVars + 1);
    for (const u of units) {
      const val = this.litVal[u];
      if (val === FALSE) this.contradiction = true;
      else if (val === 0) this.assign(u);
    }
  }

  private watch(lit: number, c: number): void {
    this.watchData[this.watchStart[lit]! + this.watchCount[lit]!++] = c;
  }

  private assign(lit: number): void {
    this.litVal[lit] = TRUE;
    this.litVal[lit ^ 1] = FALSE;
    this.trail[this.trailSize++] = lit;
  }

  private undo(to: number): void {
    for (let i = this.trailSize - 1; i >= to; i--) {
      const lit = this.trail[i]!;
      this.litVal[lit] = 0;
      this.litVal[lit ^ 1] = 0;
    }
    this.trailSize = to;
    this.qhead = to;
  }

  /** Unit propagation; false on a conflict. */
  private propagate(): boolean {
    const litVal = this.litVal;
    const lits = this.clauseLits;
    const starts = this.clauseStart;
    const ws = this.watchData;
    const watchStart = this.watchStart;
    const watchCount = this.watchCount;
    while (this.qhead < this.trailSize) {
      const p = this.trail[this.qhead++]!;
      for (let i = this.binStart[p]!, end = this.binStart[p + 1]!; i < end; i++) {
        const q = this.binData[i]!;
        const val = litVal[q];
        if (val === TRUE) continue;
        if (val === FALSE) return false;
        this.assign(q);
      }
      const falseLit = p ^ 1;
      const base = watchStart[falseLit]!;
      let i = base;
      let j = base;
      const n = base + watchCount[falseLit]!;
      while (i < n) {
        const c = ws[i++]!;
        const s = starts[c]!;
        const e = starts[c + 1]!;
        if (lits[s] === falseLit) {
          lits[s] = lits[s + 1]!;
          lits[s + 1] = falseLit;
        }
        const first = lits[s]!;
        if (litVal[first] === TRUE) {
          ws[j++] = c;
          continue;
        }
        let moved = false;
        for (let k = s + 2; k < e; k++) {
          const l = lits[k]!;
          if (litVal[l] !== FALSE) {
            lits[s + 1] = l;
            lits[k] = falseLit;
            ws[watchStart[l]! + watchCount[l]!++] = c;
            moved = true;
            break;
          }
        }
        if (moved) continue;
        ws[j++] = c;
        if (litVal[first] === FALSE) {
          while (i < n) ws[j++] = ws[i++]!;
          watchCount[falseLit] = j - base;
          return false;
        }
        this.assign(first);
      }
      watchCount[falseLit] = j - base;
    }
    return true;
  }

  private satisfied(c: number): boolean {
    const litVal = this.litVal;
    if (litVal[this.satisfiedBy[c]!] === TRUE) return true;
    const lits = this.clauseLits;
    for (let m = this.clauseStart[c]!, e = this.clauseStart[c + 1]!; m < e; m++) {
      if (litVal[lits[m]!] === TRUE) {
        this.satisfiedBy[c] = lits[m]!;
        return true;
      }
    }
    return false;
  }

  /**
   * Marks (liveStamp = stamp) the unassigned variables of lists[start .. start+count) that take
   * part in the residual formula: every variable without a definition, and a defined one that an
   * active clause other than its own definition uses. A clause of a definition is active while the variable it defines
   * is assigned or live. A definition's inputs are smaller than the variable it defines, so going
   * down from the largest variable settles every user before what it uses. Clauses not marked
   * inParent are inactive (see components()).
   */
  private markLive(lists: Int32Array, start: number, count: number, stamp: number, inParent: number): void {
    const litVal = this.litVal;
    const live = this.liveStamp;
    if (!this.usesDefinitions) {
      for (let i = start; i < start + count; i++) if (litVal[lists[i]! << 1] === 0) live[lists[i]!] = stamp;
      return;
    }
    const defined = this.defined;
    for (let i = start + count - 1; i >= start; i--) {
      const v = lists[i]!;
      if (litVal[v << 1] !== 0) continue;
      if (!defined[v]) {
        live[v] = stamp;
        continue;
      }
      let used = false;
      for (let k = this.nbrStart[v]!, end = this.nbrStart[v + 1]!; k < end && !used; k++) {
        const d = this.nbrDefines[k]!;
        if (d === v || litVal[this.nbrData[k]! << 1] !== 0) continue;
        used = d === 0 || live[d] === stamp;
      }
      for (let k = this.occStart[v]!, end = this.occStart[v + 1]!; k < end && !used; k++) {
        const c = this.occData[k]!;
        if (this.clauseStamp[c] !== inParent) continue;
        const d = this.clauseDefines[c]!;
        if (d === v) continue;
        if (d !== 0 && litVal[d << 1] === 0 && live[d] !== stamp) continue;
        used = !this.satisfied(c);
      }
      if (used) live[v] = stamp;
    }
  }

  /** Room for `items` more list items and `records` more component records in the arena. */
  private reserve(items: number, records: number): void {
    this.lists = withRoom(this.lists, this.listTop, this.listTop + items);
    if (this.recordTop + records > this.recordStart.length) {
      let size = this.recordStart.length;
      while (size < this.recordTop + records) size *= 2;
      const grow = (a: Int32Array) => {
        const b = new Int32Array(size);
        b.set(a.subarray(0, this.recordTop));
        return b;
      };
      this.recordStart = grow(this.recordStart);
      this.recordVars = grow(this.recordVars);
      this.recordClauses = grow(this.recordClauses);
      this.recordHash = grow(this.recordHash);
      this.recordBranch = grow(this.recordBranch);
      this.recordPlan = grow(this.recordPlan);
      this.recordNeedsPlan = grow(this.recordNeedsPlan);
    }
  }

  /**
   * The connected components of the live unassigned variables of component `parent`, whose
   * active clauses are among the parent's: appended to the arena as records recordTop.., and
   * the number of live variables that are free (in no clause: each doubles the count). A
   * variable that is not live has one value whatever the others are, so it counts once and
   * belongs to no component.
   * The lists come out sorted without sorting: the parent's sorted lists are dealt out to the
   * components in order.
   */
  private components(parent: number): number {
    const parentStart = this.recordStart[parent]!;
    const parentVars = this.recordVars[parent]!;
    const parentClauses = this.recordClauses[parent]!;
    // The components together hold at most the parent's items, and each has two variables or more.
    this.reserve(parentVars + parentClauses, (parentVars >> 1) + 1);
    const lists = this.lists;
    // The parent's clauses are marked first (clauseStamp = inParent). A clause outside them is
    // satisfied, or the definition of a variable that was not live in the parent, and such a
    // definition is satisfied once its variable is assigned (propagation can only have forced
    // that variable through it); either way it is inactive here, and one look skips it instead
    // of a check of its literals (fm3.uvl: 31 of the search's 55 million clause visits found a
    // satisfied clause).
    const clauseStamp = this.clauseStamp;
    const inParent = ++this.stamp;
    for (let i = parentStart + parentVars, end = i + parentClauses; i < end; i++) clauseStamp[lists[i]!] = inParent;
    const stamp = ++this.stamp;
    this.markLive(lists, parentStart, parentVars, stamp, inParent);
    // A live variable is marked visited once the walk reaches it, in the same array: below stamp
    // not live, stamp live, visited live and reached (one look per neighbour instead of two).
    const visited = ++this.stamp;
    const litVal = this.litVal;
    const live = this.liveStamp;
    const owner = this.varOwner;
    const clauseOwner = this.clauseOwner;
    const clauseDefines = this.clauseDefines;
    const rank = this.rank;
    const nbrStart = this.nbrStart;
    const nbrData = this.nbrData;
    const occStart = this.occStart;
    const occData = this.occData;
    const clauseStart = this.clauseStart;
    const clauseLits = this.clauseLits;
    const queue = this.varBuf;
    const pending = this.clauseVars;
    const satisfiedBy = this.satisfiedBy;
    const score = this.score;
    const rankWeight = this.rankWeight;
    const first = this.recordTop;
    const recordVars = this.recordVars;
    const recordClauses = this.recordClauses;
    const recordBranch = this.recordBranch;
    const parentPlan = this.recordPlan[parent]!;
    const planOf = this.planOf;
    let found = 0;
    let free = 0;
    for (let i = parentStart, end = parentStart + parentVars; i < end; i++) {
      const root = lists[i]!;
      if (live[root] !== stamp) continue;
      const id = first + found;
      live[root] = visited;
      owner[root] = id;
      score[root] = 0;
      let nv = 0;
      let nc = 0;
      queue[nv++] = root;
      for (let head = 0; head < nv; head++) {
        const u = queue[head]!;
        for (let k = nbrStart[u]!, end = nbrStart[u + 1]!; k < end; k++) {
          const w = nbrData[k]!;
          // A binary definition defines one of its two variables, and both are live: it is active.
          const mark = live[w]!;
          if (mark < stamp) continue;
          score[u]++;
          if (mark === stamp) {
            live[w] = visited;
            owner[w] = id;
            score[w] = 0;
            queue[nv++] = w;
          }
        }
        for (let k = occStart[u]!, end = occStart[u + 1]!; k < end; k++) {
          const c = occData[k]!;
          if (clauseStamp[c] !== inParent) continue;
          clauseStamp[c] = stamp;
          const d = clauseDefines[c]!;
          if (d !== 0 && litVal[d << 1] === 0 && live[d]! < stamp) {
            clauseOwner[c] = -1;
            continue;
          }
          // One pass over the literals: satisfied, or its unassigned variables.
          let unassigned = 0;
          let satisfied = litVal[satisfiedBy[c]!] === TRUE;
          for (let m = clauseStart[c]!, e = satisfied ? m : clauseStart[c + 1]!; m < e; m++) {
            const l = clauseLits[m]!;
            const val = litVal[l];
            if (val === TRUE) {
              satisfied = true;
              satisfiedBy[c] = l;
              break;
            }
            if (val === 0) pending[unassigned++] = l >> 1;
          }
          if (satisfied) {
            clauseOwner[c] = -1;
            continue;
          }
          clauseOwner[c] = id;
          nc++;
          for (let m = 0; m < unassigned; m++) {
            const w = pending[m]!;
            if (live[w] !== visited) {
              live[w] = visited;
              owner[w] = id;
              score[w] = 1;
              queue[nv++] = w;
            } else score[w]++;
          }
        }
      }
      if (nv === 1) {
        owner[root] = -1;
        this.freeVars[free++] = root;
        continue;
      }
      // The decision: the best-scoring variable of the separator the parent follows, if any of
      // it is here; otherwise the best-scoring variable (and the component may plan its own).
      let top = root;
      let topScore = -1;
      let inPlan = false;
      for (let q = 0; q < nv; q++) {
        const u = queue[q]!;
        const planned = parentPlan !== 0 && planOf[u] === parentPlan;
        if (planned && !inPlan) {
          inPlan = true;
          topScore = -1;
        }
        if (inPlan && !planned) continue;
        const sc = score[u]! + rankWeight * rank[u]!;
        if (sc > topScore) {
          topScore = sc;
          top = u;
        }
      }
      this.recordPlan[id] = parentPlan;
      this.recordNeedsPlan[id] = inPlan ? 0 : 1;
      recordVars[id] = nv;
      recordClauses[id] = nc;
      recordBranch[id] = top;
      found++;
    }
    // Each component's lists, one after the other: its variables, then its clauses.
    const recordStart = this.recordStart;
    const fillVar = this.fillVar;
    const fillClause = this.fillClause;
    let at = this.listTop;
    for (let id = first; id < first + found; id++) {
      recordStart[id] = at;
      fillVar[id - first] = at;
      fillClause[id - first] = at + recordVars[id]!;
      at += recordVars[id]! + recordClauses[id]!;
    }
    this.listTop = at;
    this.recordTop = first + found;
    if (found === 0) return free;
    for (let i = parentStart, end = parentStart + parentVars; i < end; i++) {
      const v = lists[i]!;
      // Only live unassigned variables were visited.
      if (live[v] !== visited) continue;
      const id = owner[v]!;
      if (id >= 0) lists[fillVar[id - first]!++] = v;
    }
    for (let i = parentStart + parentVars, end = i + parentClauses; i < end; i++) {
      const c = lists[i]!;
      if (clauseStamp[c] !== stamp) continue;
      const id = clauseOwner[c]!;
      if (id >= 0) lists[fillClause[id - first]!++] = c;
    }
    for (let id = first; id < first + found; id++) this.recordHash[id] = hashLists(lists, recordStart[id]!, recordVars[id]!, recordClauses[id]!);
    return free;
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

  /**
   * The residual formula of a component just found (nothing assigned since): its variables
   * numbered from 0, its binary clauses between two of them, and its active long clauses
   * without their literals outside it (all false). The same object each time, refilled.
   */
  private residualFormula(record: number): NarrowFormula {
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
      if (f.branch === 0 && this.plansSeparators && this.recordNeedsPlan[f.record]) {
        const size = this.recordVars[f.record]!;
        if (size <= PLAN_MAX_VARS) {
          const planned = size >= this.planMinVars && this.planSeparator(f.record);
          if (!planned && size >= this.lookaheadMinVars) this.lookahead(f.record);
        }
      }
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

/** A 32-bit hash of a component's variables and clauses (murmur-style mixing). */
function hashLists(lists: Int32Array, start: number, vars: number, clauses: number): number {
  let h = Math.imul(vars, 0x9e3779b1) ^ clauses;
  for (let i = start, end = start + vars + clauses; i < end; i++) {
    h = Math.imul(h ^ lists[i]!, 0x85ebca6b);
    h ^= h >>> 13;
  }
  h = Math.imul(h ^ (h >>> 16), 0xc2b2ae35);
  return h ^ (h >>> 16);
}
