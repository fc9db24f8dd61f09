// The count of configurations under decisions that the configurator uses unless given another
// (a compiled form, later): the exact counter on the model's CNF with the decisions as units.

import type { UvlModel } from '../../../uvl/src/index.ts';
import { countCnf } from '../count/counter.ts';
import type { Deadline } from '../deadline.ts';
import { PAIRWISE_LIMIT, encodeModel, type EncodedModel } from '../encode.ts';

/** Configurations that have every signed feature literal of `assumptions`; null past the deadline. */
export type ConfigurationCounter = (assumptions: number[], deadline: Deadline) => bigint | null;

/** The exact counter over the model; `satEncoding` is reused when its encoding suits the counter. */
export function exactCounter(model: UvlModel, satEncoding: EncodedModel, text?: string): ConfigurationCounter {
  // The counter wants linear counters for wide alternative groups (countConfigurations does the same).
  const enc = satEncoding.widestPairwiseGroup > PAIRWISE_LIMIT ? encodeModel(model, text) : satEncoding;
  const clauses: number[][] = [...enc.tree, ...enc.definitions];
  for (const k of enc.constraints) clauses.push(...k.clauses);
  // Feature variables are numbered alike in both encodings (features first), so literals carry over.
  return (assumptions, deadline) => countCnf(enc.numVars, [...clauses, ...assumptions.map((l) => [l])], deadline, enc.definitions);
}
