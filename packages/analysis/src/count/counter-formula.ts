// The counter's formula (counter.ts): the clauses as flat arrays (binary implications, long
// clauses with two watched literals, occurrence and neighbour lists for component detection,
// the definitions of auxiliary variables), the assignment with its trail, and unit propagation.
// The component search (counter-components.ts) and the counter itself extend it, so the hot
// loops read these arrays as fields of one object.

import { eliminationRanks } from './elimination.ts';
import { WIDE } from './counter-tuning.ts';

export const TRUE = 1;
export const FALSE = -1;

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

export class CounterFormula {
  protected readonly n: number;
  protected readonly litVal: Int8Array;
  protected readonly trail: Int32Array;
  protected trailSize = 0;
  protected qhead = 0;
  protected contradiction = false;

  // Binary clauses: implied[lit] are the literals made true when lit becomes true.
  protected binStart!: Int32Array;
  protected binData!: Int32Array;
  // Long clauses (3 literals or more), literals in one array.
  protected clauseStart!: Int32Array;
  protected clauseLits!: Int32Array;
  /**
   * The long clauses watching each literal: watchData[watchStart[l] .. watchStart[l] + watchCount[l]).
   * A clause watches a literal at most once, so each literal's room is its number of long clauses
   * and the lists never move (growing and shrinking arrays made garbage at every propagation).
   */
  protected watchStart!: Int32Array;
  protected watchCount!: Int32Array;
  protected watchData!: Int32Array;
  // For component detection: per variable, its long clauses and its binary neighbours (with the
  // variable each binary clause defines, 0 for none).
  protected occStart!: Int32Array;
  protected occData!: Int32Array;
  protected nbrStart!: Int32Array;
  protected nbrData!: Int32Array;
  protected nbrDefines!: Int32Array;
  /**
   * A literal that was true in each long clause when it was last found satisfied: it usually
   * still is (it was assigned above the component being split), and then one look settles it.
   */
  protected satisfiedBy!: Int32Array;
  /** The variable each long clause defines, 0 for none. */
  protected clauseDefines!: Int32Array;
  /** Whether a variable has a definition. */
  protected readonly defined: Uint8Array;
  /** Position of each variable in a min-degree elimination order (the last eliminated is highest). */
  protected readonly rank: Int32Array;
  /** Whether that order is wide: its width is known and above WIDE (see counter-tuning.ts). */
  protected readonly wide: boolean;

  constructor(numVars: number, input: number[][], definitions: number[][]) {
    this.n = numVars;
    this.litVal = new Int8Array(2 * numVars + 2);
    this.trail = new Int32Array(numVars + 1);
    this.defined = new Uint8Array(numVars + 1);
    const { binaries, binDefines, longs, longDefines, units, contradiction } = sortClauses(numVars, input, definitions, this.defined);
    this.contradiction = contradiction;
    this.satisfiedBy = new Int32Array(longs.length);
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
    this.storeLongClauses(numVars, longs);

    const order = eliminationRanks(numVars, binaries, longs);
    this.rank = order.rank;
    this.wide = order.width !== null && order.width > WIDE;
    for (const u of units) {
      const val = this.litVal[u];
      if (val === FALSE) this.contradiction = true;
      else if (val === 0) this.assign(u);
    }
  }

  /** The long clauses' literals, their watches and their occurrence lists. */
  private storeLongClauses(numVars: number, longs: number[][]): void {
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
  }

  private watch(lit: number, c: number): void {
    this.watchData[this.watchStart[lit]! + this.watchCount[lit]!++] = c;
  }

  protected assign(lit: number): void {
    this.litVal[lit] = TRUE;
    this.litVal[lit ^ 1] = FALSE;
    this.trail[this.trailSize++] = lit;
  }

  protected undo(to: number): void {
    for (let i = this.trailSize - 1; i >= to; i--) {
      const lit = this.trail[i]!;
      this.litVal[lit] = 0;
      this.litVal[lit ^ 1] = 0;
    }
    this.trailSize = to;
    this.qhead = to;
  }

  /** Unit propagation; false on a conflict. */
  protected propagate(): boolean {
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

  protected satisfied(c: number): boolean {
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
}

interface SortedClauses {
  /** Binary clauses, two literals each; the variable each defines (0 for none). */
  binaries: number[];
  binDefines: number[];
  longs: number[][];
  longDefines: number[];
  units: number[];
  /** An empty clause was given. */
  contradiction: boolean;
}

/**
 * The clauses as internal literals (2v, 2v + 1), without duplicate literals and tautologies, sorted
 * by length; `defined` marks the variable each definition defines (its largest).
 */
function sortClauses(numVars: number, input: number[][], definitions: number[][], defined: Uint8Array): SortedClauses {
  const sorted: SortedClauses = { binaries: [], binDefines: [], longs: [], longDefines: [], units: [], contradiction: false };
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
    if (defines) defined[defines] = 1;
    if (lits.length === 0) sorted.contradiction = true;
    else if (lits.length === 1) sorted.units.push(lits[0]!);
    else if (lits.length === 2) {
      sorted.binaries.push(lits[0]!, lits[1]!);
      sorted.binDefines.push(defines);
    } else {
      sorted.longs.push(lits);
      sorted.longDefines.push(defines);
    }
  };
  // countCnf puts every definition in `input` (the same array), in the caller's order.
  const definitionSet = new Set(definitions);
  for (const clause of input) take(clause, definitionSet.has(clause));
  return sorted;
}
