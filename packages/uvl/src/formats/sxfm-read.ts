// SPLOT SXFM to UVL: the XML wrapper <feature_model> holds an indented feature tree in
// <feature_tree> and CNF clauses in <constraints>. Tree lines: `:r name (id)` the root,
// `:m` / `:o` a mandatory / optional child, `:g (id) [min,max]` a group of the feature above
// it (not a feature itself), `: name (id)` a member of the group above it. A line's parent is
// the nearest line above it indented less. Clauses `C1: ~a or b` name features by id (a name
// is accepted when no id matches). SPLOT's semantics: the root is selected, a child implies
// its parent, a group selects between min and max members (`*` = all) with its feature.

import { addSolitary, buildUvl, formatError, newFeature, positionOf, type FormatReadResult, type Formula, type ImportedFeature, type ImportedGroup } from './imported.ts';
import { errorAt, parseXml, type XmlElement } from './xml.ts';

class ReadError extends Error {}

interface TreeLine {
  kind: 'r' | 'm' | 'o' | 'g' | 'member';
  indent: number;
  name: string;
  /** The id in parentheses; undefined when the line has none (SPLOT then numbers the node itself). */
  id: string | undefined;
  min?: number;
  max?: number | '*';
  line: number;
  column: number;
}

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|amp|lt|gt|quot|apos);/gi, (_, e: string) => {
    const lower = e.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(parseInt(lower.slice(1), 10));
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[lower]!;
  });
}

/** The raw text between an element's start and end tags, and the offset where it starts. */
function rawBody(text: string, e: XmlElement): { body: string; start: number } {
  const start = text.indexOf('>', e.offset) + 1;
  const end = text.indexOf(`</${e.name}`, start);
  return { body: text.slice(start, end < 0 ? start : end), start };
}

/**
 * `name (id)`, or a bare name without id. Names may hold parentheses: a split where name and
 * id are equal (as the hub's writer writes them) wins, else the last parenthesised id.
 */
function nameAndId(s: string): { name: string; id: string | undefined } {
  const trimmed = s.trim();
  if (trimmed.endsWith(')')) {
    for (let i = trimmed.indexOf(' ('); i >= 0; i = trimmed.indexOf(' (', i + 1)) {
      const name = trimmed.slice(0, i).trim();
      if (name === trimmed.slice(i + 2, -1).trim()) return { name: decodeEntities(name), id: decodeEntities(name) };
    }
  }
  const m = /^(.*?)\s*\(([^()]*)\)\s*$/.exec(s);
  if (!m || m[2]!.trim() === '') return { name: decodeEntities((m ? m[1]! : s).trim()), id: undefined };
  const name = decodeEntities(m[1]!.trim());
  const id = decodeEntities(m[2]!.trim());
  return { name: name || id, id };
}

function parseTreeLine(raw: string, line: number, column: number): TreeLine | undefined {
  const indentMatch = /^[ \t]*/.exec(raw)!;
  const rest = raw.slice(indentMatch[0].length).trimEnd();
  if (rest === '') return undefined;
  const at = (message: string): never => {
    throw new ReadError(formatError(line, column + indentMatch[0].length, message));
  };
  // A tab is one level, as SPLOT writes them; spaces count one each.
  const indent = indentMatch[0].length;
  const m = /^:([rmog]?)(?=\s|$|\()\s*(.*)$/.exec(rest);
  if (!m) return at(`expected a tree line (:r, :m, :o, :g or :), found '${rest.slice(0, 40)}'`);
  const tag = m[1]!;
  const body = m[2]!;
  if (tag === 'g') {
    const g = /^(?:\(([^()]*)\))?\s*\[\s*(\d+)\s*,\s*(\d+|\*)\s*\]\s*$/.exec(body);
    if (!g) return at(`a group line needs a cardinality [min,max], found ':g ${body}'`);
    const max = g[3] === '*' ? '*' : Number(g[3]);
    return { kind: 'g', indent, name: '', id: g[1] ?? '', min: Number(g[2]), max, line, column };
  }
  if (body === '') return at(`a feature line needs a name`);
  const { name, id } = nameAndId(body);
  return { kind: tag === '' ? 'member' : (tag as 'r' | 'm' | 'o'), indent, name, id, line, column };
}

interface TreeNode {
  indent: number;
  /** A feature line's feature; a group line's group. */
  feature?: ImportedFeature;
  group?: ImportedGroup;
}

/**
 * The tree; `byId` gets the features with an id, `all` every feature in order (a feature without
 * id is a feature of its own, as SPLOT numbers such nodes itself, even when its name repeats).
 */
function readTree(text: string, treeElement: XmlElement, byId: Map<string, ImportedFeature>, all: ImportedFeature[], losses: string[]): ImportedFeature {
  const { body, start } = rawBody(text, treeElement);
  const origin = positionOf(text, start);
  const stack: TreeNode[] = [];
  let root: ImportedFeature | undefined;
  const rows = body.split(/\r\n|\r|\n/);
  for (let i = 0; i < rows.length; i++) {
    const line = origin.line + i;
    const column = i === 0 ? origin.column : 0;
    const t = parseTreeLine(rows[i]!, line, column);
    if (!t) continue;
    const fail = (message: string): never => {
      throw new ReadError(formatError(line, column + t.indent, message));
    };
    while (stack.length > 0 && stack[stack.length - 1]!.indent >= t.indent) stack.pop();
    const parent = stack[stack.length - 1];
    if (t.kind === 'r') {
      if (root) fail('a second root (:r)');
      root = newFeature(t.name);
      if (t.id !== undefined) byId.set(t.id, root);
      all.push(root);
      stack.push({ indent: t.indent, feature: root });
      continue;
    }
    if (!parent) fail(root ? 'this line is not indented below a feature' : 'the tree must start with the root (:r)');
    if (t.kind === 'g') {
      if (!parent!.feature) fail('a group (:g) must be indented below a feature');
      const group: ImportedGroup = { kind: 'cardinality', min: t.min!, max: t.max!, children: [] };
      parent!.feature!.groups.push(group);
      stack.push({ indent: t.indent, group });
      continue;
    }
    const f = newFeature(t.name);
    if (t.id !== undefined) {
      if (byId.has(t.id)) fail(`feature id '${t.id}' is used twice`);
      byId.set(t.id, f);
    }
    all.push(f);
    // Published SXFM files put `:m` / `:o` lines inside groups and `:` lines below features
    // without `:g`: read by where they stand (a group's member, an optional child), and listed.
    if (parent!.group) {
      if (t.kind !== 'member') losses.push(`\`:${t.kind} ${t.name}\` (line ${line}) stands in a group: read as a group member (the group decides, not :${t.kind})`);
      parent!.group.children.push(f);
    } else {
      if (t.kind === 'member') losses.push(`\`: ${t.name}\` (line ${line}) stands below a feature without a group (:g): read as an optional feature`);
      addSolitary(parent!.feature!, f, t.kind === 'm');
    }
    stack.push({ indent: t.indent, feature: f });
  }
  if (!root) throw new ReadError(errorAt(text, treeElement, 'the feature tree has no root (:r)'));
  return root;
}

/** The clauses of <constraints>: one per `label: literal or literal ...` line. */
function readClauses(text: string, element: XmlElement, byId: Map<string, ImportedFeature>, byName: Map<string, ImportedFeature>): Formula[] {
  const { body, start } = rawBody(text, element);
  const origin = positionOf(text, start);
  const out: Formula[] = [];
  // Comments (the SXFM writer lists left-out constraints in them) are not clauses.
  const rows = body.replace(/<!--[\s\S]*?-->/g, (c) => c.replace(/[^\r\n]/g, ' ')).split(/\r\n|\r|\n/);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (row.trim() === '') continue;
    const line = origin.line + i;
    const column = i === 0 ? origin.column : 0;
    const colon = row.indexOf(':');
    if (colon < 0) throw new ReadError(formatError(line, column, `expected a clause 'label: a or ~b', found '${row.trim().slice(0, 40)}'`));
    const literals: Formula[] = [];
    // Each literal with its offset in the row, for the column of an error.
    const separator = /\s+or\s+/gi;
    const pieces: { text: string; at: number }[] = [];
    let from = colon + 1;
    for (let m = separator.exec(row); m; m = separator.exec(row)) {
      if (m.index < from) continue;
      pieces.push({ text: row.slice(from, m.index), at: from });
      from = m.index + m[0].length;
    }
    pieces.push({ text: row.slice(from), at: from });
    for (const piece of pieces) {
      const at = column + piece.at + (piece.text.length - piece.text.trimStart().length);
      let lit = decodeEntities(piece.text.trim());
      const negated = lit.startsWith('~') || lit.startsWith('!');
      if (negated) lit = lit.slice(1).trim();
      const feature = byId.get(lit) ?? byName.get(lit);
      if (!feature) throw new ReadError(formatError(line, at, lit ? `clause names '${lit}', which is not a feature id of the tree` : 'empty literal in a clause'));
      const v: Formula = { kind: 'var', feature };
      literals.push(negated ? { kind: 'not', operand: v } : v);
    }
    out.push(literals.length === 1 ? literals[0]! : { kind: 'or', operands: literals });
  }
  return out;
}

/** SPLOT SXFM text as UVL, with the losses; or errors with line and column. */
export function readSxfm(text: string): FormatReadResult {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const parsed = parseXml(source);
  if ('error' in parsed) return { losses: [], errors: [parsed.error] };
  const doc = parsed.root;
  const losses: string[] = [];
  try {
    if (doc.name !== 'feature_model') throw new ReadError(errorAt(source, doc, `the root element is <${doc.name}>, not <feature_model>`));
    const tree = doc.children.find((c) => c.name === 'feature_tree');
    if (!tree) throw new ReadError(errorAt(source, doc, 'no <feature_tree> element'));
    const byId = new Map<string, ImportedFeature>();
    const all: ImportedFeature[] = [];
    const root = readTree(source, tree, byId, all, losses);
    const byName = new Map<string, ImportedFeature>();
    for (const f of all) if (!byName.has(f.name)) byName.set(f.name, f);
    const constraints: Formula[] = [];
    for (const c of doc.children) {
      if (c.name === 'constraints') for (const k of readClauses(source, c, byId, byName)) constraints.push(k);
      else if (c.name === 'meta') {
        for (const d of c.children) if (d.text.trim()) losses.push(`meta data <${d.attributes.name ?? d.name}> dropped: UVL has no place for it ('${d.text.trim().slice(0, 60)}')`);
      } else if (c.name !== 'feature_tree') losses.push(`element <${c.name}> dropped: it has no UVL form`);
    }
    return buildUvl(root, constraints, losses);
  } catch (error) {
    if (error instanceof ReadError) return { losses, errors: [error.message] };
    throw error;
  }
}
