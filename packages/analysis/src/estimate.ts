// The approximate count of a model's configurations (extensions section 6a): ApproxMC over the
// SAT encoding, whose auxiliary variables are functions of the features, hashed and told apart
// on an independent support of the variant features (a core or dead feature has one value in
// every configuration, and a feature that is a function of the others adds no configuration).

import { freeVariables } from './count/approx-cell.ts';
import { approxCount, type ApproxCount, type ApproxOptions } from './count/approx.ts';
import { independentSupport } from './count/independent-support.ts';
import { Deadline } from './deadline.ts';
import { modelClauses, type EncodedModel } from './encode.ts';
import type { ConfigurationsEstimate } from './types.ts';

export interface EstimateOptions extends ApproxOptions {
  /** Per feature variable: 1 core, -1 dead, 0 variant (analysis order); without it every feature is hashed. */
  backbone?: Int8Array;
}

/**
 * The estimate, or null when the deadline passed first. The variant features are narrowed to an
 * independent support first (at most a fifth of the budget), leaves first: the XORs' pivots are
 * taken in this order, and a leaf set by its row forces little else (berkeleydb: 0.5-1.2 s in
 * three runs, against 3.9-4.9 s in two with the root first; loaded 2-core machine).
 */
export function estimateConfigurations(enc: EncodedModel, options: EstimateOptions = {}): ApproxCount | null {
  const deadline = options.deadline ?? Deadline.none();
  const variant: number[] = [];
  for (let v = enc.featureVars; v >= 1; v--) if (!options.backbone || options.backbone[v] === 0) variant.push(v);
  const clauses = modelClauses(enc);
  const narrowing = Deadline.after(deadline.remainingMs() / 5);
  // A variant free variable (count/approx-cell.ts) flips alone in some configuration: no other
  // variable determines it, so it is in every independent support and needs no check.
  const known = new Set(freeVariables(enc.numVars, clauses, variant));
  const support = independentSupport(enc.numVars, clauses, variant, { deadline: narrowing, featureVars: enc.featureVars, known });
  return approxCount(enc.numVars, clauses, support, { ...options, deadline, featureVars: enc.featureVars });
}

/** The result's `configurations_estimate` field. */
export function estimateField(a: ApproxCount): ConfigurationsEstimate {
  return { value: a.value.toString(), log10: Math.round(a.log10 * 100) / 100, epsilon: a.epsilon, delta: a.delta, method: a.method };
}
