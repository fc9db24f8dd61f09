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
// The search runs on an explicit stack (a model with thousands of features would overflow the
// call stack). Counts are BigInts: real models have far more than 2^53 configurations.
//
// Conflict clauses are not learned here: a clause learned under one branch would be used to
// prune components whose cached counts are then reused where the clause's premises do not hold
// (sharpSAT must clean such "polluted" entries). Feature models propagate so strongly that
// unit propagation plus components and the cache carry the work; learning is where the SAT
// solver (sat/solver.ts) uses it.

import { Deadline } from '../deadline.ts';
import { eliminationRanks } from './elimination.ts';
import { mergeEquivalentLiterals } from './equivalences.ts';

const TRUE = 1;
const FALSE = -1;

interface Component {
  vars: Int32Array;
  clauses: Int32Array;
  key: string;
  branchVar: number;
}

interface Frame {
  comp: Component;
  /** 0: first polarity in progress, 1: second, 2: both done. */
  branch: number;
  trailStart: number;
  total: bigint;
  subs: Component[] | null;
  sub: number;
  product: bigint;
}

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

const MAX_CACHE_CHARS = 64 * 1024 * 1024;
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

export interface CountOptions {
  /** When unused definitions are left out: on a wide elimination order only (default), or always (tests). */
  dropUnusedDefinitions?: 'wide' | 'always';
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
  const counter = new ComponentCounter(reduced.numVars, reduced.clauses, reduced.definitions, deadline, options.dropUnusedDefinitions ?? 'wide');
  return counter.count();
}

class ComponentCounter {
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
  private watches!: number[][];
  // For component detection: per variable, its long clauses and its binary neighbours (with the
  // variable each binary clause defines, 0 for none).
  private occStart!: Int32Array;
  private occData!: Int32Array;
  private nbrStart!: Int32Array;
  private nbrData!: Int32Array;
  private nbrDefines!: Int32Array;
  /** The variable each long clause defines, 0 for none. */
  private clauseDefines!: Int32Array;
  /** Whether a variable has a definition. */
  private readonly defined: Uint8Array;

  private readonly varStamp: Int32Array;
  private readonly liveStamp: Int32Array;
  private readonly clauseStamp: Int32Array;
  private readonly varBuf: Int32Array;
  private readonly varOwner: Int32Array;
  private readonly clauseOwner: Int32Array;
  private stamp = 0;

  /** Position of each variable in a min-degree elimination order (the last eliminated is highest). */
  private readonly rank: Int32Array;
  /** Whether definitions are told apart (on a wide order only, see the constructor). */
  private readonly usesDefinitions: boolean;
  /** What one step of rank is worth against one occurrence (see RANK_WEIGHT). */
  private readonly rankWeight: number;
  /** Occurrences of each variable in its component's active clauses, while components are found. */
  private readonly score: Int32Array;
  private readonly cache = new Map<string, bigint>();
  private cacheChars = 0;
  private steps = 0;

  constructor(numVars: number, input: number[][], definitions: number[][], deadline: Deadline, dropUnused: 'wide' | 'always') {
    this.n = numVars;
    this.deadline = deadline;
    this.litVal = new Int8Array(2 * numVars + 2);
    this.trail = new Int32Array(numVars + 1);
    this.varStamp = new Int32Array(numVars + 1);
    this.liveStamp = new Int32Array(numVars + 1);
    this.varBuf = new Int32Array(numVars + 1);
    this.varOwner = new Int32Array(numVars + 1);
    this.defined = new Uint8Array(numVars + 1);

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
    this.watches = Array.from({ length: 2 * numVars + 2 }, () => []);
    for (let c = 0; c < longs.length; c++) {
      const lits = longs[c]!;
      this.clauseLits.set(lits, this.clauseStart[c]!);
      for (const l of lits) {
        occKeys.push(l >> 1);
        occVals.push(c);
      }
      this.watches[lits[0]!]!.push(c);
      this.watches[lits[1]!]!.push(c);
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
    this.usesDefinitions = wide || dropUnused === 'always';
    if (!this.usesDefinitions) {
      this.defined.fill(0);
      this.clauseDefines.fill(0);
      this.nbrDefines.fill(0);
    }
    this.score = new Int32Array(numVars + 1);
    for (const u of units) {
      const val = this.litVal[u];
      if (val === FALSE) this.contradiction = true;
      else if (val === 0) this.assign(u);
    }
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
      const ws = this.watches[falseLit]!;
      let i = 0;
      let j = 0;
      const n = ws.length;
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
            this.watches[l]!.push(c);
            moved = true;
            break;
          }
        }
        if (moved) continue;
        ws[j++] = c;
        if (litVal[first] === FALSE) {
          while (i < n) ws[j++] = ws[i++]!;
          ws.length = j;
          return false;
        }
        this.assign(first);
      }
      ws.length = j;
    }
    return true;
  }

  private satisfied(c: number): boolean {
    const litVal = this.litVal;
    const lits = this.clauseLits;
    for (let m = this.clauseStart[c]!, e = this.clauseStart[c + 1]!; m < e; m++) if (litVal[lits[m]!] === TRUE) return true;
    return false;
  }

  /**
   * Marks (liveStamp = stamp) the unassigned variables of `vars` that take part in the residual
   * formula: every variable without a definition, and a defined one that an active clause other
   * than its own definition uses. A clause of a definition is active while the variable it defines
   * is assigned or live. A definition's inputs are smaller than the variable it defines, so going
   * down from the largest variable settles every user before what it uses.
   */
  private markLive(vars: Int32Array, stamp: number): void {
    const litVal = this.litVal;
    const live = this.liveStamp;
    if (!this.usesDefinitions) {
      for (let i = 0; i < vars.length; i++) if (litVal[vars[i]! << 1] === 0) live[vars[i]!] = stamp;
      return;
    }
    const defined = this.defined;
    for (let i = vars.length - 1; i >= 0; i--) {
      const v = vars[i]!;
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
        const d = this.clauseDefines[c]!;
        if (d === v) continue;
        if (d !== 0 && litVal[d << 1] === 0 && live[d] !== stamp) continue;
        used = !this.satisfied(c);
      }
      if (used) live[v] = stamp;
    }
  }

  /**
   * The connected components of the live unassigned variables among `vars` (sorted), whose
   * active clauses are among `clauses` (sorted), and how many live variables are free (in no
   * clause: each doubles the count). A variable that is not live has one value whatever the
   * others are, so it counts once and belongs to no component.
   * The lists come out sorted without sorting: the parent's sorted lists are dealt out to the
   * components in order.
   */
  private components(vars: Int32Array, clauses: Int32Array): { comps: Component[]; free: number } {
    const stamp = ++this.stamp;
    this.markLive(vars, stamp);
    const litVal = this.litVal;
    const live = this.liveStamp;
    const varStamp = this.varStamp;
    const clauseStamp = this.clauseStamp;
    const owner = this.varOwner;
    const clauseOwner = this.clauseOwner;
    const clauseDefines = this.clauseDefines;
    const rank = this.rank;
    const nbrStart = this.nbrStart;
    const nbrData = this.nbrData;
    const nbrDefines = this.nbrDefines;
    const occStart = this.occStart;
    const occData = this.occData;
    const clauseStart = this.clauseStart;
    const clauseLits = this.clauseLits;
    const queue = this.varBuf;
    const score = this.score;
    const rankWeight = this.rankWeight;
    const sizes: number[] = [];
    const clauseCounts: number[] = [];
    const best: number[] = [];
    let free = 0;
    for (let i = 0; i < vars.length; i++) {
      const root = vars[i]!;
      if (varStamp[root] === stamp || live[root] !== stamp) continue;
      const id = sizes.length;
      varStamp[root] = stamp;
      owner[root] = id;
      score[root] = 0;
      let nv = 0;
      let nc = 0;
      queue[nv++] = root;
      for (let head = 0; head < nv; head++) {
        const u = queue[head]!;
        for (let k = nbrStart[u]!, end = nbrStart[u + 1]!; k < end; k++) {
          const w = nbrData[k]!;
          if (live[w] !== stamp) continue;
          const d = nbrDefines[k]!;
          if (d !== 0 && live[d] !== stamp) continue;
          score[u]++;
          if (varStamp[w] !== stamp) {
            varStamp[w] = stamp;
            owner[w] = id;
            score[w] = 0;
            queue[nv++] = w;
          }
        }
        for (let k = occStart[u]!, end = occStart[u + 1]!; k < end; k++) {
          const c = occData[k]!;
          if (clauseStamp[c] === stamp) continue;
          clauseStamp[c] = stamp;
          const d = clauseDefines[c]!;
          if ((d !== 0 && litVal[d << 1] === 0 && live[d] !== stamp) || this.satisfied(c)) {
            clauseOwner[c] = -1;
            continue;
          }
          clauseOwner[c] = id;
          nc++;
          for (let m = clauseStart[c]!, e = clauseStart[c + 1]!; m < e; m++) {
            const w = clauseLits[m]! >> 1;
            if (litVal[w << 1] !== 0) continue;
            if (varStamp[w] !== stamp) {
              varStamp[w] = stamp;
              owner[w] = id;
              score[w] = 1;
              queue[nv++] = w;
            } else score[w]++;
          }
        }
      }
      if (nv === 1) {
        owner[root] = -1;
        free++;
        continue;
      }
      let top = root;
      let topScore = -1;
      for (let q = 0; q < nv; q++) {
        const u = queue[q]!;
        const sc = score[u]! + rankWeight * rank[u]!;
        if (sc > topScore) {
          topScore = sc;
          top = u;
        }
      }
      sizes.push(nv);
      clauseCounts.push(nc);
      best.push(top);
    }
    const varLists = sizes.map((n) => new Int32Array(n));
    const clauseLists = clauseCounts.map((n) => new Int32Array(n));
    const fillV = new Int32Array(sizes.length);
    const fillC = new Int32Array(sizes.length);
    for (let i = 0; i < vars.length; i++) {
      const v = vars[i]!;
      if (varStamp[v] !== stamp || litVal[v << 1] !== 0) continue;
      const id = owner[v]!;
      if (id >= 0) varLists[id]![fillV[id]!++] = v;
    }
    for (let i = 0; i < clauses.length; i++) {
      const c = clauses[i]!;
      if (clauseStamp[c] !== stamp) continue;
      const id = clauseOwner[c]!;
      if (id < 0) continue;
      clauseLists[id]![fillC[id]!++] = c;
    }
    const comps: Component[] = [];
    for (let id = 0; id < sizes.length; id++) {
      comps.push({ vars: varLists[id]!, clauses: clauseLists[id]!, key: componentKey(varLists[id]!, clauseLists[id]!), branchVar: best[id]! });
    }
    return { comps, free };
  }

  private remember(key: string, value: bigint): void {
    if (this.cacheChars + key.length > MAX_CACHE_CHARS) {
      // Forget the older half: Map keeps insertion order.
      let drop = this.cache.size >> 1;
      for (const k of this.cache.keys()) {
        if (drop-- <= 0) break;
        this.cacheChars -= k.length;
        this.cache.delete(k);
      }
    }
    this.cache.set(key, value);
    this.cacheChars += key.length;
  }

  count(): bigint | null {
    if (this.contradiction || !this.propagate()) return 0n;
    const all = new Int32Array(this.n);
    for (let v = 1; v <= this.n; v++) all[v - 1] = v;
    const allClauses = new Int32Array(this.clauseStamp.length);
    for (let c = 0; c < allClauses.length; c++) allClauses[c] = c;
    const { comps, free } = this.components(all, allClauses);
    let result = 1n << BigInt(free);
    for (const comp of comps) {
      const c = this.countComponent(comp);
      if (c === null) return null;
      result *= c;
      if (result === 0n) return 0n;
    }
    return result;
  }

  private countComponent(root: Component): bigint | null {
    const cached = this.cache.get(root.key);
    if (cached !== undefined) return cached;
    const stack: Frame[] = [newFrame(root)];
    let childResult: bigint | undefined;
    while (stack.length > 0) {
      const f = stack[stack.length - 1]!;
      if (childResult !== undefined) {
        f.product *= childResult;
        f.sub++;
        childResult = undefined;
      }
      if (f.subs !== null) {
        const subs = f.subs;
        while (f.product !== 0n && f.sub < subs.length) {
          const known = this.cache.get(subs[f.sub]!.key);
          if (known === undefined) break;
          f.product *= known;
          f.sub++;
        }
        if (f.product !== 0n && f.sub < subs.length) {
          stack.push(newFrame(subs[f.sub]!));
          continue;
        }
        f.total += f.product;
        this.undo(f.trailStart);
        f.branch++;
        f.subs = null;
      }
      if (f.branch === 2) {
        this.remember(f.comp.key, f.total);
        stack.pop();
        childResult = f.total;
        continue;
      }
      // A decision costs up to the size of its component (thousands of variables on big models).
      if ((++this.steps & 15) === 0 && this.deadline.expired()) {
        this.undo(stack[0]!.trailStart);
        return null;
      }
      // Deselecting first suits feature models: a deselected parent switches its subtree off.
      const v = f.comp.branchVar;
      f.trailStart = this.trailSize;
      this.assign(f.branch === 0 ? (v << 1) | 1 : v << 1);
      if (!this.propagate()) {
        this.undo(f.trailStart);
        f.branch++;
        continue;
      }
      const { comps, free } = this.components(f.comp.vars, f.comp.clauses);
      f.product = 1n << BigInt(free);
      f.subs = comps;
      f.sub = 0;
    }
    return childResult!;
  }
}

function newFrame(comp: Component): Frame {
  return { comp, branch: 0, trailStart: 0, total: 0n, subs: null, sub: 0, product: 1n };
}

/** The variables and active clauses as one string: sorted deltas, one UTF-16 unit each when small. */
function componentKey(vars: Int32Array, clauses: Int32Array): string {
  const codes: number[] = [];
  let prev = 0;
  for (let i = 0; i < vars.length; i++) {
    const delta = vars[i]! - prev;
    prev = vars[i]!;
    if (delta < 0xd000) codes.push(delta);
    else codes.push(0xffff, delta & 0x7fff, (delta >>> 15) & 0x7fff, delta >>> 30);
  }
  codes.push(0);
  prev = -1;
  for (let i = 0; i < clauses.length; i++) {
    const delta = clauses[i]! - prev;
    prev = clauses[i]!;
    if (delta < 0xd000) codes.push(delta);
    else codes.push(0xffff, delta & 0x7fff, (delta >>> 15) & 0x7fff, delta >>> 30);
  }
  let key = '';
  for (let i = 0; i < codes.length; i += 8192) key += String.fromCharCode.apply(null, codes.slice(i, i + 8192));
  return key;
}
