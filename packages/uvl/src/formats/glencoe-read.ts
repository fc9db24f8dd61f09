// Glencoe JSON to UVL: `features` (id -> {name, optional, type FEATURE|XOR|OR|GENOR with
// min/max, note or description}), `tree` ({id, children}) and `constraints` (name -> term of
// FeatureTerm, NotTerm, AndTerm, OrTerm, ImpliesTerm, EquivalentTerm, and the editor's
// RequiresTerm / ExcludesTerm, and XorTerm as older flamapy writers write it). As the hub's Glencoe writer and the Glencoe editor write it.
// Semantics (flamapy's reader): the tree root is selected, a child implies its parent; a
// feature's `type` says how its children are grouped: FEATURE each child on its own
// (mandatory unless `optional`), XOR exactly one, OR at least one, GENOR min to max.

import { addSolitary, buildUvl, formatError, newFeature, positionOf, type FormatReadResult, type Formula, type ImportedFeature } from './imported.ts';

class ReadError extends Error {}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (v: Json | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const KNOWN_FEATURE_KEYS = new Set(['id', 'name', 'optional', 'type', 'min', 'max', 'note', 'description', 'hidden', 'abstract']);

/** JSON.parse's error as `Line l:c - …` (Node gives a position or a line and column). */
function jsonError(text: string, error: Error): string {
  const lc = /line (\d+) column (\d+)/.exec(error.message);
  if (lc) return formatError(Number(lc[1]), Number(lc[2]) - 1, `not valid JSON: ${error.message}`);
  const pos = /position (\d+)/.exec(error.message);
  const { line, column } = positionOf(text, pos ? Number(pos[1]) : text.length);
  return formatError(line, column, `not valid JSON: ${error.message.replace(/ in JSON at position \d+.*$/, '')}`);
}

interface Context {
  text: string;
  losses: string[];
  byId: Map<string, ImportedFeature>;
}

/** An error placed at the first mention of a JSON key or value (JSON values carry no position). */
function fail(ctx: Context, near: string, message: string): never {
  const at = ctx.text.indexOf(JSON.stringify(near));
  const { line, column } = at < 0 ? { line: 1, column: 0 } : positionOf(ctx.text, at);
  throw new ReadError(formatError(line, column, message));
}

/**
 * A GENOR group's min and max (min 0 and max unbounded when absent; a negative max is unbounded, as
 * flamapy writes it). A value UVL cannot hold is refused by name (`min -5`), where it used to reach
 * the printer and come back as "the converted model does not parse as UVL" or as a group `[-5..2]`.
 */
function groupBounds(ctx: Context, id: string, info: JsonObject): { min: number; max: number | '*' } {
  const whole = (v: number) => Number.isSafeInteger(v) && v >= 0;
  const min = typeof info.min === 'number' ? info.min : 0;
  if (!whole(min)) fail(ctx, id, `feature '${id}' (GENOR) has min ${String(info.min)}: a group's min must be a whole number, 0 or more`);
  const max = typeof info.max === 'number' && info.max >= 0 ? info.max : '*';
  if (max !== '*' && !whole(max)) fail(ctx, id, `feature '${id}' (GENOR) has max ${String(info.max)}: a group's max must be a whole number, or -1 for no limit`);
  if (max !== '*' && max < min) fail(ctx, id, `feature '${id}' (GENOR) has max ${max} below its min ${min}`);
  return { min, max };
}

function readNode(ctx: Context, node: Json, infos: JsonObject): ImportedFeature {
  if (!isObject(node) || typeof node.id !== 'string') fail(ctx, 'tree', 'every node of "tree" needs a string "id"');
  const id = node.id;
  if (ctx.byId.has(id)) fail(ctx, id, `feature '${id}' appears twice in the tree`);
  const info = isObject(infos[id]) ? infos[id] : {};
  const f = newFeature(typeof info.name === 'string' && info.name !== '' ? info.name : id);
  ctx.byId.set(id, f);
  if (info.abstract === true) f.abstract = true;
  if (info.hidden === true) f.attributes.push({ name: 'hidden', value: undefined });
  // The hub's writer writes `note`, the editor `description`: one becomes the UVL description.
  const texts = [info.description, info.note].filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim());
  if (texts.length > 0) f.attributes.push({ name: 'description', value: texts[0] });
  if (texts.length > 1 && texts[1] !== texts[0]) f.attributes.push({ name: 'note', value: texts[1] });
  for (const key of Object.keys(info)) if (!KNOWN_FEATURE_KEYS.has(key)) ctx.losses.push(`property \`${key}\` of feature \`${f.name}\` dropped: it has no UVL form`);
  const children = Array.isArray(node.children) ? node.children.map((c) => readNode(ctx, c, infos)) : [];
  if (children.length === 0) return f;
  const type = typeof info.type === 'string' ? info.type.toUpperCase() : 'FEATURE';
  if (type === 'XOR') f.groups.push({ kind: 'alternative', children });
  else if (type === 'OR') f.groups.push({ kind: 'or', children });
  else if (type === 'GENOR') f.groups.push({ kind: 'cardinality', ...groupBounds(ctx, id, info), children });
  else {
    if (type !== 'FEATURE') fail(ctx, id, `feature '${id}' has type '${String(info.type)}' (expected FEATURE, XOR, OR or GENOR)`);
    (Array.isArray(node.children) ? node.children : []).forEach((c, i) => {
      const childInfo = isObject(c) && typeof c.id === 'string' && isObject(infos[c.id]) ? infos[c.id] as JsonObject : {};
      addSolitary(f, children[i]!, childInfo.optional === false);
    });
  }
  return f;
}

function readTerm(ctx: Context, term: Json, name: string): Formula {
  if (!isObject(term) || typeof term.type !== 'string' || !Array.isArray(term.operands)) fail(ctx, name, `constraint '${name}': a term needs "type" and "operands"`);
  const ops = term.operands;
  const sub = (): Formula[] => ops.map((o) => readTerm(ctx, o, name));
  const arity = (n: number): void => {
    if (ops.length !== n) fail(ctx, name, `constraint '${name}': ${String(term.type)} needs ${n} operand${n > 1 ? 's' : ''}, found ${ops.length}`);
  };
  switch (term.type) {
    case 'FeatureTerm': {
      arity(1);
      const feature = typeof ops[0] === 'string' ? ctx.byId.get(ops[0]) : undefined;
      if (!feature) fail(ctx, name, `constraint '${name}' names '${String(ops[0])}', which is not a feature of the tree`);
      return { kind: 'var', feature };
    }
    case 'NotTerm':
      arity(1);
      return { kind: 'not', operand: sub()[0]! };
    case 'AndTerm':
    case 'OrTerm':
      if (ops.length === 0) fail(ctx, name, `constraint '${name}': ${term.type} has no operand`);
      return { kind: term.type === 'AndTerm' ? 'and' : 'or', operands: sub() };
    case 'ImpliesTerm':
    case 'RequiresTerm':
    case 'EquivalentTerm': {
      arity(2);
      const [left, right] = sub();
      return { kind: term.type === 'EquivalentTerm' ? 'equiv' : 'implies', left: left!, right: right! };
    }
    case 'XorTerm': {
      arity(2);
      const [left, right] = sub();
      return { kind: 'not', operand: { kind: 'equiv', left: left!, right: right! } };
    }
    case 'ExcludesTerm': {
      arity(2);
      return { kind: 'not', operand: { kind: 'and', operands: sub() } };
    }
    default:
      fail(ctx, name, `constraint '${name}': unknown term type '${term.type}'`);
  }
}

/** Glencoe JSON text as UVL, with the losses; or errors with line and column. */
export function readGlencoe(text: string): FormatReadResult {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let doc: Json;
  try {
    doc = JSON.parse(source) as Json;
  } catch (error) {
    return { losses: [], errors: [jsonError(source, error as Error)] };
  }
  const ctx: Context = { text: source, losses: [], byId: new Map() };
  try {
    if (!isObject(doc)) throw new ReadError(formatError(1, 0, 'a Glencoe model is a JSON object'));
    if (!isObject(doc.tree)) throw new ReadError(formatError(1, 0, 'no "tree" object: the model has no features'));
    const infos = isObject(doc.features) ? doc.features : {};
    const root = readNode(ctx, doc.tree, infos);
    for (const id of Object.keys(infos)) if (!ctx.byId.has(id)) ctx.losses.push(`feature \`${id}\` dropped: it is listed in "features" but not in "tree"`);
    const constraints: Formula[] = [];
    if (isObject(doc.constraints)) for (const [name, term] of Object.entries(doc.constraints)) constraints.push(readTerm(ctx, term, name));
    if (typeof doc.note === 'string' && doc.note.trim()) ctx.losses.push(`the model's note dropped: ${doc.note.trim()}`);
    for (const key of Object.keys(doc)) {
      if (!['id', 'name', 'features', 'tree', 'constraints', 'note'].includes(key)) ctx.losses.push(`top-level "${key}" dropped: it has no UVL form`);
    }
    return buildUvl(root, constraints, ctx.losses);
  } catch (error) {
    if (error instanceof ReadError) return { losses: ctx.losses, errors: [error.message] };
    throw error;
  }
}
