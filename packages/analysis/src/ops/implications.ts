// Equivalences that the binary clauses alone prove. A clause (a | b) is the implications
// !a -> b and !b -> a; literals in one strongly connected component of that graph imply each
// other, so their variables are equal (or opposite) in every model. Feature models are full of
// them: a mandatory child and its parent, `A <=> B`, an alternative of two whose other child is
// dead. Clauses are first reduced by the known fixed values (the backbone), which turns longer
// clauses into binary ones.

/** Literal index of a DIMACS literal: 2v for v, 2v + 1 for -v. */
const index = (lit: number): number => (lit > 0 ? 2 * lit : -2 * lit + 1);

/**
 * Per variable, the component of its positive literal (equal numbers: equal variables in every
 * model). `fixed[v]` is 1 or -1 for a variable with a known value, 0 otherwise.
 */
export function binaryEquivalenceClasses(numVars: number, clauses: Iterable<ArrayLike<number>>, fixed: Int8Array): Int32Array {
  const size = 2 * numVars + 2;
  const edges: number[][] = Array.from({ length: size }, () => []);
  const reduced: number[] = [];
  for (const clause of clauses) {
    reduced.length = 0;
    let satisfied = false;
    for (let i = 0; i < clause.length && !satisfied; i++) {
      const lit = clause[i]!;
      const value = fixed[Math.abs(lit)] ?? 0;
      if (value === 0) reduced.push(lit);
      else if ((value > 0) === (lit > 0)) satisfied = true;
    }
    if (satisfied || reduced.length !== 2) continue;
    const [a, b] = reduced as [number, number];
    edges[index(-a)]!.push(index(b));
    edges[index(-b)]!.push(index(a));
  }
  const component = stronglyConnectedComponents(edges);
  const out = new Int32Array(numVars + 1);
  for (let v = 1; v <= numVars; v++) out[v] = component[2 * v]!;
  return out;
}

/**
 * Tarjan's algorithm on an explicit stack (the implication chains of a large model are deeper
 * than the call stack allows). Returns the component of each node.
 */
function stronglyConnectedComponents(edges: number[][]): Int32Array {
  const n = edges.length;
  const order = new Int32Array(n).fill(-1); // discovery index
  const low = new Int32Array(n);
  const component = new Int32Array(n).fill(-1);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const callNode: number[] = [];
  const callEdge: number[] = [];
  let counter = 0;
  let components = 0;
  for (let start = 0; start < n; start++) {
    if (order[start] !== -1) continue;
    callNode.push(start);
    callEdge.push(0);
    order[start] = low[start] = counter++;
    stack.push(start);
    onStack[start] = 1;
    while (callNode.length > 0) {
      const top = callNode.length - 1;
      const node = callNode[top]!;
      const out = edges[node]!;
      if (callEdge[top]! < out.length) {
        const next = out[callEdge[top]!++]!;
        if (order[next] === -1) {
          order[next] = low[next] = counter++;
          stack.push(next);
          onStack[next] = 1;
          callNode.push(next);
          callEdge.push(0);
        } else if (onStack[next]) {
          low[node] = Math.min(low[node]!, order[next]!);
        }
        continue;
      }
      callNode.pop();
      callEdge.pop();
      if (callNode.length > 0) {
        const parent = callNode[callNode.length - 1]!;
        low[parent] = Math.min(low[parent]!, low[node]!);
      }
      if (low[node] === order[node]) {
        let member: number;
        do {
          member = stack.pop()!;
          onStack[member] = 0;
          component[member] = components;
        } while (member !== node);
        components++;
      }
    }
  }
  return component;
}
