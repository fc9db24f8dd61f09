// The approximate count of a model's configurations (extensions section 6a): ApproxMC over the
// SAT encoding, whose auxiliary variables are functions of the features, hashed and told apart
// on the variant features only (a core or dead feature has one value in every configuration, so
// leaving it out changes nothing but the length of every XOR).

import { approxCount, type ApproxCount, type ApproxOptions } from './count/approx.ts';
import { modelClauses, type EncodedModel } from './encode.ts';
import type { ConfigurationsEstimate } from './types.ts';

export interface EstimateOptions extends ApproxOptions {
  /** Per feature variable: 1 core, -1 dead, 0 variant (analysis order); without it every feature is hashed. */
  backbone?: Int8Array;
}

/** The estimate, or null when the deadline passed first. */
export function estimateConfigurations(enc: EncodedModel, options: EstimateOptions = {}): ApproxCount | null {
  const support: number[] = [];
  for (let v = 1; v <= enc.featureVars; v++) if (!options.backbone || options.backbone[v] === 0) support.push(v);
  return approxCount(enc.numVars, modelClauses(enc), support, { ...options, featureVars: enc.featureVars });
}

/** The result's `configurations_estimate` field. */
export function estimateField(a: ApproxCount): ConfigurationsEstimate {
  return { value: a.value.toString(), log10: Math.round(a.log10 * 100) / 100, epsilon: a.epsilon, delta: a.delta, method: a.method };
}
