// compileModel for the analysis, which has encoded the model already: the same compiled form,
// plus the map from feature variables to reduced literals that CompiledModel keeps to itself and
// the analysis's own passes over the form need (compile/form-passes.ts, ops/compiled-anomalies.ts).

import { traceCnf } from '../count/counter.ts';
import type { Deadline } from '../deadline.ts';
import type { EncodedModel } from '../encode.ts';
import { CompiledModel } from './compiled-model.ts';
import { DnnfBuilder } from './dnnf-builder.ts';

export interface CompiledEncoding {
  compiled: CompiledModel;
  /** The reduced literal each feature variable equals (index 1..features), as in CompiledModel. */
  literalOf: Int32Array;
}

/**
 * The compiled form of an encoding in the counter's form (alternative groups over PAIRWISE_LIMIT
 * as counters, as compileModel encodes), or null when the deadline passed first.
 */
export function compileEncoded(enc: EncodedModel, deadline: Deadline): CompiledEncoding | null {
  // The clauses in compileModel's order, so that both give the same form.
  const clauses: number[][] = [...enc.tree, ...enc.definitions];
  for (const k of enc.constraints) clauses.push(...k.clauses);
  let builder: DnnfBuilder | undefined;
  const traced = traceCnf(enc.numVars, clauses, deadline, enc.definitions, (literalOf, reducedVars) => {
    const keep = new Uint8Array(reducedVars + 1);
    for (let f = 1; f <= enc.featureVars; f++) keep[Math.abs(literalOf[f]!)] = 1;
    builder = new DnnfBuilder(keep);
    return builder;
  });
  if (traced.value === null) return null;
  const form = builder!.finish(traced.value, traced.reducedVars);
  return { compiled: new CompiledModel(enc.names, form, traced.literalOf, enc.ignored), literalOf: traced.literalOf };
}
