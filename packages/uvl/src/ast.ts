// The typed UVL model that parseUvl returns. Every node carries its source span.

import type { Diagnostic } from './diagnostics.ts';

export interface Span {
  /** UTF-16 offset in the source text. */
  offset: number;
  length: number;
  /** From 1. */
  line: number;
  /** From 0. */
  column: number;
}

/** A dotted name as written (`a.b."c d"`): `parts` without quotes, `name` the parts joined with '.'. */
export interface Reference {
  name: string;
  parts: string[];
  span: Span;
}

export type FeatureType = 'Boolean' | 'Integer' | 'Real' | 'String';
export type MajorLevel = 'Boolean' | 'Arithmetic' | 'Type';
export type MinorLevel = 'group-cardinality' | 'feature-cardinality' | 'aggregate-function' | 'string-constraints';

export interface LanguageLevel {
  major: MajorLevel;
  /** `*` for `Boolean.*`; absent for the whole major level. */
  minor?: MinorLevel | '*';
  span: Span;
}

/** The model an import resolved to, when a loader provided it. */
export interface ResolvedImport {
  /** The name the loader gave the file (a path for the command line). */
  fileName: string;
  model: UvlModel;
  diagnostics: Diagnostic[];
}

export interface Import {
  /** The imported model's namespace as written: `nested.sub` means the file nested/sub.uvl. */
  namespace: Reference;
  alias?: Reference;
  /** The prefix under which the importing model refers to the imported features: the alias, else the namespace. */
  prefix: string;
  resolved?: ResolvedImport;
  span: Span;
}

/** A cardinality `[min..max]`; `[n]` is min = max = n; `*` is unbounded. */
export interface Cardinality {
  min: number;
  max: number | '*';
}

export type GroupKind = 'mandatory' | 'optional' | 'alternative' | 'or' | 'cardinality';

export interface Group {
  kind: GroupKind;
  /** Only for kind 'cardinality'. */
  cardinality?: Cardinality;
  children: Feature[];
  span: Span;
}

export interface Feature {
  /** The reference as written, parts joined with '.', without quotes (flamapy's feature name). */
  name: string;
  reference: Reference;
  /** Written type; a feature without one is Boolean. */
  type?: FeatureType;
  /** `cardinality [1..3]` after the name. */
  cardinality?: Cardinality;
  attributes: Attribute[];
  groups: Group[];
  span: Span;
}

export type Attribute = ValueAttribute | ConstraintAttribute | ConstraintsAttribute;

export interface ValueAttribute {
  kind: 'value';
  name: string;
  key: Reference;
  /** Absent for a flag such as `{abstract}`. */
  value?: AttributeValue;
  span: Span;
}
export interface ConstraintAttribute {
  kind: 'constraint';
  constraint: Expression;
  span: Span;
}
export interface ConstraintsAttribute {
  kind: 'constraints';
  constraints: Expression[];
  span: Span;
}

export type AttributeValue =
  | { kind: 'boolean'; value: boolean; span: Span }
  | { kind: 'number'; value: number; raw: string; span: Span }
  | { kind: 'string'; value: string; span: Span }
  | { kind: 'attributes'; attributes: Attribute[]; span: Span }
  | { kind: 'vector'; values: AttributeValue[]; span: Span };

export type CompareOperator = '==' | '!=' | '<' | '<=' | '>' | '>=';
export type ArithmeticOperator = '+' | '-' | '*' | '/';
export type AggregateFunction = 'sum' | 'avg' | 'len' | 'floor' | 'ceil';

/**
 * Constraints and the expressions inside them. `and` and `or` hold the operands
 * of one unparenthesised chain (`A & B & C`); a parenthesised operand of the
 * same kind stays a nested node, so printing gives back the same tree.
 * `=>`, `<=>` and the arithmetic operators are binary and associate to the left.
 */
export type Expression =
  | { kind: 'ref'; ref: Reference; span: Span }
  | { kind: 'not'; operand: Expression; span: Span }
  | { kind: 'and'; operands: Expression[]; span: Span }
  | { kind: 'or'; operands: Expression[]; span: Span }
  | { kind: 'implies'; left: Expression; right: Expression; span: Span }
  | { kind: 'equiv'; left: Expression; right: Expression; span: Span }
  | { kind: 'compare'; op: CompareOperator; left: Expression; right: Expression; span: Span }
  | { kind: 'arith'; op: ArithmeticOperator; left: Expression; right: Expression; span: Span }
  | { kind: 'number'; value: number; raw: string; span: Span }
  | { kind: 'string'; value: string; span: Span }
  | { kind: 'aggregate'; fn: AggregateFunction; args: Reference[]; span: Span };

export interface UvlModel {
  namespace?: Reference;
  includes: LanguageLevel[];
  imports: Import[];
  /** Absent for an empty file or a model without a features section. */
  root?: Feature;
  /** The lines of the constraints section (constraint attributes stay on their features). */
  constraints: Expression[];
  /** The name the caller gave the text, if any. */
  fileName?: string;
}

export interface ParseResult {
  model: UvlModel;
  /** Errors and warnings of this text, in source order. */
  diagnostics: Diagnostic[];
}
