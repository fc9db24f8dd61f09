// The components of the counter's residual formula (counter.ts): which unassigned variables are
// still live, the connected components they fall into after each decision with the variable each
// should branch on first, and the arena that holds the components on the search path.

import { CounterFormula, TRUE } from './counter-formula.ts';
import { RANK_ONLY, RANK_WEIGHT, type CountOptions } from './counter-tuning.ts';
import { withRoom } from './int32-arrays.ts';

export class ComponentArena extends CounterFormula {
  protected readonly liveStamp: Int32Array;
  protected readonly clauseStamp: Int32Array;
  protected readonly varBuf: Int32Array;
  /** The unassigned variables of the clause being looked at. */
  protected readonly clauseVars: Int32Array;
  protected readonly varOwner: Int32Array;
  protected readonly clauseOwner: Int32Array;
  protected stamp = 0;
  /** Whether definitions are told apart (on a wide order only, see the constructor). */
  protected readonly usesDefinitions: boolean;
  /** What one step of rank is worth against one occurrence (see RANK_WEIGHT). */
  protected readonly rankWeight: number;
  /** Occurrences of each variable in its component's active clauses, while components are found. */
  protected readonly score: Int32Array;
  /** The plan (separator) each variable was last made part of; see planSeparator. */
  protected readonly planOf: Int32Array;
  /** The free variables components() found last (the algebra may want them, not only their number). */
  protected readonly freeVars: Int32Array;

  // The arena: the components on the search path, as records whose variables (sorted) and then
  // active clauses (sorted) are lists[recordStart .. recordStart + recordVars + recordClauses).
  // A branch's components are pushed on top and popped when the branch is done.
  protected lists = new Int32Array(1 << 16);
  protected listTop = 0;
  protected recordStart = new Int32Array(1 << 10);
  protected recordVars = new Int32Array(1 << 10);
  protected recordClauses = new Int32Array(1 << 10);
  protected recordHash = new Int32Array(1 << 10);
  /** The variable to branch on first in each component. */
  protected recordBranch = new Int32Array(1 << 10);
  /** The separator plan a component follows (0 for none), and whether it has no variable of it left. */
  protected recordPlan = new Int32Array(1 << 10);
  protected recordNeedsPlan = new Int32Array(1 << 10);
  protected recordTop = 0;
  /** Where the next variable and clause of each new component go, while the lists are dealt out. */
  protected readonly fillVar: Int32Array;
  protected readonly fillClause: Int32Array;
  /** The active clauses of the component walkComponent() found last. */
  private walkedClauses = 0;

  constructor(numVars: number, input: number[][], definitions: number[][], options: CountOptions) {
    super(numVars, input, definitions);
    const longClauses = this.clauseStart.length - 1;
    this.freeVars = new Int32Array(numVars + 1);
    this.liveStamp = new Int32Array(numVars + 1);
    this.varBuf = new Int32Array(numVars + 1);
    this.clauseVars = new Int32Array(numVars + 1);
    this.varOwner = new Int32Array(numVars + 1);
    this.fillVar = new Int32Array(numVars + 1);
    this.fillClause = new Int32Array(numVars + 1);
    this.clauseStamp = new Int32Array(longClauses);
    this.clauseOwner = new Int32Array(longClauses);
    this.rankWeight = this.wide ? RANK_WEIGHT / numVars : RANK_ONLY;
    // Dropping unused definitions pays on a wide order (fm3: 6.7 M decisions down to 1.05 M), but
    // the liveness pass at every split costs more than it saves on a narrow one (a CDL model: 1.0 s
    // to 4.5 s): there the definitions count as plain clauses.
    this.usesDefinitions = this.wide || options.dropUnusedDefinitions === 'always';
    if (!this.usesDefinitions) {
      this.defined.fill(0);
      this.clauseDefines.fill(0);
      this.nbrDefines.fill(0);
    }
    this.score = new Int32Array(numVars + 1);
    this.planOf = new Int32Array(numVars + 1);
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
  protected reserve(items: number, records: number): void {
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
  protected components(parent: number): number {
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
    const first = this.recordTop;
    const free = this.walkComponents(parent, inParent, stamp, visited);
    this.dealLists(parent, first, stamp, visited);
    return free;
  }

  /**
   * The walk of components(): each live variable of the parent not reached yet starts a
   * component, found breadth first; its record gets its sizes and its first decision, and
   * recordTop moves past the new records. Returns the number of free variables.
   */
  private walkComponents(parent: number, inParent: number, stamp: number, visited: number): number {
    const parentStart = this.recordStart[parent]!;
    const parentVars = this.recordVars[parent]!;
    const lists = this.lists;
    const live = this.liveStamp;
    const first = this.recordTop;
    const parentPlan = this.recordPlan[parent]!;
    let found = 0;
    let free = 0;
    for (let i = parentStart, end = parentStart + parentVars; i < end; i++) {
      const root = lists[i]!;
      if (live[root] !== stamp) continue;
      const id = first + found;
      const nv = this.walkComponent(root, id, inParent, stamp, visited);
      if (nv === 1) {
        this.varOwner[root] = -1;
        this.freeVars[free++] = root;
        continue;
      }
      this.chooseBranch(id, nv, parentPlan);
      this.recordVars[id] = nv;
      this.recordClauses[id] = this.walkedClauses;
      found++;
    }
    this.recordTop = first + found;
    return free;
  }

  /**
   * The component of `root`, breadth first: its variables get owner `id` and their scores and
   * are left in varBuf[0 .. nv); returns nv, and its active clauses' number in walkedClauses.
   */
  private walkComponent(root: number, id: number, inParent: number, stamp: number, visited: number): number {
    const live = this.liveStamp;
    const owner = this.varOwner;
    const nbrStart = this.nbrStart;
    const nbrData = this.nbrData;
    const queue = this.varBuf;
    const score = this.score;
    live[root] = visited;
    owner[root] = id;
    score[root] = 0;
    this.walkedClauses = 0;
    let nv = 0;
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
      nv = this.walkClauses(u, id, inParent, stamp, visited, nv);
    }
    return nv;
  }

  /**
   * The long clauses of u not met yet in this walk: each inactive one is marked so, each active
   * one joins component `id` (added to walkedClauses) with its unassigned variables, those not
   * reached yet queued at varBuf[nv ..). Returns the new end of the queue.
   */
  private walkClauses(u: number, id: number, inParent: number, stamp: number, visited: number, nv: number): number {
    const clauseStamp = this.clauseStamp;
    const litVal = this.litVal;
    const live = this.liveStamp;
    const owner = this.varOwner;
    const clauseOwner = this.clauseOwner;
    const clauseDefines = this.clauseDefines;
    const occData = this.occData;
    const clauseStart = this.clauseStart;
    const clauseLits = this.clauseLits;
    const queue = this.varBuf;
    const pending = this.clauseVars;
    const satisfiedBy = this.satisfiedBy;
    const score = this.score;
    let nc = 0;
    for (let k = this.occStart[u]!, end = this.occStart[u + 1]!; k < end; k++) {
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
    this.walkedClauses += nc;
    return nv;
  }

  /**
   * The decision of component `id`, whose variables the walk left in varBuf[0 .. nv): the
   * best-scoring variable of the separator the parent follows, if any of it is here; otherwise
   * the best-scoring variable (and the component may plan its own).
   */
  private chooseBranch(id: number, nv: number, parentPlan: number): void {
    const queue = this.varBuf;
    const score = this.score;
    const rank = this.rank;
    const rankWeight = this.rankWeight;
    const planOf = this.planOf;
    let top = queue[0]!;
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
    this.recordBranch[id] = top;
  }

  /** The lists of the records first..recordTop, dealt out from the parent's, and their hashes. */
  private dealLists(parent: number, first: number, stamp: number, visited: number): void {
    const parentStart = this.recordStart[parent]!;
    const parentVars = this.recordVars[parent]!;
    const parentClauses = this.recordClauses[parent]!;
    const lists = this.lists;
    const live = this.liveStamp;
    const owner = this.varOwner;
    const clauseStamp = this.clauseStamp;
    const clauseOwner = this.clauseOwner;
    const recordVars = this.recordVars;
    const recordClauses = this.recordClauses;
    const found = this.recordTop - first;
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
    if (found === 0) return;
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
  }

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
