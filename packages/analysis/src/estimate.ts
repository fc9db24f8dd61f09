// The approximate count of a model's configurations (extensions section 6a): ApproxMC over the
// SAT encoding, whose auxiliary variables are functions of the features, hashed and told apart
// on an independent support of the variant features (a core or dead feature has one value in
// every configuration, and a feature that is a function of the others adds no configuration).

import { freeVariables } from './count/approx-cell.ts';
import { approxCount, DEFAULT_DELTA, DEFAULT_EPSILON, type ApproxCount, type ApproxOptions } from './count/approx.ts';
import { combine, factorFormula, type FactorOptions } from './count/approx-factor.ts';
import { independentSupport } from './count/independent-support.ts';
import { Deadline } from './deadline.ts';
import { modelClauses, type EncodedModel } from './encode.ts';
import type { ConfigurationsEstimate } from './types.ts';

export interface EstimateOptions extends ApproxOptions, Pick<FactorOptions, 'componentMs' | 'exactMaxVars'> {
  /** Per feature variable: 1 core, -1 dead, 0 variant (analysis order); without it every feature is hashed. */
  backbone?: Int8Array;
  /**
   * Components after the backbone counted exactly where the exact counter finishes them
   * (count/approx-factor.ts), only the rest hashed: on unless false. A model that splits into
   * countable components then gets its exact count, in the estimate's shape with its method
   * saying so (automotive2_4: 2.9 s, against no answer within 5 minutes with everything hashed).
   * False hashes everything: the tests of the hashing itself.
   */
  factor?: boolean;
}

/**
 * The estimate, or null when the deadline passed first. With `factor` the formula is first split
 * into components (count/approx-factor.ts): those the exact counter finishes quickly are counted
 * exactly, and only the rest is hashed. Its variant features are narrowed to an independent
 * support first (at most a fifth of the budget), leaves first: the XORs' pivots are taken in
 * this order, and a leaf set by its row forces little else (berkeleydb: 0.5-1.2 s in three runs,
 * against 3.9-4.9 s in two with the root first; loaded 2-core machine).
 */
export function estimateConfigurations(enc: EncodedModel, options: EstimateOptions = {}): ApproxCount | null {
  const deadline = options.deadline ?? Deadline.none();
  const epsilon = options.epsilon ?? DEFAULT_EPSILON;
  const delta = options.delta ?? DEFAULT_DELTA;
  const clauses = modelClauses(enc);
  const withBackbone = [...clauses];
  if (options.backbone) for (let v = 1; v <= enc.featureVars; v++) if (options.backbone[v] !== 0) withBackbone.push([options.backbone[v]! * v]);
  const features = Array.from({ length: enc.featureVars }, (_, i) => i + 1);
  // Auxiliary variables are functions of the features (encode.ts): factorFormula's precondition.
  const factored = options.factor === false
    ? { exact: 1n, rest: clauses, restSupport: features.filter((v) => !options.backbone || options.backbone[v] === 0), components: 1, exactComponents: 0, isolated: 0 }
    : factorFormula(enc.numVars, withBackbone, features, { deadline, componentMs: options.componentMs, exactMaxVars: options.exactMaxVars });
  if (factored === null) return null;
  if (factored.rest.length === 0 || factored.exact === 0n) return combine(factored, null, epsilon, delta);
  const inRest = new Uint8Array(enc.numVars + 1);
  for (const v of factored.restSupport) inRest[v] = 1;
  const variant: number[] = [];
  for (let v = enc.featureVars; v >= 1; v--) if (inRest[v]) variant.push(v);
  const narrowing = Deadline.after(deadline.remainingMs() / 5);
  // A variant free variable (count/approx-cell.ts) flips alone in some configuration: no other
  // variable determines it, so it is in every independent support and needs no check.
  const known = new Set(freeVariables(enc.numVars, factored.rest, variant));
  const support = independentSupport(enc.numVars, factored.rest, variant, { deadline: narrowing, featureVars: enc.featureVars, known });
  const rest = approxCount(enc.numVars, factored.rest, support, { ...options, deadline, featureVars: enc.featureVars });
  return combine(factored, rest, epsilon, delta);
}

/** The result's `configurations_estimate` field. */
export function estimateField(a: ApproxCount): ConfigurationsEstimate {
  return { value: a.value.toString(), log10: Math.round(a.log10 * 100) / 100, epsilon: a.epsilon, delta: a.delta, method: a.method };
}
