// The feature tree of the UVL parser: features and the groups below them, nested at most
// MAX_DEPTH levels.

import type { Feature, FeatureType, Group, GroupKind } from './ast.ts';
import { parseAttributes } from './parser-attributes.ts';
import { isId, MAX_DEPTH, type ParseContext } from './parser-context.ts';
import { T, parseCardinalityText } from './tokens.ts';

const FEATURE_TYPES: Record<number, FeatureType> = {
  [T.STRING_KEY]: 'String',
  [T.INTEGER_KEY]: 'Integer',
  [T.BOOLEAN_KEY]: 'Boolean',
  [T.REAL_KEY]: 'Real',
};
export const GROUP_KINDS: Record<number, GroupKind> = {
  [T.OR_GROUP]: 'or',
  [T.ALTERNATIVE]: 'alternative',
  [T.OPTIONAL]: 'optional',
  [T.MANDATORY]: 'mandatory',
  [T.CARDINALITY]: 'cardinality',
};

const GROUP_HINT = 'a group keyword (mandatory, optional, alternative, or, or a cardinality such as [1..2])';

export const isFeatureStart = (k: number): boolean => isId(k) || FEATURE_TYPES[k] !== undefined;

// feature: featureType? reference featureCardinality? attributes? NEWLINE (INDENT group+ DEDENT)?
export function parseFeature(c: ParseContext, depth: number): Feature | undefined {
  const feature = parseFeatureLine(c);
  if (feature && c.kind() === T.INDENT) parseGroups(c, feature, depth);
  return feature;
}

/** A feature's own line, up to and over its NEWLINE; undefined (the line skipped) without a name. */
function parseFeatureLine(c: ParseContext): Feature | undefined {
  const s = c.p;
  const type: FeatureType | undefined = FEATURE_TYPES[c.kind()];
  if (type !== undefined) c.advance();
  if (!isId(c.kind())) {
    c.expected(type ? `a feature name after '${type}'` : 'a feature name');
    c.skipLine();
    return undefined;
  }
  const reference = c.parseReference();
  if (!reference) {
    c.skipLine();
    return undefined;
  }
  const feature: Feature = { name: reference.name, reference, attributes: [], groups: [], span: reference.span };
  if (type !== undefined) feature.type = type;
  let lineOk = true;
  // featureCardinality: 'cardinality' CARDINALITY
  if (c.kind() === T.CARDINALITY_KEY) {
    c.advance();
    if (c.kind() === T.CARDINALITY) {
      feature.cardinality = parseCardinalityText(c.tokenText(c.p));
      c.advance();
    } else {
      c.expected("a cardinality such as [1..3] (written without spaces) after 'cardinality'");
      lineOk = false;
    }
  }
  if (lineOk && c.kind() === T.OPEN_BRACE) {
    const before = c.diagnostics.length;
    feature.attributes = parseAttributes(c);
    if (c.diagnostics.length > before && c.kind() !== T.NEWLINE) lineOk = false;
  }
  feature.span = c.span(c.starts[s]!, c.ends[Math.max(s, c.p - 1)]!);
  if (lineOk) c.expectNewline(() => `feature '${reference.name}'`);
  else c.skipRestOfLine();
  return feature;
}

/** At the INDENT below a feature: its groups (group+), then the end of the block. */
function parseGroups(c: ParseContext, feature: Feature, depth: number): void {
  if (depth >= MAX_DEPTH) {
    c.errorAt(c.p, `feature tree nested more than ${MAX_DEPTH} levels deep`, 'too-deep', false);
    c.skipBlock();
    return;
  }
  c.advance();
  const name = feature.name;
  while (c.kind() !== T.DEDENT && c.kind() !== T.EOF) {
    if (GROUP_KINDS[c.kind()] !== undefined) {
      feature.groups.push(parseGroup(c, depth));
      continue;
    }
    if (c.kind() === T.NEWLINE) {
      c.strayNewline(`${GROUP_HINT} under feature '${name}'`);
      continue;
    }
    if (isFeatureStart(c.kind())) c.errorAt(c.p, `expected ${GROUP_HINT} above ${c.describe(c.p)}: a child feature must be listed under a group of '${name}'`);
    else c.expected(`${GROUP_HINT} under feature '${name}'`);
    c.skipLine();
  }
  if (c.kind() === T.DEDENT) c.advance();
}

// group: (ORGROUP | ALTERNATIVE | OPTIONAL | MANDATORY | CARDINALITY) groupSpec
// groupSpec: NEWLINE INDENT feature+ DEDENT
function parseGroup(c: ParseContext, depth: number): Group {
  const s = c.p;
  const groupKind = GROUP_KINDS[c.kind()]!;
  const group: Group = { kind: groupKind, children: [], span: c.span(c.starts[s]!, c.ends[s]!) };
  const label = groupKind === 'cardinality' ? c.tokenText(c.p) : groupKind;
  if (groupKind === 'cardinality') group.cardinality = parseCardinalityText(c.tokenText(c.p));
  c.advance();
  c.expectNewline(() => `'${label}'`);
  if (c.kind() !== T.INDENT) {
    c.expected(`the features of group '${label}', indented below it`);
    return group;
  }
  if (depth + 1 >= MAX_DEPTH) {
    c.errorAt(c.p, `feature tree nested more than ${MAX_DEPTH} levels deep`, 'too-deep', false);
    c.skipBlock();
    return group;
  }
  c.advance();
  while (c.kind() !== T.DEDENT && c.kind() !== T.EOF) {
    if (isFeatureStart(c.kind())) {
      const child = parseFeature(c, depth + 1);
      if (child) group.children.push(child);
      continue;
    }
    if (c.kind() === T.NEWLINE) {
      c.strayNewline(`a feature of group '${label}'`);
      continue;
    }
    if (GROUP_KINDS[c.kind()] !== undefined) c.expected(`a feature of group '${label}' (a group keyword must follow a feature)`);
    else c.expected(`a feature of group '${label}'`);
    c.skipLine();
  }
  if (c.kind() === T.DEDENT) c.advance();
  return group;
}
