// Atomic sets (extensions section 1): maximal sets of at least two features selected together
// in every configuration. Dead features are left out: they are reported as dead, and "together"
// says nothing of features that are never selected.
//
// What is known without the solver comes first: the core features are one set (the backbone
// proved them), and the binary clauses prove many equivalences (a mandatory child and its
// parent, `A <=> B`: ops/implications.ts), so only one representative of each such group of
// variant features is examined.
// The known models then split the representatives into classes by their values (features
// selected together always have equal values). A class is settled one pivot at a time: the
// members in another branch of an at-most-one group than the pivot can never be selected with
// it, so they are not its equals (a live feature is selected somewhere); the rest, with the
// pivot, is one SAT call asking for a configuration in which they differ. Unsatisfiable: they
// are one atomic set. Satisfiable: the model splits every class. On automotive2_4 most classes
// are features in different branches of alternatives, which the tree settles without a call.

import type { Deadline } from '../deadline.ts';
import type { EncodedModel } from '../encode.ts';
import type { SatSolver } from '../sat/solver.ts';
import { binaryEquivalenceClasses } from './implications.ts';
import { TreeIndex } from './tree-index.ts';

/** Sets of feature variables, or null past the deadline. */
export function atomicSets(
  solver: SatSolver,
  enc: EncodedModel,
  tree: TreeIndex,
  backbone: Int8Array,
  models: Int8Array[],
  deadline: Deadline,
): number[][] | null {
  const done: number[][] = [];
  const core: number[] = [];
  for (let v = 1; v <= enc.featureVars; v++) if (backbone[v]! > 0) core.push(v);
  if (core.length > 1) done.push(core);

  const groups = provenGroups(enc, backbone);
  const finals: number[][] = [];
  let classes: number[][] = [];
  // Parts of one member are settled: the models separated them from every other feature.
  const settle = (parts: number[][]): void => {
    for (const part of parts) if (part.length > 0) (part.length > 1 ? classes : finals).push(part);
  };
  settle(groupByValues([...groups.keys()], models));
  const splitAll = (model: Int8Array): void => {
    const open = classes;
    classes = [];
    for (const c of open) settle(splitByModel(c, model));
  };

  const random = xorshift32(0x2545f491);
  while (classes.length > 0) {
    if (deadline.expired()) return null;
    const c = classes.pop()!;
    const pivot = c[0]!;
    const candidates: number[] = [pivot];
    const others: number[] = [];
    for (let i = 1; i < c.length; i++) (tree.varsExclude(pivot, c[i]!) ? others : candidates).push(c[i]!);
    const phases = () => {
      // Every open class gets about half of its members preferred, so that one model splits
      // many of them: classes left this late are mostly deep features, which a random walk
      // down the tree rarely reaches. The candidates come first: they must differ in this one.
      randomTreePhases(solver, enc, random);
      // (About half of a class preferred selected splits it about in halves.)
      tree.newRound();
      for (const v of candidates) if (random() < 0.5) tree.preferSelected(v, solver);
      for (const members of classes) for (const v of members) if (random() < 0.5) tree.preferSelected(v, solver);
    };
    const model = candidates.length === 1 ? undefined : differingModel(solver, candidates, phases, deadline);
    if (model === null) return null;
    if (model === undefined) {
      // The candidates are selected together (the pivot alone when nothing in the class can be
      // selected with it); the others exclude the pivot, so none of them is in its set.
      finals.push(candidates);
      settle([others]);
      continue;
    }
    models.push(model);
    classes.push(c);
    splitAll(model);
  }
  for (const f of finals) {
    const set = f.flatMap((r) => groups.get(r)!);
    if (set.length > 1) done.push(set);
  }
  return done;
}

/**
 * The variables grouped by their values in the known models: the same result as splitting by
 * one model after the other, in one pass and without the intermediate classes (hundreds of
 * models of thousands of features). Grouped by two hashes of the values; a collision only
 * merges variables that the SAT calls then tell apart, so it costs a call, never a wrong set.
 */
function groupByValues(vars: number[], models: Int8Array[]): number[][] {
  const h1 = new Int32Array(vars.length);
  const h2 = new Int32Array(vars.length);
  for (const m of models) {
    for (let i = 0; i < vars.length; i++) {
      const bit = m[vars[i]!]! > 0 ? 1 : 2;
      h1[i] = (Math.imul(h1[i]!, 0x01000193) + bit) | 0;
      h2[i] = (Math.imul(h2[i]!, 0x5bd1e995) ^ bit) | 0;
    }
  }
  const groups = new Map<string, number[]>();
  for (let i = 0; i < vars.length; i++) {
    const key = `${h1[i]} ${h2[i]}`;
    const group = groups.get(key);
    if (group) group.push(vars[i]!);
    else groups.set(key, [vars[i]!]);
  }
  return [...groups.values()];
}

/** The class split by the values of a model (one part when they all agree). */
function splitByModel(c: number[], model: Int8Array): number[][] {
  const on: number[] = [];
  const off: number[] = [];
  for (const v of c) (model[v]! > 0 ? on : off).push(v);
  return [on, off].filter((part) => part.length > 0);
}

/**
 * A model in which the members do not all have the same value; undefined when there is none
 * (they are selected together in every configuration); null past the deadline.
 */
function differingModel(solver: SatSolver, members: number[], setPhases: () => void, deadline: Deadline): Int8Array | null | undefined {
  // An activation literal guards "some member on" and "some member off"; it is switched off
  // for good afterwards, so the solver keeps only implied clauses.
  const a = solver.newVar();
  solver.setDecisionVar(a, false);
  solver.addClause([-a, ...members]);
  solver.addClause([-a, ...members.map((v) => -v)]);
  setPhases();
  const status = solver.solve([a], deadline);
  const model = status === 'sat' ? solver.model() : undefined;
  solver.addClause([-a]);
  if (status === 'timeout') return null;
  return model;
}

/**
 * Phases that make the solver's next model a random walk down the tree: each feature on with
 * probability 1/2, except in groups of at most one child, where one child drawn at random is
 * preferred and its siblings are not. (With every child at 1/2, the first child the solver
 * decides with a positive phase wins, and its order hardly changes between calls: the same
 * children would win every time.) Models that differ widely split the classes widely.
 */
function randomTreePhases(solver: SatSolver, enc: EncodedModel, random: () => number): void {
  for (let v = 1; v <= enc.featureVars; v++) solver.setPhase(v, random() < 0.5);
  for (const r of enc.flat.relations) {
    if (!TreeIndex.isExclusive(r)) continue;
    const chosen = Math.floor(random() * r.children.length);
    r.children.forEach((c, i) => solver.setPhase(enc.nodeVar[c]!, i === chosen));
  }
}

/**
 * Variant features merged where the binary clauses prove them equal (a mandatory child and its
 * parent, `A <=> B`), as representative -> members. Core and dead features are left out.
 */
function provenGroups(enc: EncodedModel, backbone: Int8Array): Map<number, number[]> {
  const constraintClauses = enc.constraints.flatMap((k) => k.clauses);
  const component = binaryEquivalenceClasses(enc.numVars, [...enc.tree, ...enc.definitions, ...constraintClauses], backbone);
  const groups = new Map<number, number[]>();
  for (let v = 1; v <= enc.featureVars; v++) {
    if (backbone[v] !== 0) continue;
    const members = groups.get(component[v]!);
    if (members) members.push(v);
    else groups.set(component[v]!, [v]);
  }
  return new Map([...groups.values()].map((members) => [members[0]!, members]));
}

/** xorshift32: a fixed seed keeps the analysis deterministic. */
export function xorshift32(seed: number): () => number {
  return () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 4294967296;
  };
}

