// False-optional features (extensions section 1): not the root, not a mandatory child, yet
// selected in every configuration in which the parent is. A feature is tested by solving with
// its parent on and itself off; every model found clears the other candidates it refutes.

import type { Deadline } from '../deadline.ts';
import type { EncodedModel } from '../encode.ts';
import type { SatSolver } from '../sat/solver.ts';
import type { TreeIndex } from './tree-index.ts';

/** Indices of the flat tree nodes that are false-optional, or null past the deadline. */
export function falseOptionalNodes(
  solver: SatSolver,
  enc: EncodedModel,
  tree: TreeIndex,
  backbone: Int8Array,
  deadline: Deadline,
  known: Int8Array[] = [],
  onModel?: (model: Int8Array) => void,
): number[] | null {
  const { features } = enc.flat;
  const candidates = falseOptionalCandidates(enc, backbone);
  const open = new Uint8Array(features.length);
  for (const i of candidates) open[i] = 1;
  const refute = (model: Int8Array) => {
    for (const i of candidates) {
      if (open[i] && model[enc.nodeVar[features[i]!.parent]!]! > 0 && model[enc.nodeVar[i]!]! < 0) open[i] = 0;
    }
  };
  for (const model of known) refute(model);
  const out: number[] = [];
  for (const i of candidates) {
    if (!open[i]) continue;
    const fv = enc.nodeVar[i]!;
    if (backbone[fv]! > 0) {
      out.push(i);
      continue;
    }
    // Open candidates off under a selected parent: such a model refutes them too.
    tree.newRound();
    for (const k of candidates) if (open[k]) tree.preferSelected(enc.nodeVar[features[k]!.parent]!, solver);
    for (const k of candidates) if (open[k]) solver.setPhase(enc.nodeVar[k]!, false);
    const status = solver.solve([enc.nodeVar[features[i]!.parent]!, -fv], deadline);
    if (status === 'timeout') return null;
    if (status === 'unsat') {
      out.push(i);
      continue;
    }
    const model = solver.model();
    onModel?.(model);
    refute(model);
  }
  return out;
}

/**
 * The flat tree nodes that may be false-optional: not the root, not a mandatory child, not the
 * parent's own variable, neither it nor its parent dead. (Its variable implies its parent's.)
 */
export function falseOptionalCandidates(enc: EncodedModel, backbone: Int8Array): number[] {
  const { features } = enc.flat;
  const candidates: number[] = [];
  for (let i = 1; i < features.length; i++) {
    const f = features[i]!;
    const relation = features[f.parent]!.relations.find((r) => r.children.includes(i))!;
    if (relation.children.length === 1 && relation.min >= 1) continue; // a mandatory child
    const fv = enc.nodeVar[i]!;
    const pv = enc.nodeVar[f.parent]!;
    if (fv === pv) continue; // a child named as its parent is the same variable
    if (backbone[pv]! < 0 || backbone[fv]! < 0) continue; // dead: never selected with its parent
    candidates.push(i);
  }
  return candidates;
}
