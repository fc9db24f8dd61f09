// What the editor knows about its text, from one run of the hub's own parser: the diagnostics of
// `hub uvl check` (syntax errors, the parser's warnings and, on a model without errors, the
// warnings of extensions section 9), the declared features and every reference to them. Pure:
// the browser and the unit tests run the same code.
import {
  formatDiagnostic, isPlainName, modelWarnings, parseUvl, printUvl,
  type Attribute, type Diagnostic, type Expression, type Feature, type Reference, type Span, type UvlModel,
} from '../../../../packages/uvl/src/index.ts';

export interface EditorDiagnostic {
  from: number;
  to: number;
  severity: 'error' | 'warning';
  /** `Line l:c - message`, as `hub uvl check` prints it. */
  message: string;
}

export interface Occurrence {
  name: string;
  from: number;
  to: number;
  declaration: boolean;
}

export interface UvlDocument {
  model: UvlModel;
  valid: boolean;
  diagnostics: EditorDiagnostic[];
  /** Declarations and references in source order. */
  occurrences: Occurrence[];
  /** Feature names in declaration order, each once. */
  featureNames: string[];
}

export function analyseText(text: string): UvlDocument {
  const { model, diagnostics } = parseUvl(text);
  const valid = !diagnostics.some((d) => d.severity === 'error');
  // A model with syntax errors is partial: the model warnings wait until it parses (checkParsed).
  const all: Diagnostic[] = valid ? [...diagnostics, ...modelWarnings(model)] : [...diagnostics];
  all.sort((a, b) => a.offset - b.offset);
  const occurrences = collectOccurrences(model);
  const featureNames = [...new Set(occurrences.filter((o) => o.declaration).map((o) => o.name))];
  return {
    model, valid, occurrences, featureNames,
    diagnostics: all.map((d) => ({
      from: Math.min(d.offset, text.length),
      to: Math.min(d.offset + Math.max(d.length, 0), text.length),
      severity: d.severity,
      message: formatDiagnostic(d),
    })),
  };
}

const spanOf = (name: string, span: Span, declaration: boolean): Occurrence => ({ name, from: span.offset, to: span.offset + span.length, declaration });

function collectOccurrences(model: UvlModel): Occurrence[] {
  const out: Occurrence[] = [];
  const refs = (expression: Expression): void => expressionRefs(expression, (r) => out.push(spanOf(r.name, r.span, false)));
  const stack: Feature[] = model.root ? [model.root] : [];
  while (stack.length > 0) {
    const feature = stack.pop()!;
    out.push(spanOf(feature.name, feature.reference.span, true));
    attributeConstraints(feature.attributes, refs);
    for (let g = feature.groups.length - 1; g >= 0; g--) {
      const children = feature.groups[g]!.children;
      for (let c = children.length - 1; c >= 0; c--) stack.push(children[c]!);
    }
  }
  for (const constraint of model.constraints) refs(constraint);
  return out.sort((a, b) => a.from - b.from);
}

function attributeConstraints(attributes: Attribute[], visit: (e: Expression) => void): void {
  for (const a of attributes) {
    if (a.kind === 'constraint') visit(a.constraint);
    else if (a.kind === 'constraints') a.constraints.forEach(visit);
  }
}

function expressionRefs(root: Expression, visit: (r: Reference) => void): void {
  const stack: Expression[] = [root];
  while (stack.length > 0) {
    const e = stack.pop()!;
    switch (e.kind) {
      case 'ref': visit(e.ref); break;
      case 'aggregate': e.args.forEach(visit); break;
      case 'not': stack.push(e.operand); break;
      case 'and': case 'or': stack.push(...e.operands); break;
      case 'implies': case 'equiv': case 'compare': case 'arith': stack.push(e.left, e.right); break;
      default: break;
    }
  }
}

/** The occurrence (declaration or reference) under a position, if any. */
export function occurrenceAt(doc: UvlDocument, pos: number): Occurrence | undefined {
  return doc.occurrences.find((o) => o.from <= pos && pos <= o.to);
}

/** Where the feature named at `pos` is declared. */
export function declarationOf(doc: UvlDocument, pos: number): Occurrence | undefined {
  const at = occurrenceAt(doc, pos);
  return at && doc.occurrences.find((o) => o.declaration && o.name === at.name);
}

/** How a feature name is written: plain when it can be, else quoted (a dotted reference keeps its dots). */
export function writtenName(name: string): string {
  return name.split('.').map((part) => (isPlainName(part) ? part : `"${part}"`)).join('.');
}

export type RenameResult = { ok: true; changes: { from: number; to: number; insert: string }[] } | { ok: false; message: string };

/** The edits that rename feature `from` to `to` at its declaration and every reference. */
export function renameFeature(doc: UvlDocument, from: string, to: string): RenameResult {
  const target = to.trim();
  if (!doc.valid) return { ok: false, message: 'Fix the errors first: a feature is renamed in a model that parses.' };
  if (!doc.featureNames.includes(from)) return { ok: false, message: `There is no feature ${from}.` };
  if (target === '' || /["\r\n]/.test(target)) return { ok: false, message: 'A feature name cannot be empty or hold a quote or a line break.' };
  if (target !== from && doc.featureNames.includes(target)) return { ok: false, message: `A feature ${target} exists already.` };
  const insert = writtenName(target);
  const changes = doc.occurrences.filter((o) => o.name === from).map((o) => ({ from: o.from, to: o.to, insert }));
  return { ok: true, changes };
}

/** The canonical text of a model that parses (the hub's printer), or why not. */
export function formatText(doc: UvlDocument): { ok: true; text: string } | { ok: false; message: string } {
  if (!doc.valid) return { ok: false, message: 'Fix the errors first: only a model that parses can be formatted.' };
  return { ok: true, text: printUvl(doc.model) };
}
