// The backbone, the false-optional features and the atomic sets from the compiled form (one
// compilation also gives the count), for models that compile within the budget; the SAT-based
// operations (backbone.ts, false-optional.ts, atomic-sets.ts) answer the same questions for the
// others. Each answer is exact:
// - core: commonality = count; dead: commonality 0;
// - false-optional: a candidate f with parent p (f implies p) is forced with p exactly when
//   #(p & !f) = comm(p) - comm(f) is 0;
// - atomic sets: features selected together have equal weighted sums (form-passes.ts), which
//   nominate candidates; a candidate is the pivot of its class's equal when the pivot on forces
//   it on and the pivot off forces it off, which valuesUnder tells for 16 pivots in one pass.

import type { CompiledEncoding } from '../compile/compiled-model.ts';
import { LANES, valuesUnder, weightedTrueSums, type LaneValues } from '../compile/form-passes.ts';
import type { Deadline } from '../deadline.ts';
import type { EncodedModel } from '../encode.ts';
import { xorshift32 } from './atomic-sets.ts';
import { falseOptionalCandidates } from './false-optional.ts';

/** Two primes below 2^26 (form-passes.ts): a false candidate needs a collision in both. */
const PRIMES = [67108859, 67108837];

/** Per variable (1..features, array sized numVars + 1): 1 core, -1 dead, 0 variant (as solverBackbone's). */
export function compiledBackbone(commonality: readonly bigint[], configurations: bigint, numVars: number): Int8Array {
  const value = new Int8Array(numVars + 1);
  commonality.forEach((c, i) => {
    if (c === configurations) value[i + 1] = 1;
    else if (c === 0n) value[i + 1] = -1;
  });
  return value;
}

/** The flat tree nodes that are false-optional (as falseOptionalNodes gives them). */
export function compiledFalseOptional(enc: EncodedModel, commonality: readonly bigint[], backbone: Int8Array): number[] {
  const { features } = enc.flat;
  return falseOptionalCandidates(enc, backbone).filter((i) => commonality[enc.nodeVar[i]! - 1] === commonality[enc.nodeVar[features[i]!.parent]! - 1]);
}

/** Atomic sets of feature variables (as atomicSets gives them, up to order), or null past the deadline. */
export function compiledAtomicSets(
  { compiled, literalOf }: CompiledEncoding,
  backbone: Int8Array,
  deadline: Deadline,
): number[][] | null {
  const form = compiled.form;
  const features = compiled.features;
  const done: number[][] = [];
  const core: number[] = [];
  for (let v = 1; v <= features; v++) if (backbone[v]! > 0) core.push(v);
  if (core.length > 1) done.push(core);

  const random = xorshift32(0x2545f491);
  const sums = PRIMES.map((p) => {
    const { total, trueSum } = weightedTrueSums(form, p, random);
    return (v: number): number => {
      const l = literalOf[v]!;
      return l > 0 ? trueSum[l]! : (total - trueSum[-l]! + p) % p;
    };
  });
  // Both residues in one exact integer (below 2^52).
  const classes = new Map<number, number[]>();
  for (let v = 1; v <= features; v++) {
    if (backbone[v] !== 0) continue;
    const key = sums[0]!(v) * 2 ** 26 + sums[1]!(v);
    const members = classes.get(key);
    if (members) members.push(v);
    else classes.set(key, [v]);
  }

  // Classes whose members all stand for one reduced literal are sets as they are (the counter
  // merged them: binary equivalences); the others are settled a pivot at a time, 16 pivots a pass.
  const open: number[][] = [];
  for (const members of classes.values()) {
    if (members.length < 2) continue;
    if (members.every((v) => literalOf[v] === literalOf[members[0]!])) done.push(members);
    else open.push(members);
  }
  // Whether feature v has the value in every model of the lane (a feature on a negative literal
  // is true when its reduced variable is false).
  const forced = ({ canBeTrue, canBeFalse }: LaneValues, lane: number, v: number, on: boolean): boolean => {
    const l = literalOf[v]!;
    return (((l > 0) === on ? canBeFalse : canBeTrue)[Math.abs(l)]! & (1 << lane)) === 0;
  };
  while (open.length > 0) {
    if (deadline.expired()) return null;
    // Lanes 2i and 2i + 1: the pivot of class i on, off.
    const batch = open.splice(0, LANES / 2);
    const values = valuesUnder(form, batch.flatMap((members) => [literalOf[members[0]!]!, -literalOf[members[0]!]!]));
    batch.forEach((members, i) => {
      const [pivot, ...rest] = members as [number, ...number[]];
      const equal = rest.filter((v) => literalOf[v] === literalOf[pivot] || (forced(values, 2 * i, v, true) && forced(values, 2 * i + 1, v, false)));
      if (equal.length > 0) done.push([pivot, ...equal]);
      const taken = new Set(equal);
      const left = rest.filter((v) => !taken.has(v));
      if (left.length > 1) open.push(left);
    });
  }
  return done;
}
