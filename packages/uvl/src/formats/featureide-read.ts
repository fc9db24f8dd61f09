// FeatureIDE XML (`featureModel`, and `extendedFeatureModel` with typed attributes) to UVL.
// FeatureIDE's semantics: the root is selected; a child implies its parent; below an `and`
// each child is mandatory or optional (its own `mandatory` flag), below an `or` at least one
// child and below an `alt` exactly one is selected with the parent (the flag is ignored there,
// as FeatureIDE ignores it); constraints are `rule` elements over the Boolean operators.

import { addSolitary, buildUvl, newFeature, type FormatReadResult, type Formula, type ImportedAttribute, type ImportedFeature } from './imported.ts';
import { errorAt, parseXml, type XmlElement } from './xml.ts';

const FEATURE_TAGS = new Set(['and', 'or', 'alt', 'feature']);
const FORMULA_TAGS = new Set(['var', 'not', 'conj', 'disj', 'imp', 'eq', 'atmost1']);
/** Top-level elements that only hold editor settings (layout, analysis options): dropped silently. */
const SETTINGS_TAGS = new Set(['properties', 'calculations', 'graphics']);

class ReadError extends Error {}

interface Context {
  text: string;
  losses: string[];
  byName: Map<string, ImportedFeature>;
}

function fail(ctx: Context, at: XmlElement, message: string): never {
  throw new ReadError(errorAt(ctx.text, at, message));
}

function isTrue(value: string | undefined): boolean {
  return value?.trim().toLowerCase() === 'true';
}

/** A typed attribute of an extended model as a UVL attribute value, or a loss. */
function readAttribute(ctx: Context, owner: string, e: XmlElement): ImportedAttribute | undefined {
  const name = e.attributes.name;
  if (!name) fail(ctx, e, 'an <attribute> needs a name');
  const type = (e.attributes.type ?? 'string').toLowerCase();
  const raw = e.attributes.value;
  const where = `attribute \`${name}\` of \`${owner}\``;
  if (e.attributes.unit) ctx.losses.push(`unit \`${e.attributes.unit}\` of ${where} dropped: UVL attributes have no unit`);
  if (isTrue(e.attributes.recursive)) ctx.losses.push(`${where} is recursive in FeatureIDE (its subfeatures inherit it): kept on \`${owner}\` only`);
  if (isTrue(e.attributes.configurable)) ctx.losses.push(`${where} is configurable in FeatureIDE (set per configuration): kept with its value in the model`);
  if (raw === undefined) return { name, value: undefined };
  if (type === 'long' || type === 'double' || type === 'int' || type === 'integer') {
    const n = Number(raw.trim());
    if (raw.trim() !== '' && Number.isFinite(n)) return { name, value: n };
    ctx.losses.push(`${where}: value '${raw}' is not a number of type ${type}; kept as a string`);
    return { name, value: raw };
  }
  if (type === 'boolean') {
    const v = raw.trim().toLowerCase();
    if (v === 'true' || v === 'false') return { name, value: v === 'true' };
    ctx.losses.push(`${where}: value '${raw}' is not a boolean; kept as a string`);
    return { name, value: raw };
  }
  if (type !== 'string') ctx.losses.push(`${where}: FeatureIDE type \`${type}\` has no UVL form; its value is kept as a string`);
  return { name, value: raw };
}

function readFeature(ctx: Context, e: XmlElement): ImportedFeature {
  const name = e.attributes.name;
  if (name === undefined || name === '') fail(ctx, e, `a <${e.name}> feature needs a name`);
  if (ctx.byName.has(name)) fail(ctx, e, `feature '${name}' is defined twice`);
  const f = newFeature(name);
  ctx.byName.set(name, f);
  f.abstract = isTrue(e.attributes.abstract);
  const group = e.name === 'or' ? 'or' : e.name === 'alt' ? 'alternative' : undefined;
  if (isTrue(e.attributes.hidden)) f.attributes.push({ name: 'hidden', value: undefined });
  for (const child of e.children) {
    if (FEATURE_TAGS.has(child.name)) {
      const c = readFeature(ctx, child);
      if (!group) addSolitary(f, c, isTrue(child.attributes.mandatory));
      else if (f.groups.length === 0) f.groups.push({ kind: group, children: [c] });
      else f.groups[0]!.children.push(c);
    }
    else if (child.name === 'description') {
      const text = child.text.trim();
      if (text) f.attributes.push({ name: 'description', value: text });
    } else if (child.name === 'attribute') {
      const a = readAttribute(ctx, name, child);
      if (a) f.attributes.push(a);
    } else if (child.name !== 'graphics') {
      ctx.losses.push(`element <${child.name}> of feature \`${name}\` dropped: it has no UVL form`);
    }
  }
  return f;
}

function operands(ctx: Context, e: XmlElement, count?: number): Formula[] {
  const list = e.children.filter((c) => c.name !== 'description');
  if (count !== undefined && list.length !== count) fail(ctx, e, `<${e.name}> needs ${count} operand${count > 1 ? 's' : ''}, found ${list.length}`);
  if (list.length === 0) fail(ctx, e, `<${e.name}> has no operand`);
  return list.map((c) => readFormula(ctx, c));
}

function readFormula(ctx: Context, e: XmlElement): Formula {
  switch (e.name) {
    case 'var': {
      const feature = ctx.byName.get(e.text.trim());
      if (!feature) fail(ctx, e, `constraint names '${e.text.trim()}', which is not a feature of the model`);
      return { kind: 'var', feature };
    }
    case 'not':
      return { kind: 'not', operand: operands(ctx, e, 1)[0]! };
    case 'conj':
    case 'disj':
      return { kind: e.name === 'conj' ? 'and' : 'or', operands: operands(ctx, e) };
    case 'imp':
    case 'eq': {
      const [left, right] = operands(ctx, e, 2);
      return { kind: e.name === 'imp' ? 'implies' : 'equiv', left: left!, right: right! };
    }
    case 'atmost1': {
      // At most one operand holds: no two of them together (exact, quadratic in the operands).
      const list = operands(ctx, e);
      if (list.length === 1) return { kind: 'or', operands: [list[0]!, { kind: 'not', operand: list[0]! }] };
      const pairs: Formula[] = [];
      for (let i = 0; i < list.length; i++) {
        for (let j = i + 1; j < list.length; j++) pairs.push({ kind: 'not', operand: { kind: 'and', operands: [list[i]!, list[j]!] } });
      }
      return pairs.length === 1 ? pairs[0]! : { kind: 'and', operands: pairs };
    }
    default:
      fail(ctx, e, `unknown constraint element <${e.name}> (expected one of ${[...FORMULA_TAGS].join(', ')})`);
  }
}

function readConstraints(ctx: Context, e: XmlElement): Formula[] {
  const out: Formula[] = [];
  for (const rule of e.children) {
    if (rule.name !== 'rule') {
      ctx.losses.push(`element <${rule.name}> in <constraints> dropped: it has no UVL form`);
      continue;
    }
    const body = rule.children.filter((c) => FORMULA_TAGS.has(c.name));
    if (body.length !== 1) fail(ctx, rule, `a <rule> needs exactly one formula, found ${body.length}`);
    for (const c of rule.children) {
      if (c.name === 'description' && c.text.trim()) ctx.losses.push(`description of constraint ${out.length + 1} dropped: UVL constraints carry no text ('${c.text.trim()}')`);
      else if (!FORMULA_TAGS.has(c.name) && c.name !== 'description') ctx.losses.push(`element <${c.name}> of constraint ${out.length + 1} dropped: it has no UVL form`);
    }
    out.push(readFormula(ctx, body[0]!));
  }
  return out;
}

function hasContent(e: XmlElement): boolean {
  return e.children.length > 0 || e.text.trim() !== '';
}

/** FeatureIDE XML text as UVL, with the losses; or errors at the XML parser's line and column. */
export function readFeatureIde(text: string): FormatReadResult {
  const parsed = parseXml(text);
  if ('error' in parsed) return { losses: [], errors: [parsed.error] };
  const ctx: Context = { text, losses: [], byName: new Map() };
  const doc = parsed.root;
  try {
    if (doc.name !== 'featureModel' && doc.name !== 'extendedFeatureModel') fail(ctx, doc, `the root element is <${doc.name}>, not <featureModel> or <extendedFeatureModel>`);
    const struct = doc.children.find((c) => c.name === 'struct');
    if (!struct) fail(ctx, doc, 'no <struct> element: the model has no features');
    const roots = struct.children.filter((c) => FEATURE_TAGS.has(c.name));
    if (roots.length !== 1) fail(ctx, struct, `<struct> needs exactly one root feature, found ${roots.length}`);
    const root = readFeature(ctx, roots[0]!);
    const constraints: Formula[] = [];
    for (const c of doc.children) {
      if (c.name === 'constraints') for (const k of readConstraints(ctx, c)) constraints.push(k);
      else if (c.name === 'comments' && hasContent(c)) ctx.losses.push('<comments> dropped: UVL keeps no comments from another format');
      else if (c.name === 'featureOrder' && isTrue(c.attributes.userDefined)) ctx.losses.push('<featureOrder> dropped: UVL has no feature order apart from the tree');
      else if (c.name !== 'struct' && c.name !== 'constraints' && c.name !== 'comments' && c.name !== 'featureOrder' && !SETTINGS_TAGS.has(c.name) && hasContent(c)) {
        ctx.losses.push(`element <${c.name}> dropped: it has no UVL form`);
      }
    }
    return buildUvl(root, constraints, ctx.losses);
  } catch (error) {
    if (error instanceof ReadError) return { losses: ctx.losses, errors: [error.message] };
    throw error;
  }
}
