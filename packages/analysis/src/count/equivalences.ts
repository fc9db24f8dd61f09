// Equivalent literals before counting: binary clauses that imply each other in a cycle (a -> b
// -> a, a mandatory child and its parent, a `<=>` between two features, a Tseitin variable and
// the literal it names) make their literals equal in every model. Each class keeps one variable
// (its smallest) and the others are rewritten to it, so the counter works on fewer variables and
// a primal graph without those parallel paths (fm3.uvl: elimination width about 120 before).
// The models of the reduced formula and of the original correspond one to one, since every
// removed variable is a function of its class's kept one: the count is the same.

export interface ReducedCnf {
  numVars: number;
  clauses: number[][];
  definitions: number[][];
  /** The reduced literal (DIMACS) each input variable equals; absent when nothing was merged (the identity). */
  literalOf?: Int32Array;
}

/**
 * The formula with every class of equivalent literals (strongly connected components of the
 * binary implication graph) rewritten to one variable and the variables renumbered 1..m in their
 * order, or `null` when a literal is equivalent to its negation (no model).
 *
 * A definition keeps its role when the variable it defines (its largest) is kept: the kept
 * variable of a class is its smallest, so after rewriting it is still the clause's largest.
 * Otherwise it becomes a plain clause (the variable is now the kept one's copy, not a definition).
 */
export function mergeEquivalentLiterals(numVars: number, clauses: number[][], definitions: number[][]): ReducedCnf | null {
  // Literal l (DIMACS) as node: 2v for v, 2v + 1 for -v.
  const node = (l: number) => (l > 0 ? l << 1 : ((-l) << 1) | 1);
  const size = 2 * numVars + 2;
  // A literal outside 1..numVars is the counter's error to report: the formula is left as it is.
  for (const c of clauses) for (const l of c) if (!Number.isInteger(l) || l === 0 || Math.abs(l) > numVars) return { numVars, clauses, definitions };
  const heads: number[] = [];
  const tails: number[] = [];
  for (const c of clauses) {
    if (c.length !== 2 || c[0] === c[1] || c[0] === -c[1]!) continue;
    // (a or b): not-a implies b, not-b implies a.
    heads.push(node(c[0]!) ^ 1, node(c[1]!) ^ 1);
    tails.push(node(c[1]!), node(c[0]!));
  }
  if (heads.length === 0) return { numVars, clauses, definitions };
  const component = graphComponents(size, heads, tails);
  // The kept literal of each component: the one of the smallest variable.
  const keptOf = new Int32Array(size).fill(-1);
  for (let n = 2; n < size; n++) {
    const k = component[n]!;
    if (keptOf[k] === -1 || (n >> 1) < (keptOf[k]! >> 1)) keptOf[k] = n;
  }
  const newNumber = new Int32Array(numVars + 1);
  let kept = 0;
  let merged = 0;
  for (let v = 1; v <= numVars; v++) {
    if (component[2 * v] === component[2 * v + 1]) return null;
    if (keptOf[component[2 * v]!] === 2 * v) newNumber[v] = ++kept;
    else merged++;
  }
  if (merged === 0) return { numVars, clauses, definitions };
  const rewrite = (l: number): number => {
    const n = keptOf[component[node(l)]!]!;
    const v = newNumber[n >> 1]!;
    return n & 1 ? -v : v;
  };

  const definitionSet = new Set(definitions);
  const out: number[][] = [];
  const outDefinitions: number[][] = [];
  const seen = new Set<number>();
  for (const c of clauses) {
    seen.clear();
    let tautology = false;
    const lits: number[] = [];
    for (const l of c) {
      const r = rewrite(l);
      if (seen.has(-r)) tautology = true;
      if (!seen.has(r)) {
        seen.add(r);
        lits.push(r);
      }
    }
    if (tautology) continue;
    out.push(lits);
    if (definitionSet.has(c)) {
      const top = c.reduce((m, l) => Math.max(m, Math.abs(l)), 0);
      if (newNumber[top]! > 0) outDefinitions.push(lits);
    }
  }
  const literalOf = new Int32Array(numVars + 1);
  for (let v = 1; v <= numVars; v++) literalOf[v] = rewrite(v);
  return { numVars: kept, clauses: out, definitions: outDefinitions, literalOf };
}

/** The strongly connected components of the graph of `size` nodes with edges heads[i] -> tails[i]. */
export function graphComponents(size: number, heads: number[], tails: number[]): Int32Array {
  // Compressed rows: the edges of node n are edges[start[n]] .. edges[start[n + 1] - 1].
  const start = new Int32Array(size + 1);
  for (const h of heads) start[h + 1]++;
  for (let i = 0; i < size; i++) start[i + 1] += start[i]!;
  const fill = start.slice(0, size);
  const edges = new Int32Array(heads.length);
  for (let i = 0; i < heads.length; i++) edges[fill[heads[i]!]!++] = tails[i]!;
  return sccs(size, start, edges);
}

/** Strongly connected components (Tarjan's algorithm on an explicit stack): a component id per node. */
function sccs(size: number, start: Int32Array, edges: Int32Array): Int32Array {
  const index = new Int32Array(size).fill(-1);
  const low = new Int32Array(size);
  const component = new Int32Array(size).fill(-1);
  const onStack = new Uint8Array(size);
  const stack: number[] = [];
  const callNode: number[] = [];
  const callEdge: number[] = [];
  let counter = 0;
  let components = 0;
  for (let root = 0; root < size; root++) {
    if (index[root] !== -1) continue;
    callNode.push(root);
    callEdge.push(start[root]!);
    index[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (callNode.length > 0) {
      const top = callNode.length - 1;
      const v = callNode[top]!;
      const e = callEdge[top]!;
      if (e < start[v + 1]!) {
        callEdge[top] = e + 1;
        const w = edges[e]!;
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          callNode.push(w);
          callEdge.push(start[w]!);
        } else if (onStack[w] && index[w]! < low[v]!) {
          low[v] = index[w]!;
        }
        continue;
      }
      callNode.pop();
      callEdge.pop();
      if (callNode.length > 0) {
        const parent = callNode[callNode.length - 1]!;
        if (low[v]! < low[parent]!) low[parent] = low[v]!;
      }
      if (low[v] === index[v]) {
        let w: number;
        do {
          w = stack.pop()!;
          onStack[w] = 0;
          component[w] = components;
        } while (w !== v);
        components++;
      }
    }
  }
  return component;
}
