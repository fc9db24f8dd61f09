// SPLOT SXFM as flamapy 2 writes it (SPLOTWriter): the tree with :r / :m / :o / :g
// lines indented by tabs, then each Boolean constraint as CNF clauses "Cn: a or ~b".
// Differences from flamapy, each on purpose:
// - a group that is neither or nor alternative (a cardinality [n..m], or [0..1] over
//   several features) is written as :g [n,m]; flamapy drops such subtrees;
// - constraints SXFM cannot express (arithmetic, aggregate, string) are left out and
//   listed in an XML comment (flamapy fails on them);
// - a Boolean constraint whose CNF by distribution would exceed 10 000 clauses is left
//   out the same way (SXFM has no auxiliary variables, and distribution is exponential);
// - &, < and > in names are escaped so that the file stays well-formed XML.

import type { UvlModel } from '../ast.ts';
import { isMandatory, isOptional, prepareExport, type BoolExpr } from './common.ts';

const TAB = '\t';
const MAX_CLAUSES = 10_000;

function xml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
export function xmlAttr(s: string): string {
  return xml(s).replace(/"/g, '&quot;');
}
function comment(s: string): string {
  return `<!-- ${s.replace(/--/g, '- -').replace(/-$/, '- ')} -->`;
}

/** CNF of a Boolean expression by negation normal form and distribution; undefined past the budget. */
export function distributeCnf(e: BoolExpr, budget = MAX_CLAUSES): number[][] | undefined {
  // Literals are ±(index + 1).
  const go = (e: BoolExpr, positive: boolean): number[][] | undefined => {
    switch (e.kind) {
      case 'var':
        return [[positive ? e.index + 1 : -(e.index + 1)]];
      case 'not':
        return go(e.operand, !positive);
      case 'and':
      case 'or': {
        const conj = (e.kind === 'and') === positive;
        const parts: number[][][] = [];
        for (const o of e.operands) {
          const c = go(o, positive);
          if (!c) return undefined;
          parts.push(c);
        }
        return conj ? concat(parts, budget) : product(parts, budget);
      }
      case 'implies': // a => b  ==  !a | b
        return go({ kind: 'or', operands: [{ kind: 'not', operand: e.left }, e.right] }, positive);
      case 'equiv': {
        // a <=> b  ==  (!a | b) & (a | !b);  its negation  (a | b) & (!a | !b)
        const na: BoolExpr = { kind: 'not', operand: e.left };
        const nb: BoolExpr = { kind: 'not', operand: e.right };
        const f: BoolExpr = positive
          ? { kind: 'and', operands: [{ kind: 'or', operands: [na, e.right] }, { kind: 'or', operands: [e.left, nb] }] }
          : { kind: 'and', operands: [{ kind: 'or', operands: [e.left, e.right] }, { kind: 'or', operands: [na, nb] }] };
        return go(f, true);
      }
    }
  };
  return go(e, true);
}
function concat(parts: number[][][], budget: number): number[][] | undefined {
  const out: number[][] = [];
  for (const p of parts) for (const c of p) out.push(c);
  return out.length > budget ? undefined : out;
}
function product(parts: number[][][], budget: number): number[][] | undefined {
  let acc: number[][] = [[]];
  for (const p of parts) {
    if (acc.length * p.length > budget) return undefined;
    const next: number[][] = [];
    for (const a of acc) {
      for (const b of p) {
        const clause = simplify([...a, ...b]);
        if (clause) next.push(clause);
      }
    }
    acc = next;
  }
  return acc;
}
/** Removes repeated literals; undefined for a tautology (x or not x). */
export function simplify(clause: number[]): number[] | undefined {
  const n = clause.length;
  if (n <= 16) {
    // Short clauses (nearly all): quadratic scan, no allocation when nothing repeats.
    let out: number[] | undefined;
    for (let i = 0; i < n; i++) {
      const l = clause[i]!;
      let keep = true;
      for (let j = 0; j < i; j++) {
        const m = clause[j]!;
        if (m === -l) return undefined;
        if (m === l) keep = false;
      }
      if (!keep && !out) out = clause.slice(0, i);
      else if (keep && out) out.push(l);
    }
    return out ?? clause;
  }
  const seen = new Set<number>();
  const out: number[] = [];
  for (const l of clause) {
    if (seen.has(-l)) return undefined;
    if (!seen.has(l)) {
      seen.add(l);
      out.push(l);
    }
  }
  return out;
}

/** The model as SPLOT SXFM. Throws UvlExportError for a constraint naming an unknown feature. */
export function toSplot(model: UvlModel): string {
  const x = prepareExport(model);
  const { features } = x.flat;
  const root = features[0]!;
  const node = (i: number) => `${xml(features[i]!.name)} (${xml(features[i]!.name)})`;
  const lines: string[] = [
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
    `<feature_model name="${xmlAttr(root.name)}">`,
    '<feature_tree>',
    `:r ${node(0)}`,
  ];
  // Depth-first and iterative: lines and subtrees still to write, pushed in reverse.
  const emit = (i: number, tabs: number): void => {
    const pad = TAB.repeat(tabs);
    const out: Array<{ line: string } | { i: number; tabs: number }> = [];
    for (const r of features[i]!.relations) {
      if (isOptional(r) || isMandatory(r)) {
        out.push({ line: `${pad}:${isOptional(r) ? 'o' : 'm'} ${node(r.children[0]!)}` });
        out.push({ i: r.children[0]!, tabs: tabs + 1 });
      } else {
        // or, alternative, and (unlike flamapy) every other group cardinality
        out.push({ line: `${pad}:g [${r.min},${r.max}]` });
        for (const c of r.children) {
          out.push({ line: `${pad}${TAB}: ${node(c)}` });
          out.push({ i: c, tabs: tabs + 2 });
        }
      }
    }
    for (let k = out.length - 1; k >= 0; k--) pending.push(out[k]!);
  };
  const pending: Array<{ line: string } | { i: number; tabs: number }> = [];
  emit(0, 1);
  while (pending.length > 0) {
    const item = pending.pop()!;
    if ('line' in item) lines.push(item.line);
    else emit(item.i, item.tabs);
  }
  lines.push('</feature_tree>', '<constraints>');
  const notes: string[] = x.leftOut.map((t) => `left out (SXFM cannot express arithmetic, aggregate or string constraints): ${t}`);
  const clauses: string[] = [];
  let index = 1;
  for (const c of x.constraints) {
    const cnf = distributeCnf(c.expression);
    if (!cnf) {
      notes.push(`left out (its CNF exceeds ${MAX_CLAUSES} clauses without auxiliary variables): ${c.text}`);
      continue;
    }
    for (const clause of cnf) {
      const text = clause.map((l) => (l > 0 ? xml(x.names[l - 1]!) : `~${xml(x.names[-l - 1]!)}`)).join(' or ');
      clauses.push(`${TAB}C${index++}: ${text}`);
    }
  }
  for (const n of notes) lines.push(`${TAB}${comment(n)}`);
  for (const c of clauses) lines.push(c);
  lines.push('</constraints>', '</feature_model>');
  return lines.join('\n');
}
