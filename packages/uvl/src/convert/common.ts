// What the three flamapy formats share: the flat model, the split between Boolean
// constraints (exported) and the others (left out and listed), and the typed error
// for a constraint that names a feature the model does not have.

import type { Expression, Span, UvlModel } from '../ast.ts';
import { flattenModel, type FlatConstraint, type FlatModel } from '../semantics.ts';
import { printExpression } from './uvl.ts';

/**
 * Thrown by toGlencoe, toSplot and toCnf when the model cannot be exported. The converters
 * are otherwise pure functions of the model; this is their only exception, and it is
 * documented API: the hub maps it to a JSON error.
 */
export class UvlExportError extends Error {
  readonly code: 'unknown-feature' | 'no-root';
  /** For 'unknown-feature': the name the constraint uses. */
  readonly featureName?: string;
  constructor(code: 'unknown-feature' | 'no-root', message: string, featureName?: string) {
    super(message);
    this.name = 'UvlExportError';
    this.code = code;
    if (featureName !== undefined) this.featureName = featureName;
  }
}

/** A Boolean expression tree with resolved feature names, as flamapy's AST holds it. */
export type BoolExpr =
  | { kind: 'var'; name: string; index: number }
  | { kind: 'not'; operand: BoolExpr }
  | { kind: 'and' | 'or'; operands: BoolExpr[] }
  | { kind: 'implies' | 'equiv'; left: BoolExpr; right: BoolExpr };

export interface ExportConstraint {
  /** "Constraint <i>", i counting every constraint of the model (left-out ones too). */
  name: string;
  /** The constraint as the flat model holds it (its expression keeps the source span). */
  source: FlatConstraint;
  /** The constraint as UVL text (printed on demand: only some formats need it). */
  readonly text: string;
  expression: BoolExpr;
}

export interface ExportModel {
  flat: FlatModel;
  /** Feature name to the index of its first tree node (flamapy keys features by name). */
  indexOf: Map<string, number>;
  /** Distinct feature names in flamapy's order (one CNF variable each). */
  names: string[];
  constraints: ExportConstraint[];
  /** Printed constraints that only an arithmetic, aggregate or string reading can express. */
  leftOut: string[];
  /** The same constraints, each with why it is left out (in the same order). */
  leftOutConstraints: LeftOutConstraint[];
}

export interface LeftOutConstraint {
  source: FlatConstraint;
  /** `not-boolean`: arithmetic, aggregate or string; `unknown-feature`: it names no feature of the model. */
  reason: 'not-boolean' | 'unknown-feature';
  /** For `unknown-feature`: the first reference that is not a feature, as written, and where. */
  reference?: { name: string; span: Span };
}

function isBoolean(e: Expression): boolean {
  switch (e.kind) {
    case 'ref':
      return true;
    case 'not':
      return isBoolean(e.operand);
    case 'and':
    case 'or':
      return e.operands.every(isBoolean);
    case 'implies':
    case 'equiv':
      return isBoolean(e.left) && isBoolean(e.right);
    default:
      return false;
  }
}

function printWithPrefix(c: FlatConstraint): string {
  const text = printExpression(c.expression);
  return c.prefix ? `${text} (from imported model ${c.prefix})` : text;
}

export interface PrepareOptions {
  /**
   * What a constraint naming no feature of the model becomes: an error (the converters), or a
   * left-out constraint (the analysis, which must still say something about such a model).
   */
  unknownFeature?: 'throw' | 'leave-out';
}

class UnknownInConstraint extends Error {
  constructor(
    readonly reference: string,
    readonly span: Span,
  ) {
    super(`'${reference}' is not a feature`);
  }
}

export function prepareExport(model: UvlModel, options: PrepareOptions = {}): ExportModel {
  const leaveOutUnknown = options.unknownFeature === 'leave-out';
  if (!model.root) throw new UvlExportError('no-root', 'the model has no features');
  const flat = flattenModel(model);
  const indexOf = new Map<string, number>();
  const names: string[] = [];
  flat.features.forEach((f, i) => {
    if (!indexOf.has(f.name)) {
      indexOf.set(f.name, i);
      names.push(f.name);
    }
  });
  const varIndex = new Map<string, number>();
  names.forEach((n, i) => varIndex.set(n, i));

  const constraints: ExportConstraint[] = [];
  const leftOut: string[] = [];
  const leftOutConstraints: LeftOutConstraint[] = [];
  flat.constraints.forEach((c, i) => {
    if (!isBoolean(c.expression)) {
      leftOut.push(printWithPrefix(c));
      leftOutConstraints.push({ source: c, reason: 'not-boolean' });
      return;
    }
    const convert = (e: Expression): BoolExpr => {
      switch (e.kind) {
        case 'ref': {
          const name = c.prefix ? `${c.prefix}.${e.ref.name}` : e.ref.name;
          const index = varIndex.get(name);
          if (index === undefined) {
            if (leaveOutUnknown) throw new UnknownInConstraint(e.ref.name, e.ref.span);
            throw new UvlExportError(
              'unknown-feature',
              `constraint '${printExpression(c.expression)}' (line ${e.span.line}) names '${name}', which is not a feature of the model`,
              name,
            );
          }
          return { kind: 'var', name, index };
        }
        case 'not':
          return { kind: 'not', operand: convert(e.operand) };
        case 'and':
        case 'or':
          return { kind: e.kind, operands: e.operands.map(convert) };
        case 'implies':
        case 'equiv':
          return { kind: e.kind, left: convert(e.left), right: convert(e.right) };
        default:
          throw new Error('unreachable: non-Boolean expression after the Boolean check');
      }
    };
    let expression: BoolExpr;
    try {
      expression = convert(c.expression);
    } catch (error) {
      if (!(error instanceof UnknownInConstraint)) throw error;
      leftOut.push(printWithPrefix(c));
      leftOutConstraints.push({ source: c, reason: 'unknown-feature', reference: { name: error.reference, span: error.span } });
      return;
    }
    constraints.push({
      name: `Constraint ${i}`,
      source: c,
      get text() {
        return printWithPrefix(c);
      },
      expression,
    });
  });
  return { flat, indexOf, names, constraints, leftOut, leftOutConstraints };
}

/** flamapy's relation kinds. */
export function isMandatory(r: { children: number[]; min: number; max: number }): boolean {
  return r.min === 1 && r.max === 1 && r.children.length === 1;
}
export function isOptional(r: { children: number[]; min: number; max: number }): boolean {
  return r.min === 0 && r.max === 1 && r.children.length === 1;
}
export function isAlternative(r: { children: number[]; min: number; max: number }): boolean {
  return r.min === 1 && r.max === 1 && r.children.length > 1;
}
export function isOr(r: { children: number[]; min: number; max: number }): boolean {
  return r.min === 1 && r.max === r.children.length && r.children.length > 1;
}
export function isMutex(r: { children: number[]; min: number; max: number }): boolean {
  return r.min === 0 && r.max === 1 && r.children.length > 1;
}
export function isCardinal(r: { children: number[]; min: number; max: number }): boolean {
  return r.children.length > 1 && !isAlternative(r) && !isOr(r) && !isMutex(r);
}

/** Python's sorted() order on names (code points; equal to UTF-16 order for BMP text). */
export function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
