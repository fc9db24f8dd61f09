// The d4 file read back by an independent reader written here: it parses the node and edge
// lines, checks the format's rules (no comments, ids 1..n in declaration order with the root
// first, every node declared before any edge), and counts the models over the feature variables
// the way a d4 reader does, each node's free variables smoothed in: an OR node's count is the sum
// of its edges' counts, each times 2 to the number of the node's variables the edge lacks, and
// the root's count is times 2 to the number of features it lacks.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { corpusSkipReason, diskLoader, findCorpus } from '../../../uvl/src/corpus.support.ts';
import { parseUvl, toCnf, UvlExportError, type UvlModel } from '../../../uvl/src/index.ts';
import { randomModelText, seededRandom } from '../testing/generators.support.ts';
import { compileModel } from './compiled-model.ts';

interface Edge {
  child: number;
  lits: number[];
}

/** The number of assignments of variables 1..features that the d4 text accepts. */
function countD4(text: string, features: number): bigint {
  const lines = text.trim().split('\n');
  const kinds: string[] = [''];
  const edges: Edge[][] = [[]];
  let declaring = true;
  for (const line of lines) {
    const parts = line.trim().split(/\s+/);
    assert.equal(parts.at(-1), '0', `a line ends with 0: ${line}`);
    if (/^[oatf]$/.test(parts[0]!)) {
      assert.ok(declaring, `a node declared after an edge: ${line}`);
      assert.equal(parts.length, 3, line);
      assert.equal(Number(parts[1]), kinds.length, `ids in declaration order: ${line}`);
      kinds.push(parts[0]!);
      edges.push([]);
      continue;
    }
    declaring = false;
    const numbers = parts.map(Number);
    assert.ok(numbers.every(Number.isInteger), `an edge of numbers: ${line}`);
    const [parent, child, ...rest] = numbers;
    assert.ok(parent! >= 1 && parent! < kinds.length && child! >= 1 && child! < kinds.length, `declared nodes: ${line}`);
    const lits = rest.slice(0, -1);
    assert.ok(lits.every((l) => l !== 0 && Math.abs(l) <= features), `feature literals: ${line}`);
    edges[parent!]!.push({ child: child!, lits });
  }
  // Depth-first from the root (id 1), children first, on an explicit stack (the files are deep).
  const vars = new Map<number, Set<number>>();
  const counts = new Map<number, bigint>();
  const evaluate = (node: number): void => {
    const kind = kinds[node];
    if (kind === 't' || kind === 'f') {
      vars.set(node, new Set());
      counts.set(node, kind === 't' ? 1n : 0n);
      return;
    }
    const edgeVars = edges[node]!.map((e) => new Set([...vars.get(e.child)!, ...e.lits.map(Math.abs)]));
    const edgeCounts = edges[node]!.map((e) => {
      const own = new Set(e.lits.map(Math.abs));
      const consistent = e.lits.every((l) => !e.lits.includes(-l));
      // A literal on the edge fixes its variable: the child must not range over it too.
      return consistent && own.size === e.lits.length && ![...own].some((v) => vars.get(e.child)!.has(v)) ? counts.get(e.child)! : 0n;
    });
    const all = new Set<number>();
    for (const s of edgeVars) for (const v of s) all.add(v);
    vars.set(node, all);
    if (kind === 'a') {
      let product = 1n;
      let size = 0;
      edgeCounts.forEach((c) => (product *= c));
      edgeVars.forEach((s) => (size += s.size));
      assert.equal(size, all.size, 'an AND node is decomposable');
      counts.set(node, product);
    } else {
      let sum = 0n;
      edgeCounts.forEach((c, i) => (sum += c << BigInt(all.size - edgeVars[i]!.size)));
      counts.set(node, sum);
    }
  };
  const stack: number[] = [1];
  while (stack.length > 0) {
    const node = stack[stack.length - 1]!;
    if (counts.has(node)) {
      stack.pop();
      continue;
    }
    const pending = edges[node]!.filter((e) => !counts.has(e.child));
    if (pending.length === 0) {
      evaluate(node);
      stack.pop();
    } else for (const e of pending) stack.push(e.child);
  }
  return counts.get(1)! << BigInt(features - vars.get(1)!.size);
}

function parse(text: string, fileName?: string): UvlModel {
  return parseUvl(text, fileName ? { fileName, loader: diskLoader } : {}).model;
}

/** The `c <n> <name>` lines of the CNF export, or undefined when the export refuses the model (a constraint names no feature). */
function cnfNumbering(model: UvlModel): string | undefined {
  let cnf: string;
  try {
    cnf = toCnf(model);
  } catch (error) {
    if (error instanceof UvlExportError) return undefined;
    throw error;
  }
  return cnf
    .split('\n')
    .filter((l) => /^c \d+ /.test(l))
    .map((l) => l + '\n')
    .join('');
}

const corpus = findCorpus();

describe('the d4 file', () => {
  test('counts to the model count, numbered as the CNF export: generated models', () => {
    const rand = seededRandom(21);
    for (let i = 0; i < 200; i++) {
      const generated = randomModelText(rand, { features: 3 + Math.floor(rand() * 14), maxConstraints: 5 });
      const model = parse(generated.text);
      const compiled = compileModel(model, { text: generated.text })!;
      assert.equal(countD4(compiled.toD4(), compiled.features), compiled.count(), generated.text);
      assert.equal(compiled.variableMap(), cnfNumbering(model));
    }
  });

  test('counts to the model count, numbered as the CNF export: corpus models of at most 1 000 features', { skip: corpus ? false : corpusSkipReason, timeout: 600_000 }, () => {
    let checked = 0;
    let numbered = 0;
    for (const f of corpus!.files) {
      if (!f.valid || f.features === undefined || f.features > 1000) continue;
      // The generated fm*.uvl stress models take seconds each to compile: the generated models above cover their constructs.
      if (f.path.includes('/generated/')) continue;
      const text = corpus!.read(f.path);
      const model = parse(text, join(corpus!.dir, f.path));
      if (!model.root) continue;
      const compiled = compileModel(model, { text })!;
      assert.equal(countD4(compiled.toD4(), compiled.features), compiled.count(), f.path);
      const numbering = cnfNumbering(model);
      if (numbering !== undefined) {
        assert.equal(compiled.variableMap(), numbering, f.path);
        numbered++;
      }
      checked++;
    }
    assert.ok(checked >= 150, `only ${checked} corpus models checked`);
    assert.ok(numbered >= 140, `only ${numbered} corpus models' numbering checked`);
  });

  test('a wide generated model (fm3.uvl, 411 180 nodes, more free variables than a call takes arguments) counts to its count', { skip: corpus ? false : corpusSkipReason, timeout: 600_000 }, () => {
    const path = corpus!.files.find((f) => f.valid && f.path.endsWith('generated/fm3.uvl'))!.path;
    const text = corpus!.read(path);
    // Compiled with TABLE nodes (its default): the file is written from decision nodes all the same.
    const compiled = compileModel(parse(text, join(corpus!.dir, path)), { text })!;
    assert.equal(countD4(compiled.toD4(), compiled.features), compiled.count());
  });

  test('the reader counts free variables and shared nodes', () => {
    // Hand-written: (1 or not 1) and 2, variable 3 free: 2 models of 3 variables... times 2.
    const text = 'a 1 0\no 2 0\nt 3 0\n1 2 0\n1 3 2 0\n2 3 1 0\n2 3 -1 0\n';
    assert.equal(countD4(text, 3), 4n);
    assert.equal(countD4('f 1 0\n', 3), 0n);
  });
});
