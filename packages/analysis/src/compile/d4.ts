// The compiled form in the d4 NNF text format, as ddnnife reads it: node lines `o <id> 0` (OR),
// `a <id> 0` (AND), `t <id> 0` (true), `f <id> 0` (false), then edge lines `<parent> <child>
// <literals> 0`, an edge being the conjunction of its literals and its child. Ids count from 1
// in declaration order, the root first; every node is declared before any edge.
//
// The variables are the features, numbered as the CNF export numbers them (encodeModel's
// names). A reduced variable stands for its class of equal feature literals, so its literal
// becomes all of theirs; auxiliary variables were left out when compiling. A free variable gets
// an explicit OR of its two values, so the file is smooth: its count over the features is the
// number of configurations whatever a reader does with variables an OR's branches do not share.

import { AND_KIND, FALSE_KIND, hasTables, OR_KIND, type DecisionDnnf } from './decision-dnnf.ts';

/** The feature literals each reduced variable's positive literal stands for. */
export interface FeatureClasses {
  /** Features of reduced variable r: members[start[r] .. start[r + 1]), signed (a negative one is true when r is false). */
  start: Int32Array;
  members: Int32Array;
}

export function featureClasses(literalOf: Int32Array, featureVars: number, reducedVars: number): FeatureClasses {
  const start = new Int32Array(reducedVars + 2);
  for (let f = 1; f <= featureVars; f++) start[Math.abs(literalOf[f]!) + 1]++;
  for (let r = 0; r <= reducedVars; r++) start[r + 1] += start[r]!;
  const fill = start.slice(0, reducedVars + 1);
  const members = new Int32Array(featureVars);
  for (let f = 1; f <= featureVars; f++) {
    const l = literalOf[f]!;
    members[fill[Math.abs(l)]!++] = l > 0 ? f : -f;
  }
  return { start, members };
}

export function writeD4(form: DecisionDnnf, classes: FeatureClasses): string {
  const { kind, childStart, children, litStart, lits, freeStart, free } = form;
  if (hasTables(form)) throw new Error('the d4 file is written from a form without TABLE nodes');
  const n = form.nodes;
  if (n === 0 || kind[n - 1] === FALSE_KIND) return 'f 1 0\n';
  // Node i (post-order, root last) gets id n - i: the root is 1. Then one true node, then an
  // OR node per free variable occurrence.
  const idOf = (i: number): number => n - i;
  const trueId = n + 1;
  const declarations: string[] = [];
  const edges: string[] = [];
  const featureLits = (l: number): string => {
    const r = Math.abs(l);
    const out: number[] = [];
    for (let k = classes.start[r]!; k < classes.start[r + 1]!; k++) out.push(l > 0 ? classes.members[k]! : -classes.members[k]!);
    return out.join(' ');
  };
  let nextId = trueId + 1;
  const freeDeclarations: string[] = [];
  for (let i = n - 1; i >= 0; i--) {
    const id = idOf(i);
    declarations.push(`${kind[i] === OR_KIND ? 'o' : 'a'} ${id} 0`);
    for (let k = childStart[i]!; k < childStart[i + 1]!; k++) edges.push(`${id} ${idOf(children[k]!)} 0`);
    if (kind[i] !== AND_KIND) continue;
    // The node's literals on one edge to the true node; an AND of nothing (true) gets it too.
    const edge: (number | string)[] = [id, trueId];
    for (let k = litStart[i]!; k < litStart[i + 1]!; k++) edge.push(featureLits(lits[k]!));
    if (edge.length > 2 || childStart[i] === childStart[i + 1]) edges.push([...edge, 0].join(' '));
    for (let k = freeStart[i]!; k < freeStart[i + 1]!; k++) {
      const orId = nextId++;
      freeDeclarations.push(`o ${orId} 0`);
      edges.push(`${id} ${orId} 0`);
      edges.push(`${orId} ${trueId} ${featureLits(free[k]!)} 0`);
      edges.push(`${orId} ${trueId} ${featureLits(-free[k]!)} 0`);
    }
  }
  // Joined, not spread into push: fm3.uvl has more free variable occurrences than a call takes arguments.
  return [...declarations, `t ${trueId} 0`].join('\n') + '\n' + (freeDeclarations.length > 0 ? freeDeclarations.join('\n') + '\n' : '') + edges.join('\n') + '\n';
}
