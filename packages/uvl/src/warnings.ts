// Warnings about a model that parses (the official parser accepts it, so it stays valid) but
// that is probably not what its author meant (extensions section 9): a constraint naming
// something that is not a feature (the analysis leaves it out), an empty model, a feature name
// declared twice (the analysis takes both nodes as one feature), a group cardinality that no
// selection of its features can meet or that is written below zero.

import type { Feature, Group, Span, UvlModel } from './ast.ts';
import { prepareExport } from './convert/common.ts';
import type { Diagnostic, DiagnosticCode } from './diagnostics.ts';

export const EMPTY_MODEL_WARNING = 'the model declares no features: it is valid UVL, but holds nothing to analyse';

const warningAt = (code: DiagnosticCode, span: Span, message: string): Diagnostic => ({
  code,
  severity: 'warning',
  message,
  offset: span.offset,
  length: span.length,
  line: span.line,
  column: span.column,
});

/** The model's warnings in source order (the parser's own warnings are in its diagnostics). */
export function modelWarnings(model: UvlModel): Diagnostic[] {
  if (!model.root) return [warningAt('empty-model', { offset: 0, length: 0, line: 1, column: 0 }, EMPTY_MODEL_WARNING)];
  const out = [...duplicateFeatures(model.root), ...cardinalityWarnings(model.root), ...unknownReferences(model)];
  return out.sort((a, b) => a.offset - b.offset);
}

/** Constraints of this file that name something that is not a feature (imported ones are the imported file's). */
function unknownReferences(model: UvlModel): Diagnostic[] {
  const out: Diagnostic[] = [];
  let leftOut;
  try {
    leftOut = prepareExport(model, { unknownFeature: 'leave-out' }).leftOutConstraints;
  } catch {
    return out; // a model the converters cannot read at all has no constraint to speak of
  }
  for (const c of leftOut) {
    if (c.reason !== 'unknown-feature' || c.source.prefix !== '' || !c.reference) continue;
    out.push(warningAt('unknown-feature', c.reference.span, `\`${c.reference.name}\` is not a feature: the constraint is left out of the analysis`));
  }
  return out;
}

/** Every feature of the tree in pre-order, with an explicit stack: trees can be deeper than the call stack. */
function eachFeature(root: Feature, visit: (f: Feature) => void): void {
  const stack: Feature[] = [root];
  while (stack.length > 0) {
    const f = stack.pop()!;
    visit(f);
    for (let g = f.groups.length - 1; g >= 0; g--) {
      const kids = f.groups[g]!.children;
      for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]!);
    }
  }
}

/** A name declared a second time, at that second declaration. */
function duplicateFeatures(root: Feature): Diagnostic[] {
  const first = new Map<string, Feature>();
  const out: Diagnostic[] = [];
  eachFeature(root, (f) => {
    const earlier = first.get(f.name);
    if (earlier) {
      const message = `\`${f.name}\` is declared twice (first on line ${earlier.reference.span.line}): the analysis takes both as one feature`;
      out.push(warningAt('duplicate-feature', f.reference.span, message));
    } else first.set(f.name, f);
  });
  return out;
}

/**
 * Group cardinalities the official grammar accepts but no selection meets: `[3..1]`, `[4..5]` over
 * three features (the parent can never be selected), and bounds below zero (read as zero).
 */
function cardinalityWarnings(root: Feature): Diagnostic[] {
  const out: Diagnostic[] = [];
  eachFeature(root, (f) => {
    for (const g of f.groups) {
      const problem = cardinalityProblem(g);
      if (problem) out.push(warningAt('impossible-cardinality', g.span, `the group cardinality of \`${f.name}\` ${problem}`));
    }
  });
  return out;
}

function cardinalityProblem(g: Group): string | undefined {
  if (g.kind !== 'cardinality' || !g.cardinality || g.children.length === 0) return undefined;
  const { min, max } = g.cardinality;
  const n = g.children.length;
  const written = `[${min}${max === min ? '' : `..${max}`}]`;
  if (max !== '*' && max < min) return `${written} has its upper bound below its lower bound: the parent can never be selected`;
  if (min > n) return `${written} asks for at least ${min} of its ${n} features: the parent can never be selected`;
  if (min < 0 || (max !== '*' && max < 0)) return `${written} has a bound below zero, read as zero`;
  return undefined;
}
