// The first K models of the compiled form, in a fixed order: model i is found top-down by
// unranking, i.e. by reading i as a mixed-radix number: an OR node sends i to its first child
// when i is below that child's count, otherwise i minus that count to the second; an AND node
// takes one bit of i per open free variable, then one digit per child in the base of its count.
// Each model costs one walk of the nodes it passes through, and no model is repeated.

import { OR_KIND, setLiterals, TABLE_KIND, type DecisionDnnf, type FixedValues } from './decision-dnnf.ts';
import { leafTables, leafUnrank } from './narrow-leaf.ts';
import type { BucketTables } from '../count/tree-decomposition.ts';

/** Models 0 .. k-1 (fewer when the root has fewer) as values of the reduced variables (1 true, -1 false). */
export function enumerateReduced(form: DecisionDnnf, fixed: FixedValues, counts: bigint[], k: number): Int8Array[] {
  const total = form.nodes === 0 ? 0n : counts[form.nodes - 1]!;
  const models: Int8Array[] = [];
  const tables = new Map<number, BucketTables>();
  for (let i = 0n; i < total && models.length < k; i++) models.push(unrank(form, fixed, counts, i, tables));
  return models;
}

function unrank(form: DecisionDnnf, fixed: FixedValues, counts: bigint[], index: bigint, tables: Map<number, BucketTables>): Int8Array {
  const { kind, childStart, children, freeStart, free } = form;
  const values = Int8Array.from(fixed);
  const nodes: number[] = [form.nodes - 1];
  const indices: bigint[] = [index];
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    let i = indices.pop()!;
    if (kind[node] === OR_KIND) {
      for (let k = childStart[node]!; k < childStart[node + 1]!; k++) {
        const c = counts[children[k]!]!;
        if (i < c) {
          nodes.push(children[k]!);
          indices.push(i);
          break;
        }
        i -= c;
      }
      continue;
    }
    if (kind[node] === TABLE_KIND) {
      // A narrow component's models in its own order (narrow-leaf.ts), exact tables kept for the next models.
      const leaf = form.leaves[form.leafOf[node]!]!;
      let t = tables.get(node);
      if (t === undefined) tables.set(node, (t = leafTables(leaf, fixed, 'max')));
      const local = new Int8Array(leaf.vars.length);
      for (let j = 0; j < local.length; j++) local[j] = values[leaf.vars[j]!]!;
      leafUnrank(t, i, local);
      for (let j = 0; j < local.length; j++) values[leaf.vars[j]!] = local[j]!;
      continue;
    }
    setLiterals(form, node, values);
    for (let k = freeStart[node]!; k < freeStart[node + 1]!; k++) {
      const v = free[k]!;
      if (values[v] !== 0) continue;
      values[v] = i & 1n ? 1 : -1;
      i >>= 1n;
    }
    for (let k = childStart[node]!; k < childStart[node + 1]!; k++) {
      const c = counts[children[k]!]!;
      nodes.push(children[k]!);
      indices.push(i % c);
      i /= c;
    }
  }
  return values;
}
