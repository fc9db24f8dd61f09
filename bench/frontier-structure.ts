import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { modelBackbone, satEncoding, Deadline, SatSolver } from '../packages/analysis/src/index.ts';
import { modelClauses } from '../packages/analysis/src/encode.ts';
import { parseUvl } from '../packages/uvl/src/index.ts';
import { findCorpus } from '../packages/uvl/src/corpus.support.ts';
import { fileLoader } from '../src/cli/uvl-files.ts';

const corpus = findCorpus()!;
const file = join(corpus.dir, process.argv[2]!);
const text = readFileSync(file, 'utf8');
const { model } = parseUvl(text, { fileName: file, loader: fileLoader });
const enc = satEncoding(model!, text);
const clauses = modelClauses(enc);
const backbone = modelBackbone(enc, Deadline.after(60000))!.value;
const s = new SatSolver(enc.numVars);
for (const c of clauses) s.addClause(c);
for (let v = 1; v <= enc.featureVars; v++) if (backbone[v] !== 0) s.addClause([backbone[v]! * v]);
const simplified: number[][] = [];
for (const c of clauses) if (!c.some((l) => s.topValue(l) === 1)) simplified.push(c.filter((l) => s.topValue(l) === 0));
const parent = Int32Array.from({ length: enc.numVars + 1 }, (_, i) => i);
const find = (x: number): number => { while (parent[x] !== x) { parent[x] = parent[parent[x]!]!; x = parent[x]!; } return x; };
for (const c of simplified) for (let i = 1; i < c.length; i++) { const a = find(Math.abs(c[0]!)), b = find(Math.abs(c[i]!)); if (a !== b) parent[a] = b; }
const size = new Map<number, { vars: number; feats: number; clauses: number }>();
let unfixedFree = 0;
const occurs = new Uint8Array(enc.numVars + 1);
for (const c of simplified) for (const l of c) occurs[Math.abs(l)] = 1;
for (let v = 1; v <= enc.numVars; v++) {
  if (s.topValue(v) !== 0) continue;
  if (!occurs[v]) { if (v <= enc.featureVars) unfixedFree++; continue; }
  const r = find(v);
  const e = size.get(r) ?? { vars: 0, feats: 0, clauses: 0 };
  e.vars++; if (v <= enc.featureVars) e.feats++;
  size.set(r, e);
}
for (const c of simplified) size.get(find(Math.abs(c[0]!)))!.clauses++;
const comps = [...size.values()].sort((a, b) => b.vars - a.vars);
console.log(`${enc.featureVars} features, ${enc.numVars} vars, ${simplified.length} clauses left, ${comps.length} components, ${unfixedFree} isolated features`);
console.log(comps.slice(0, 15).map((c) => JSON.stringify(c)).join('\n'));
const hist = new Map<number, number>();
for (const c of comps) hist.set(c.feats, (hist.get(c.feats) ?? 0) + 1);
console.log([...hist.entries()].sort((a, b) => a[0] - b[0]).slice(0, 30).map(([k, n]) => `${k}:${n}`).join(' '));
