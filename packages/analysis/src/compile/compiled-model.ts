// compileModel: a model compiled once into a decision-DNNF (the counter's search, traced), and
// the queries on it, each one pass or a few over the compiled form: the count under decisions,
// every feature's commonality, uniform samples, the first K configurations, the d4 file.
//
// Decisions (assumptions) are signed feature variables, DIMACS style, numbered as the CNF export
// numbers the features (`names[v - 1]` is feature v): [3, -7] selects feature 3 and deselects
// feature 7. Or by name: { selected: ['A'], deselected: ['B'] }.

import type { UvlModel } from '../../../uvl/src/index.ts';
import { traceCnf } from '../count/counter.ts';
import { Deadline } from '../deadline.ts';
import { encodeModel, modelClauses, type EncodedModel } from '../encode.ts';
import { sampleReduced } from '../sample/uniform.ts';
import { hasTables, nodeCounts, trueCounts, type DecisionDnnf, type FixedValues } from './decision-dnnf.ts';
import { DnnfBuilder } from './dnnf-builder.ts';
import { featureClasses, writeD4, type FeatureClasses } from './d4.ts';
import { enumerateReduced } from './enumerate.ts';

export type Assumptions = readonly number[] | { selected?: Iterable<string>; deselected?: Iterable<string> };

/** A configuration: 1 at index v - 1 when feature v is selected, else 0. */
export type Configuration = Uint8Array;

export interface CompileOptions {
  /** The model's source text (constraint labels); optional. */
  text?: string;
  deadline?: Deadline;
  /** Narrow components as TABLE nodes (narrow-leaf.ts): on wide models (default), always (tests), never. */
  narrowTables?: NarrowTables;
}

/**
 * Where the compiled form keeps narrow components as TABLE nodes: 'wide' where the counter
 * counts them by dynamic programming (a wide model's components of 16 to 1 000 variables),
 * 'always' from two variables on any model (tests), 'never' (every node a decision node: the
 * d4 file and the analysis's own passes).
 */
export type NarrowTables = 'wide' | 'always' | 'never';

/** A feature's commonality: the configurations (extending the decisions) that contain it. */
export interface Commonality {
  /** Configurations extending the decisions. */
  configurations: bigint;
  /** Per feature, in `names` order (index v - 1 for feature v). */
  counts: bigint[];
}

/**
 * The model compiled, or null when the deadline passed first (never a partial form). Constraints
 * the Boolean analysis cannot express are left out, as for the count (`ignoredConstraints`).
 */
export function compileModel(model: UvlModel, options: CompileOptions = {}): CompiledModel | null {
  return compileEncoded(encodeModel(model, options.text), options.deadline ?? Deadline.none(), options.narrowTables ?? 'wide')?.compiled ?? null;
}

export interface CompiledEncoding {
  compiled: CompiledModel;
  /** The reduced literal each feature variable equals (index 1..features): the analysis's own passes over the form need it. */
  literalOf: Int32Array;
}

/**
 * The compiled form of an encoding in the counter's form (alternative groups over PAIRWISE_LIMIT
 * as counters, as encodeModel gives them), or null when the deadline passed first. The analysis
 * calls it with the encoding it has already made, and its passes want decision nodes only.
 */
export function compileEncoded(enc: EncodedModel, deadline: Deadline, narrowTables: NarrowTables = 'never'): CompiledEncoding | null {
  const form = compileForm(enc, deadline, narrowTables);
  if (form === null) return null;
  return { compiled: new CompiledModel(enc, form.form, form.literalOf), literalOf: form.literalOf };
}

function compileForm(enc: EncodedModel, deadline: Deadline, narrowTables: NarrowTables): { form: DecisionDnnf; literalOf: Int32Array } | null {
  const clauses = modelClauses(enc);
  let builder: DnnfBuilder | undefined;
  const makeBuilder = (literalOf: Int32Array, reducedVars: number): DnnfBuilder => {
    // The reduced variables that stand for features: their literals are kept in the nodes.
    const keep = new Uint8Array(reducedVars + 1);
    for (let f = 1; f <= enc.featureVars; f++) keep[Math.abs(literalOf[f]!)] = 1;
    builder = new DnnfBuilder(keep, narrowTables !== 'never');
    return builder;
  };
  const options = narrowTables === 'always' ? { narrowComponents: 'always' as const } : {};
  const traced = traceCnf(enc.numVars, clauses, deadline, enc.definitions, makeBuilder, options);
  if (traced.value === null) return null;
  return { form: builder!.finish(traced.value, traced.reducedVars), literalOf: traced.literalOf };
}

export class CompiledModel {
  /** Feature v is names[v - 1]. */
  readonly names: readonly string[];
  readonly form: DecisionDnnf;
  /** The reduced literal each feature variable equals (index 1..features). */
  private readonly literalOf: Int32Array;
  private readonly classes: FeatureClasses;
  private readonly varOf = new Map<string, number>();
  /** Constraints left out (not Boolean): the answers are then about the Boolean part only. */
  readonly ignoredConstraints: number;
  private rootCounts: bigint[] | undefined;
  /** The encoding, for a form without TABLE nodes when the d4 file is asked for. */
  private readonly encoding: EncodedModel;

  constructor(encoding: EncodedModel, form: DecisionDnnf, literalOf: Int32Array) {
    this.encoding = encoding;
    this.names = encoding.names;
    this.form = form;
    this.literalOf = literalOf;
    this.ignoredConstraints = encoding.ignored;
    this.classes = featureClasses(literalOf, this.names.length, form.vars);
    this.names.forEach((name, i) => this.varOf.set(name, i + 1));
  }

  get features(): number {
    return this.names.length;
  }

  /** The reduced literal each feature variable equals (index 1..features): stored-form.ts writes it with the form. */
  get featureLiterals(): Int32Array {
    return this.literalOf;
  }

  /** The variable (1..features) of a feature name, or undefined. */
  variableOf(name: string): number | undefined {
    return this.varOf.get(name);
  }

  /** The number of configurations that extend the decisions. */
  count(assumptions: Assumptions = []): bigint {
    const fixed = this.fixedValues(assumptions);
    if (fixed === null || this.form.nodes === 0) return 0n;
    return this.countsUnder(fixed)[this.form.nodes - 1]!;
  }

  /** Every feature's commonality under the decisions, in one upward and one downward pass. */
  commonality(assumptions: Assumptions = []): Commonality {
    const fixed = this.fixedValues(assumptions);
    const none = { configurations: 0n, counts: this.names.map(() => 0n) };
    if (fixed === null || this.form.nodes === 0) return none;
    const kept = new Map<number, bigint[]>();
    const counts = this.countsUnder(fixed, kept);
    const total = counts[this.form.nodes - 1]!;
    if (total === 0n) return none;
    const trueIn = trueCounts(this.form, fixed, counts, kept);
    const featureCounts = this.names.map((_, i) => {
      const l = this.literalOf[i + 1]!;
      return l > 0 ? trueIn[l]! : total - trueIn[-l]!;
    });
    return { configurations: total, counts: featureCounts };
  }

  /**
   * N configurations extending the decisions, each uniform and independent (with replacement),
   * as Configurations. Empty when none extends them.
   */
  sampleUniform(n: number, seed: number, assumptions: Assumptions = []): Configuration[] {
    return [...this.uniformSamples(n, seed, assumptions)];
  }

  /** sampleUniform's configurations one at a time (a large sample need not be held at once). */
  *uniformSamples(n: number, seed: number, assumptions: Assumptions = []): Generator<Configuration> {
    const fixed = this.fixedValues(assumptions);
    if (fixed === null || this.form.nodes === 0) return;
    const counts = this.countsUnder(fixed);
    if (counts[this.form.nodes - 1] === 0n) return;
    for (const values of sampleReduced(this.form, fixed, counts, n, seed)) yield this.toFeatures(values);
  }

  /** The first K configurations extending the decisions (a fixed order), as sampleUniform's. */
  enumerate(k: number, assumptions: Assumptions = []): Configuration[] {
    const fixed = this.fixedValues(assumptions);
    if (fixed === null || this.form.nodes === 0) return [];
    return enumerateReduced(this.form, fixed, this.countsUnder(fixed), k).map((values) => this.toFeatures(values));
  }

  /**
   * The d4 NNF text over the feature variables (see d4.ts). A form with TABLE nodes is compiled
   * again without them first (the search's nodes in their place, which takes longer: fm3.uvl
   * 3 s): compile with narrowTables 'never' when the file is all that is wanted.
   */
  toD4(): string {
    if (!hasTables(this.form)) return writeD4(this.form, this.classes);
    const plain = compileForm(this.encoding, Deadline.none(), 'never')!;
    return writeD4(plain.form, featureClasses(plain.literalOf, this.names.length, plain.form.vars));
  }

  /** The numbering of the d4 file, as the CNF export's comment lines `c <n> <name>`. */
  variableMap(): string {
    return this.names.map((name, i) => `c ${i + 1} ${name}\n`).join('');
  }

  /** Names of the selected features of a configuration given as sampleUniform gives it, sorted. */
  selectedNames(configuration: Configuration): string[] {
    return this.names.filter((_, i) => configuration[i]).sort();
  }

  /** Node counts under the fixed values; `keptTrueCounts` keeps the TABLE nodes' true counts when they are made. */
  private countsUnder(fixed: FixedValues, keptTrueCounts?: Map<number, bigint[]>): bigint[] {
    const open = fixed.every((v) => v === 0);
    if (open && this.rootCounts) return this.rootCounts;
    const counts = nodeCounts(this.form, fixed, hasTables(this.form) ? keptTrueCounts : undefined);
    if (open) this.rootCounts = counts;
    return counts;
  }

  private toFeatures(values: Int8Array): Configuration {
    const selected = new Uint8Array(this.names.length);
    for (let f = 1; f <= this.names.length; f++) {
      const l = this.literalOf[f]!;
      selected[f - 1] = (l > 0 ? values[l] === 1 : values[-l] === -1) ? 1 : 0;
    }
    return selected;
  }

  /** The reduced variables' values the decisions fix, or null when two decisions contradict. */
  private fixedValues(assumptions: Assumptions): FixedValues | null {
    const fixed = new Int8Array(this.form.vars + 1);
    for (const a of this.signedVariables(assumptions)) {
      const l = a > 0 ? this.literalOf[a]! : -this.literalOf[-a]!;
      const v = Math.abs(l);
      const value = l > 0 ? 1 : -1;
      if (fixed[v] === -value) return null;
      fixed[v] = value;
    }
    return fixed;
  }

  private signedVariables(assumptions: Assumptions): number[] {
    if (Array.isArray(assumptions)) {
      for (const a of assumptions as number[]) {
        if (!Number.isInteger(a) || a === 0 || Math.abs(a) > this.names.length) throw new RangeError(`not a feature variable: ${a}`);
      }
      return assumptions as number[];
    }
    const { selected = [], deselected = [] } = assumptions as { selected?: Iterable<string>; deselected?: Iterable<string> };
    const out: number[] = [];
    const variable = (name: string): number => {
      const v = this.varOf.get(name);
      if (v === undefined) throw new RangeError(`unknown feature: ${name}`);
      return v;
    };
    for (const name of selected) out.push(variable(name));
    for (const name of deselected) out.push(-variable(name));
    return out;
  }
}
