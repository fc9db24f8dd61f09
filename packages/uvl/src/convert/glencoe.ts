// Glencoe JSON as flamapy 2 writes it (GlencoeWriter): json.dumps(indent=4) of
// {id, name, features (sorted by name), tree (children sorted by name), constraints}.
// Constraints that Glencoe terms cannot express are left out and listed in a top-level
// "note" (flamapy fails on them instead).

import type { UvlModel } from '../ast.ts';
import { byName, isAlternative, isCardinal, isMandatory, isOr, prepareExport, type BoolExpr } from './common.ts';

const LEFT_NESTED_MAX = 32;

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

function term(e: BoolExpr): Json {
  switch (e.kind) {
    case 'var':
      return { type: 'FeatureTerm', operands: [e.name] };
    case 'not':
      return { type: 'NotTerm', operands: [term(e.operand)] };
    case 'implies':
      return { type: 'ImpliesTerm', operands: [term(e.left), term(e.right)] };
    case 'equiv':
      return { type: 'EquivalentTerm', operands: [term(e.left), term(e.right)] };
    case 'and':
    case 'or': {
      // flamapy's AST is binary and left-nested, as the reference parser reads A & B & C.
      // A long chain is nested as a balanced tree instead: the same formula, but its
      // indented JSON stays near-linear in size (left-nesting 20 000 operands would take
      // gigabytes of indentation) and shallow enough for any JSON reader.
      const type = e.kind === 'and' ? 'AndTerm' : 'OrTerm';
      const terms = e.operands.map(term);
      if (terms.length <= LEFT_NESTED_MAX) {
        let acc = terms[0]!;
        for (let i = 1; i < terms.length; i++) acc = { type, operands: [acc, terms[i]!] };
        return acc;
      }
      const balanced = (lo: number, hi: number): Json => {
        if (hi - lo === 1) return terms[lo]!;
        const mid = (lo + hi) >> 1;
        return { type, operands: [balanced(lo, mid), balanced(mid, hi)] };
      };
      return balanced(0, terms.length);
    }
  }
}

/** Python's json.dumps(..., indent=4) with its default ensure_ascii. */
function pythonJson(value: Json): string {
  return JSON.stringify(value, null, 4).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The model as Glencoe JSON. Throws UvlExportError for a constraint naming an unknown feature. */
export function toGlencoe(model: UvlModel): string {
  const x = prepareExport(model);
  const { features } = x.flat;
  const root = features[0]!;

  const featureInfo: { [key: string]: Json } = {};
  const order = features.map((_, i) => i).sort((a, b) => byName(features[a]!.name, features[b]!.name));
  for (const i of order) {
    const f = features[i]!;
    let type = 'FEATURE';
    if (f.relations.some(isAlternative)) type = 'XOR';
    else if (f.relations.some(isOr)) type = 'OR';
    else if (f.relations.some(isCardinal)) type = 'GENOR';
    // flamapy: mandatory means some relation of the parent is [1,1] over this one feature (by name).
    const parent = f.parent >= 0 ? features[f.parent]! : undefined;
    const mandatory = parent !== undefined && parent.relations.some((r) => isMandatory(r) && features[r.children[0]!]!.name === f.name);
    const info: { [key: string]: Json } = { name: f.name, optional: !mandatory, type, note: '' };
    if (type === 'GENOR') {
      const r = f.relations.find(isCardinal)!;
      info.min = r.min;
      info.max = r.max;
    }
    featureInfo[f.name] = info;
  }

  const tree = (i: number): Json => {
    const f = features[i]!;
    const node: { [key: string]: Json } = { id: f.name };
    const kids = f.relations.flatMap((r) => r.children).sort((a, b) => byName(features[a]!.name, features[b]!.name));
    if (kids.length > 0) node.children = kids.map(tree);
    return node;
  };

  const constraints: { [key: string]: Json } = {};
  for (const c of x.constraints) constraints[c.name] = term(c.expression);

  const result: { [key: string]: Json } = {
    id: `FM_${root.name}`,
    name: `FM_${root.name}`,
    features: featureInfo,
    tree: tree(0),
    constraints,
  };
  if (x.leftOut.length > 0) {
    result.note = `Left out ${x.leftOut.length} constraint${x.leftOut.length > 1 ? 's' : ''} that Glencoe cannot express (arithmetic, aggregate or string constraints): ${x.leftOut.join('; ')}`;
  }
  return pythonJson(result);
}
