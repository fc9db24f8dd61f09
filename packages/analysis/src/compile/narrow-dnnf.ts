// A narrow component compiled by bucket elimination (the counter's dynamic programming,
// count/tree-decomposition.ts, with nodes for numbers): variables are eliminated in min-degree
// order; the table that eliminating x sends on holds, for each assignment of x's neighbours
// then, the node of the models of everything eliminated below x. That node is a decision on x:
// an OR of two AND nodes, one per value of x, each the literal and the nodes of the incoming
// tables' entries that the assignment picks (a failed clause of the bucket or a false entry
// makes the branch false). The incoming tables cover disjoint sets of variables (the subtrees of
// the elimination forest), so the ANDs are decomposable; the values of x make the OR
// deterministic; every variable of the component is eliminated in exactly one subtree, so every
// node of a table covers the same variables (smooth). Entries that make the same AND or OR get
// the same node (the assignment of a bag usually matters to few of its tables).
//
// This replaces the search on the narrow components of a wide model (fm3.uvl: the search meets
// them again after every decision above them), as the dynamic programming does for the counter.

import type { NarrowFormula } from '../count/tree-decomposition.ts';
import { BalancedSeparator } from '../count/separator.ts';

/** Where the nodes go (the DnnfBuilder): node ids, falseNode for no model. */
export interface NodeSink {
  readonly zero: number;
  /** An AND node of a literal (signed reduced variable; 0 for none) and child nodes. */
  andOf(literal: number, children: readonly number[]): number;
  /** A decision between two non-false AND nodes that share no model. */
  plus(total: number, branch: number): number;
}

export class NarrowCompiler {
  private readonly graph = new BalancedSeparator();
  /**
   * Every node made so far, by its literal and children (AND) or its branches (OR): the same
   * component, or much of it, comes again under other decisions above it, and its tables then
   * make the same nodes again. Keys are numbers (two ids below 2^26 in one double): a list of
   * children is named by hash-consing its prefixes (listIds), not by a string.
   */
  private readonly andNodes = new Map<number, number>();
  private readonly orNodes = new Map<number, number>();
  private readonly listIds = new Map<number, number>();

  /**
   * The node of the formula's models, its variable v being reduced variable varOf[at + v]; null
   * when the min-degree elimination has a bag of more than maxWidth + 1 variables or more than
   * maxCost table entries in all (the caller then searches).
   */
  compile(f: NarrowFormula, varOf: Int32Array, at: number, sink: NodeSink, maxWidth: number, maxCost: number): number | null {
    const n = f.vars;
    const graph = this.graph;
    graph.reset(n);
    graph.linkClauses(f.clauseStart, f.lits, f.clauses);
    if (!graph.eliminate(maxWidth)) return null;
    const bagStarts = graph.bagStarts();
    let cost = 0;
    for (let s = 0; s < n; s++) cost += 1 << (bagStarts[s + 1]! - bagStarts[s]!);
    if (cost > maxCost) return null;
    // Each clause goes to the bucket of its variable eliminated first (its others are in the bag).
    const buckets: number[][] = Array.from({ length: n }, () => []);
    for (let c = 0; c < f.clauses; c++) {
      let first = n;
      for (let i = f.clauseStart[c]!; i < f.clauseStart[c + 1]!; i++) first = Math.min(first, graph.stepOf(f.lits[i]! >> 1));
      if (first === n) return sink.zero;
      buckets[first]!.push(c);
    }
    const incoming: number[][] = Array.from({ length: n }, () => []);
    const tables: Int32Array[] = new Array<Int32Array>(n);
    const roots: number[] = [];
    for (let s = 0; s < n; s++) {
      const table = this.eliminateStep(f, s, buckets[s]!, incoming[s]!, tables, varOf, at, sink);
      const from = bagStarts[s]!;
      const width = bagStarts[s + 1]! - from;
      if (width === 1) {
        // A table over nothing: one node, a factor of the whole.
        if (table[0] === sink.zero) return sink.zero;
        roots.push(table[0]!);
        continue;
      }
      tables[s] = table;
      let next = n;
      for (let b = from + 1; b < from + width; b++) next = Math.min(next, graph.stepOf(graph.bagItems()[b]!));
      incoming[next]!.push(s);
    }
    return roots.length === 1 ? roots[0]! : sink.andOf(0, roots);
  }

  /**
   * Step s: the nodes of its table (over its bag without its variable, bit j for the bag's
   * variable j + 1), from its bucket's clauses and its incoming tables.
   */
  private eliminateStep(
    f: NarrowFormula,
    s: number,
    clauses: number[],
    inputs: number[],
    tables: Int32Array[],
    varOf: Int32Array,
    at: number,
    sink: NodeSink,
  ): Int32Array {
    const graph = this.graph;
    const items = graph.bagItems();
    const from = graph.bagStarts()[s]!;
    const width = graph.bagStarts()[s + 1]! - from;
    const bitOf = new Map<number, number>();
    for (let b = 0; b < width; b++) bitOf.set(items[from + b]!, b);
    const entries = 1 << width;
    // Bit b set: the bag's variable b is true. A clause fails where its literals' bits all say false.
    const satisfied = new Uint8Array(entries).fill(1);
    for (const c of clauses) {
      let fixed = 0;
      let neg = 0;
      for (let i = f.clauseStart[c]!; i < f.clauseStart[c + 1]!; i++) {
        const l = f.lits[i]!;
        const bit = 1 << bitOf.get(l >> 1)!;
        fixed |= bit;
        if (l & 1) neg |= bit;
      }
      const rest = (entries - 1) & ~fixed;
      for (let sub = rest; ; sub = (sub - 1) & rest) {
        satisfied[neg | sub] = 0;
        if (sub === 0) break;
      }
    }
    // For each incoming table, the bag bits it reads, in its own bit order.
    const inputBits = inputs.map((t) => {
      const tFrom = graph.bagStarts()[t]! + 1;
      const tEnd = graph.bagStarts()[t + 1]!;
      const bits: number[] = [];
      for (let k = tFrom; k < tEnd; k++) bits.push(bitOf.get(items[k]!)!);
      return bits;
    });
    const variable = varOf[at + items[from]!]!;
    const andNodes = this.andNodes;
    const orNodes = this.orNodes;
    const branches = new Int32Array(2);
    const table = new Int32Array(entries >> 1);
    const children: number[] = [];
    for (let rest = 0; rest < entries >> 1; rest++) {
      for (let value = 0; value < 2; value++) {
        const e = (rest << 1) | value;
        branches[value] = sink.zero;
        if (!satisfied[e]) continue;
        children.length = 0;
        let failed = false;
        for (let m = 0; m < inputs.length && !failed; m++) {
          const bits = inputBits[m]!;
          let index = 0;
          for (let j = 0; j < bits.length; j++) index |= ((e >> bits[j]!) & 1) << j;
          const child = tables[inputs[m]!]![index]!;
          if (child === sink.zero) failed = true;
          else children.push(child);
        }
        if (failed) continue;
        children.sort((a, b) => a - b);
        // The literal's id (below 2^21 variables, both signs), then each child in turn.
        let list = 2 * variable + value;
        for (const child of children) list = this.listId(list, child);
        let node = andNodes.get(list);
        if (node === undefined) {
          node = sink.andOf(value ? variable : -variable, children);
          andNodes.set(list, node);
        }
        branches[value] = node;
      }
      const key = pairKey(branches[0]!, branches[1]!);
      let node = orNodes.get(key);
      if (node === undefined) {
        node = sink.plus(sink.plus(sink.zero, branches[0]!), branches[1]!);
        orNodes.set(key, node);
      }
      table[rest] = node;
    }
    return table;
  }

  /** The id of the list `list` followed by `item` (ids from 2^22 on, apart from the literals'). */
  private listId(list: number, item: number): number {
    const key = pairKey(list, item);
    let id = this.listIds.get(key);
    if (id === undefined) {
      id = LIST_IDS_FROM + this.listIds.size;
      this.listIds.set(key, id);
    }
    return id;
  }
}

const LIST_IDS_FROM = 1 << 22;
/** Two ids below 2^26 as one number (exact in a double). */
function pairKey(a: number, b: number): number {
  return a * 67108864 + b;
}
