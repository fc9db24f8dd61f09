// The class of an edit between two versions of a model (Thüm, Batory and Kästner, 2009): both are
// read as sets of configurations over the union of their features, a feature a model does not have
// being deselected in its configurations. Then the edit is a refactoring when the sets are equal, a
// generalization when the new set contains the old one, a specialization in the reverse case, and
// arbitrary otherwise. Each inclusion is one SAT call: "before and not after" has no solution.
//
// "Not after" needs the model negated. The analysis encoding keeps what a model asserts (tree and
// constraint clauses) apart from the definitions of its auxiliary variables, which hold for any
// feature assignment and then fix every auxiliary variable. So a feature assignment is outside the
// model exactly when, under the definitions, one asserted clause is false: one selector per asserted
// clause, "some selector" as a clause, and each selector forcing its clause false.

import type { UvlModel } from '../../../uvl/src/index.ts';
import { satEncoding } from '../analyze.ts';
import { Deadline } from '../deadline.ts';
import type { EncodedModel } from '../encode.ts';
import { SatSolver } from '../sat/solver.ts';

export type EditKind = 'refactoring' | 'generalization' | 'specialization' | 'arbitrary';

export interface EditClassification {
  /** `unknown` when the time budget ran out before both inclusions were decided. */
  kind: EditKind | 'unknown';
  /** Features only in the new version / only in the old one, sorted. */
  addedFeatures: string[];
  removedFeatures: string[];
  /**
   * A configuration (its selected features, sorted) of the new version that the old one does not
   * have, and the reverse; null when there is none or it was not decided.
   */
  onlyAfter: string[] | null;
  onlyBefore: string[] | null;
  /** Constraints each version has that the Boolean analysis cannot read (arithmetic, strings…). */
  ignoredConstraints: { before: number; after: number };
}

export interface ClassifyEditOptions {
  /** A Deadline, or the epoch milliseconds after which the classification gives up. */
  deadline?: Deadline | number;
}

interface Placed {
  /** The model's asserted clauses over the shared variables. */
  asserted: number[][];
  /** Definitions of the auxiliary variables this model introduced (not those it shares). */
  definitions: number[][];
}

const clauseKey = (clause: number[]): string => [...clause].sort((a, b) => a - b).join(' ');

/**
 * Puts models into one variable space: features by name, then auxiliary variables. An auxiliary
 * variable whose definition is the same as one already placed (the same group counter, the same
 * constraint subformula) becomes that variable, so that what both versions assert in the same
 * way is written the same way and the inclusion checks see it at once. This relies on the
 * encoding's order: each auxiliary variable is defined after the variables it depends on, by the
 * clauses in which it is the largest variable, and those clauses fix its value.
 */
class SharedSpace {
  readonly names: string[] = [];
  private readonly featureVar = new Map<string, number>();
  private readonly byDefinition = new Map<string, number>();
  private auxiliaries: { enc: EncodedModel; placed: Placed }[] = [];
  private next = 0;

  constructor(models: EncodedModel[]) {
    for (const enc of models) {
      for (const name of enc.names) {
        if (!this.featureVar.has(name)) {
          this.names.push(name);
          this.featureVar.set(name, this.names.length);
        }
      }
    }
    this.next = this.names.length;
  }

  get variables(): number {
    return this.next;
  }

  place(enc: EncodedModel): Placed {
    const map = new Int32Array(enc.numVars + 1);
    for (let v = 1; v <= enc.featureVars; v++) map[v] = this.featureVar.get(enc.names[v - 1]!)!;
    const groups: number[][][] = Array.from({ length: enc.numVars - enc.featureVars }, () => []);
    for (const clause of enc.definitions) {
      let top = 0;
      for (const l of clause) top = Math.max(top, Math.abs(l));
      if (top > enc.featureVars) groups[top - enc.featureVars - 1]!.push(clause);
    }
    const renumber = (clause: number[]) => clause.map((l) => (l > 0 ? map[l]! : -map[-l]!));
    const definitions: number[][] = [];
    for (let v = enc.featureVars + 1; v <= enc.numVars; v++) {
      const group = groups[v - enc.featureVars - 1]!;
      // The variable itself is `x` in the key, every other variable already has its shared number.
      const key = group
        .map((c) => c.map((l) => (l === v ? 'x' : l === -v ? '-x' : String(l > 0 ? map[l]! : -map[-l]!))).sort().join(' '))
        .sort().join('|');
      const known = group.length > 0 ? this.byDefinition.get(key) : undefined;
      if (known !== undefined) {
        map[v] = known;
        continue;
      }
      map[v] = ++this.next;
      if (group.length > 0) this.byDefinition.set(key, map[v]!);
      for (const c of group) definitions.push(renumber(c));
    }
    const asserted = enc.tree.map(renumber);
    for (const k of enc.constraints) for (const c of k.clauses) asserted.push(renumber(c));
    const placed = { asserted, definitions };
    this.auxiliaries.push({ enc, placed });
    return placed;
  }

  /** Every definition placed so far: they hold together for any feature assignment. */
  allDefinitions(): number[][] {
    return this.auxiliaries.flatMap((a) => a.placed.definitions);
  }
}

/**
 * Whether some configuration of `inside` is not a configuration of `outside`: null when it has none,
 * the configuration's features when it has one, 'timeout' past the deadline.
 */
function configurationOutside(
  inside: { enc: EncodedModel; placed: Placed },
  outside: { enc: EncodedModel; placed: Placed },
  space: SharedSpace,
  deadline: Deadline,
): string[] | null | 'timeout' {
  const { names } = space;
  const solver = new SatSolver(space.variables);
  const insideNames = new Set(inside.enc.names);
  const outsideNames = new Set(outside.enc.names);
  for (const c of space.allDefinitions()) solver.addClause(c);
  const insideClauses = new Set<string>();
  for (const c of inside.placed.asserted) {
    solver.addClause(c);
    insideClauses.add(clauseKey(c));
  }
  // The features the inside model does not have are deselected in its configurations.
  names.forEach((name, i) => { if (!insideNames.has(name)) solver.addClause([-(i + 1)]); });

  // Outside: a feature it does not have is selected, or one of its asserted clauses is false;
  // a clause the inside model asserts too can never be the false one.
  const someReason: number[] = [];
  names.forEach((name, i) => { if (!outsideNames.has(name)) someReason.push(i + 1); });
  for (const clause of outside.placed.asserted) {
    if (insideClauses.has(clauseKey(clause))) continue;
    const selector = solver.newVar();
    someReason.push(selector);
    for (const l of clause) solver.addClause([-selector, -l]);
  }
  if (someReason.length === 0) return null;
  solver.addClause(someReason);

  const status = solver.solve([], deadline);
  if (status === 'timeout') return 'timeout';
  if (status === 'unsat') return null;
  return names.filter((_, i) => solver.modelValue(i + 1)).sort();
}

export function classifyEdit(before: UvlModel, after: UvlModel, options: ClassifyEditOptions = {}): EditClassification {
  const deadline = options.deadline instanceof Deadline ? options.deadline
    : new Deadline(options.deadline ?? Infinity);
  const old = satEncoding(before);
  const neu = satEncoding(after);
  const space = new SharedSpace([old, neu]);
  const a = { enc: old, placed: space.place(old) };
  const b = { enc: neu, placed: space.place(neu) };

  const oldNames = new Set(old.names);
  const neuNames = new Set(neu.names);
  const result: EditClassification = {
    kind: 'unknown',
    addedFeatures: neu.names.filter((n) => !oldNames.has(n)).sort(),
    removedFeatures: old.names.filter((n) => !neuNames.has(n)).sort(),
    onlyAfter: null,
    onlyBefore: null,
    ignoredConstraints: { before: old.ignored, after: neu.ignored },
  };

  const lost = configurationOutside(a, b, space, deadline);
  if (lost === 'timeout') return result;
  const gained = configurationOutside(b, a, space, deadline);
  if (gained === 'timeout') return result;
  result.onlyBefore = lost;
  result.onlyAfter = gained;
  result.kind = lost === null && gained === null ? 'refactoring'
    : lost === null ? 'generalization'
      : gained === null ? 'specialization' : 'arbitrary';
  return result;
}
