// The sections of a UVL model (namespace, include, imports, features, constraints), their order,
// and the recovery between them.

import type { Import, LanguageLevel, MajorLevel, MinorLevel, UvlModel } from './ast.ts';
import { isId, type ParseContext } from './parser-context.ts';
import { canStartExpression, parseConstraint } from './parser-expressions.ts';
import { GROUP_KINDS, isFeatureStart, parseFeature } from './parser-features.ts';
import { T } from './tokens.ts';

const MAJOR_LEVELS: Record<number, MajorLevel> = {
  [T.BOOLEAN_KEY]: 'Boolean',
  [T.ARITHMETIC_KEY]: 'Arithmetic',
  [T.TYPE_KEY]: 'Type',
};
const MINOR_LEVELS: Record<number, MinorLevel> = {
  [T.GROUP_CARDINALITY_KEY]: 'group-cardinality',
  [T.FEATURE_CARDINALITY_KEY]: 'feature-cardinality',
  [T.AGGREGATE_KEY]: 'aggregate-function',
  [T.STRING_CONSTRAINTS_KEY]: 'string-constraints',
};

/**
 * Lines of a block: `each` parses one line and must consume it. An extra INDENT
 * inside the block (a line indented deeper than its siblings) is reported once
 * and its lines are read as if they lined up.
 */
function blockLines(c: ParseContext, canStart: (k: number) => boolean, each: () => void, what: string): void {
  let extra = 0;
  while (c.kind() !== T.EOF) {
    const k = c.kind();
    if (k === T.DEDENT) {
      if (extra === 0) return;
      extra--;
      c.advance();
      continue;
    }
    if (k === T.INDENT) {
      c.errorAt(c.p, `this line is indented deeper than the line above it (${what} belongs at the same indentation)`);
      extra++;
      c.advance();
      continue;
    }
    if (k === T.NEWLINE) {
      c.strayNewline(what);
      continue;
    }
    if (!canStart(k)) {
      c.expected(what);
      c.skipLine();
      continue;
    }
    each();
  }
}

/** A section keyword's line; false (reported) when no indented block follows it. */
function sectionBlock(c: ParseContext, keyword: string, contents: string): boolean {
  c.advance();
  c.expectNewline(`'${keyword}'`);
  if (c.kind() !== T.INDENT) {
    c.expected(`${contents}, indented below '${keyword}'`);
    return false;
  }
  c.advance();
  return true;
}

// namespace: 'namespace' reference
function parseNamespace(c: ParseContext, model: UvlModel): void {
  c.advance();
  const ref = c.parseReference();
  if (!ref) {
    c.expected("a name after 'namespace'");
    c.skipLine();
    return;
  }
  model.namespace = ref;
}

// includes: 'include' NEWLINE INDENT includeLine* DEDENT
// includeLine: languageLevel NEWLINE
// languageLevel: majorLevel ('.' (minorLevel | '*'))?
function parseIncludes(c: ParseContext, model: UvlModel): void {
  if (!sectionBlock(c, 'include', 'the language levels')) return;
  blockLines(
    c,
    (k) => MAJOR_LEVELS[k] !== undefined,
    () => {
      const s = c.p;
      const level: LanguageLevel = { major: MAJOR_LEVELS[c.kind()]!, span: c.span(c.starts[s]!, c.ends[s]!) };
      c.advance();
      if (c.parseOptional(T.DOT)) {
        const minor = MINOR_LEVELS[c.kind()];
        if (minor !== undefined) level.minor = minor;
        else if (c.kind() === T.MUL) level.minor = '*';
        else {
          c.expected("a minor language level (group-cardinality, feature-cardinality, aggregate-function, string-constraints) or '*'");
          c.skipLine();
          return;
        }
        c.advance();
      }
      level.span = c.exprSpan(s);
      model.includes.push(level);
      c.expectNewline('the language level');
    },
    'a language level (Boolean, Arithmetic or Type)',
  );
  c.expectBlockEnd('the end of the include section');
}

// imports: 'imports' NEWLINE INDENT importLine* DEDENT
// importLine: ns=reference ('as' alias=reference)? NEWLINE
function parseImports(c: ParseContext, model: UvlModel): void {
  if (!sectionBlock(c, 'imports', 'the imported models')) return;
  blockLines(
    c,
    isId,
    () => {
      const s = c.p;
      const namespace = c.parseReference();
      if (!namespace) {
        c.skipLine();
        return;
      }
      const imp: Import = { namespace, prefix: namespace.name, span: namespace.span };
      if (c.parseOptional(T.AS)) {
        const alias = c.parseReference();
        if (!alias) {
          c.expected("a name after 'as'");
          c.skipLine();
          return;
        }
        imp.alias = alias;
        imp.prefix = alias.name;
      }
      imp.span = c.exprSpan(s);
      model.imports.push(imp);
      c.expectNewline(`the import of '${namespace.name}'`);
    },
    'an imported model',
  );
  c.expectBlockEnd('the end of the imports section');
}

// features: 'features' NEWLINE INDENT feature DEDENT
function parseFeatures(c: ParseContext, model: UvlModel): void {
  if (!sectionBlock(c, 'features', 'the root feature')) return;
  if (!isFeatureStart(c.kind())) {
    c.expected('the root feature');
    c.skipLine();
  } else {
    const root = parseFeature(c, 0);
    if (root) model.root = root;
  }
  while (c.kind() === T.NEWLINE) c.strayNewline('the end of the features section');
  if (c.kind() === T.DEDENT || c.kind() === T.EOF) {
    if (c.kind() === T.DEDENT) c.advance();
    return;
  }
  if (GROUP_KINDS[c.kind()] !== undefined) {
    c.errorAt(c.p, `group '${c.tokenText(c.p)}' must be indented below the feature it belongs to`);
  } else if (isFeatureStart(c.kind())) {
    c.errorAt(c.p, `a model has exactly one root feature; found a second one, ${c.describe(c.p)} (indent it under a group of '${model.root?.name ?? 'the root'}')`);
  } else c.expected('the end of the features section');
  c.skipToBlockEnd();
}

// constraints: 'constraints' NEWLINE INDENT constraintLine* DEDENT
// constraintLine: constraint NEWLINE
function parseConstraints(c: ParseContext, model: UvlModel): void {
  if (!sectionBlock(c, 'constraints', 'the constraints')) return;
  blockLines(
    c,
    canStartExpression,
    () => {
      const e = parseConstraint(c);
      if (!e) {
        c.skipLine();
        return;
      }
      model.constraints.push(e);
      if (c.kind() === T.NEWLINE) c.advance();
      else {
        c.expected("end of line after the constraint (an operator such as & | => <=> or a comparison may be missing)");
        c.skipLine();
      }
    },
    'a constraint',
  );
  c.expectBlockEnd('the end of the constraints section');
}

// featureModel: namespace? NEWLINE? includes? NEWLINE? imports? NEWLINE? features? NEWLINE? constraints? EOF
// `stage` is the position in that sequence of the last element read: a section may only
// follow elements before it, and each NEWLINE? slot takes at most one line break.
const SECTIONS: Record<number, [number, string, (c: ParseContext, model: UvlModel) => void]> = {
  [T.NAMESPACE]: [1, 'namespace', parseNamespace],
  [T.INCLUDE]: [3, 'include', parseIncludes],
  [T.IMPORTS]: [5, 'imports', parseImports],
  [T.FEATURES]: [7, 'features', parseFeatures],
  [T.CONSTRAINTS]: [9, 'constraints', parseConstraints],
};

/** The whole model, section by section, into `model`. */
export function parseModel(c: ParseContext, model: UvlModel): void {
  let stage = 0;
  let sawSection = false;
  while (c.kind() !== T.EOF) {
    const k = c.kind();
    if (k === T.NEWLINE && stage < 8) {
      stage = stage + 2 - (stage % 2); // the next NEWLINE? slot: 2, 4, 6 or 8
      c.advance();
      continue;
    }
    const section = SECTIONS[k];
    if (section) {
      const [order, name, parse] = section;
      if (order <= stage) {
        let message: string;
        if (order === 1 && !sawSection) message = "'namespace' must be the first line of the model: not even a comment or a blank line may come before it";
        else if (order === stage) message = `the '${name}' section appears twice`;
        else message = `the '${name}' section is out of place (the order is: namespace, include, imports, features, constraints)`;
        c.errorAt(c.p, message, 'section-order');
      }
      sawSection = true;
      stage = Math.max(stage, order);
      const before = c.p;
      parse(c, model);
      if (c.p === before) c.advance();
      continue;
    }
    // Always an error: what follows is skipped, so a warning would hide lost content.
    if (k === T.INDENT) c.errorAt(c.p, 'unexpected indentation at the top level of the model (sections start at the left margin)', 'unexpected-token', false);
    else if (k === T.NEWLINE) c.errorAt(c.p, 'unexpected line break between sections');
    else c.expected("'namespace', 'include', 'imports', 'features' or 'constraints'");
    // Resynchronise at the next line that starts at the left margin.
    const before = c.p;
    c.skipLine();
    while (c.kind() === T.DEDENT) c.advance();
    if (c.p === before) c.advance();
  }
}
