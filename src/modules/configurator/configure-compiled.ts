// A configure step on the compiled form (extensions section 6, "Semantics"): one commonality
// pass under the decisions gives every feature's state (in all, none or some of the remaining
// configurations) and the remaining count. Conflicts and "why" are minimal subsets of the
// decisions found by deletion, one count per decision.
import type { CompiledModel } from '../../../packages/analysis/src/index.ts';

export type FeatureState = 'selected' | 'deselected' | 'forced' | 'excluded' | 'open';

/** A decision or a `why` naming no feature of the model: a bad value (400). */
export class UnknownFeature extends Error {
  constructor(name: string) {
    super(`Unknown feature: ${name}`);
  }
}

interface Request {
  selected: string[];
  deselected: string[];
  why?: string;
}

/** A decision as a signed feature variable, and its text (`selected A`). */
interface Decision { literal: number; text: string }

function decisionsOf(compiled: CompiledModel, request: Request): Decision[] {
  const variable = (name: string): number => {
    const v = compiled.variableOf(name);
    if (v === undefined) throw new UnknownFeature(name);
    return v;
  };
  return [
    ...request.selected.map((name) => ({ literal: variable(name), text: `selected ${name}` })),
    ...request.deselected.map((name) => ({ literal: -variable(name), text: `deselected ${name}` })),
  ];
}

/** A smallest-by-deletion subset of `decisions` that with `extra` has no configuration. */
function minimalUnsatisfiable(compiled: CompiledModel, decisions: Decision[], extra: number[]): Decision[] {
  let kept = [...decisions];
  for (const d of decisions) {
    const without = kept.filter((k) => k !== d);
    if (compiled.count([...without.map((k) => k.literal), ...extra]) === 0n) kept = without;
  }
  return kept;
}

export function configureCompiled(compiled: CompiledModel, request: Request) {
  const decisions = decisionsOf(compiled, request);
  const scope = { boolean_only: compiled.ignoredConstraints === 0, ignored_constraints: compiled.ignoredConstraints };
  const literals = decisions.map((d) => d.literal);
  const contradictory = literals.some((l) => literals.includes(-l));
  const { configurations, counts } = contradictory ? { configurations: 0n, counts: [] } : compiled.commonality(literals);
  if (configurations === 0n) {
    const conflict = minimalUnsatisfiable(compiled, decisions, []).map((d) => d.text);
    return { consistent: false, conflict: { decisions: conflict, constraints: [] as string[] }, ...scope };
  }
  const decided = new Map(decisions.map((d) => [Math.abs(d.literal), d.literal > 0 ? 'selected' : 'deselected'] as const));
  const features: Record<string, FeatureState> = {};
  compiled.names.forEach((name, i) => {
    const c = counts[i]!;
    features[name] = decided.get(i + 1) ?? (c === configurations ? 'forced' : c === 0n ? 'excluded' : 'open');
  });
  const answer = { consistent: true, remaining: configurations.toString(), features, ...scope };
  if (request.why === undefined) return answer;
  const v = compiled.variableOf(request.why);
  if (v === undefined) throw new UnknownFeature(request.why);
  const state = features[request.why]!;
  let why: string[] | null = null;
  if (state === 'forced' || state === 'excluded') {
    // The state follows from the decisions that, with the opposite state, leave no configuration.
    const opposite = state === 'forced' ? -v : v;
    const reasons = minimalUnsatisfiable(compiled, decisions, [opposite]).map((d) => d.text);
    why = reasons.length > 0 ? reasons : ['the model (tree and constraints)'];
  }
  return { ...answer, why: { feature: request.why, state, why } };
}
