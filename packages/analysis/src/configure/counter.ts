// The count of configurations under decisions for the configurator: the exact counter on the
// model's CNF with the decisions as units (its default), or the compiled form, which compiles
// once and then answers each step in one pass over its nodes.

import type { UvlModel } from '../../../uvl/src/index.ts';
import { countCnf } from '../count/counter.ts';
import type { Deadline } from '../deadline.ts';
import { compileModel } from '../compile/compiled-model.ts';
import { counterEncoding, modelClauses, type EncodedModel } from '../encode.ts';

/** Configurations that have every signed feature literal of `assumptions`; null past the deadline. */
export type ConfigurationCounter = (assumptions: number[], deadline: Deadline) => bigint | null;

/** The exact counter over the model; `satEncoding` is reused when its encoding suits the counter. */
export function exactCounter(model: UvlModel, satEncoding: EncodedModel, text?: string): ConfigurationCounter {
  const enc = counterEncoding(model, satEncoding, text);
  const clauses = modelClauses(enc);
  // Feature variables are numbered alike in both encodings (features first), so literals carry over.
  return (assumptions, deadline) => countCnf(enc.numVars, [...clauses, ...assumptions.map((l) => [l])], deadline, enc.definitions);
}

/**
 * The count from the model's compiled form, compiled now within `compileDeadline`. A model that
 * cannot be compiled in time still configures: its counter answers null (the remaining count
 * timed out), and the propagation, which needs no count, is unaffected. Both number the
 * features as the CNF export does, so the configurator's literals are the compiled form's.
 */
export function compiledCounter(model: UvlModel, text: string | undefined, compileDeadline: Deadline): ConfigurationCounter {
  const compiled = compileModel(model, { text, deadline: compileDeadline });
  if (compiled === null) return () => null;
  return (assumptions) => compiled.count(assumptions);
}
