// A decision order for the counter from the primal graph of the CNF (variables adjacent when
// they share a clause).

/**
 * Ranks variables by a min-degree elimination of the primal graph (variables adjacent when they
 * share a clause): the variable eliminated last ranks highest. Branching on high ranks first
 * decides the separators of a tree decomposition before what they separate, so components
 * split early and stay few (the idea behind tree-decomposition-guided counters). Fill-in is
 * capped: past the budget the remaining variables keep their order by degree. The width is the
 * largest neighbourhood eliminated (that of a tree decomposition), null past the budget.
 */
export function eliminationRanks(numVars: number, binaries: number[], longs: number[][]): { rank: Int32Array; width: number | null } {
  const adj: Set<number>[] = Array.from({ length: numVars + 1 }, () => new Set<number>());
  const link = (a: number, b: number) => {
    if (a === b) return;
    adj[a]!.add(b);
    adj[b]!.add(a);
  };
  for (let i = 0; i < binaries.length; i += 2) link(binaries[i]! >> 1, binaries[i + 1]! >> 1);
  for (const c of longs) for (let i = 0; i < c.length; i++) for (let j = i + 1; j < c.length; j++) link(c[i]! >> 1, c[j]! >> 1);
  const rank = new Int32Array(numVars + 1);
  const eliminated = new Uint8Array(numVars + 1);
  // Binary heap of (degree, variable) with lazy deletion.
  const heapDeg: number[] = [];
  const heapVar: number[] = [];
  const push = (d: number, v: number) => {
    let i = heapDeg.length;
    heapDeg.push(d);
    heapVar.push(v);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (heapDeg[p]! <= d) break;
      heapDeg[i] = heapDeg[p]!;
      heapVar[i] = heapVar[p]!;
      i = p;
    }
    heapDeg[i] = d;
    heapVar[i] = v;
  };
  const pop = (): [number, number] => {
    const d0 = heapDeg[0]!;
    const v0 = heapVar[0]!;
    const d = heapDeg.pop()!;
    const v = heapVar.pop()!;
    if (heapDeg.length > 0) {
      let i = 0;
      const n = heapDeg.length;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && heapDeg[c + 1]! < heapDeg[c]!) c++;
        if (heapDeg[c]! >= d) break;
        heapDeg[i] = heapDeg[c]!;
        heapVar[i] = heapVar[c]!;
        i = c;
      }
      heapDeg[i] = d;
      heapVar[i] = v;
    }
    return [d0, v0];
  };
  for (let v = 1; v <= numVars; v++) push(adj[v]!.size, v);
  let fillBudget = 4_000_000;
  let width = 0;
  let position = 0;
  while (heapDeg.length > 0) {
    const [d, v] = pop();
    if (eliminated[v] || d !== adj[v]!.size) {
      if (!eliminated[v]) push(adj[v]!.size, v);
      continue;
    }
    eliminated[v] = 1;
    rank[v] = ++position;
    width = Math.max(width, adj[v]!.size);
    const nbrs = [...adj[v]!];
    for (const u of nbrs) adj[u]!.delete(v);
    if (fillBudget > 0) {
      fillBudget -= nbrs.length * nbrs.length;
      for (let i = 0; i < nbrs.length; i++) for (let j = i + 1; j < nbrs.length; j++) link(nbrs[i]!, nbrs[j]!);
    }
    for (const u of nbrs) push(adj[u]!.size, u);
    adj[v]!.clear();
  }
  // Past the fill budget the order is by degree alone and its width means nothing.
  return { rank, width: fillBudget > 0 ? width : null };
}
