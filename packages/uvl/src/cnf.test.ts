// The CNF keeps exactly the model's configurations: for small models, the number of
// solutions of the CNF projected on the feature variables (an exact DPLL counter) equals
// the number of configurations found by evaluating the feature model itself (tree, groups
// and Boolean constraints, straight from the parsed model, not from the CNF).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Expression, Feature, UvlModel } from './ast.ts';
import { corpusSkipReason, findCorpus, prng } from './corpus.support.ts';
import { buildCnf, parseUvl, toCnf, UvlExportError } from './index.ts';

// ------------------------------------------------------------------ model side

function isBooleanExpr(e: Expression): boolean {
  switch (e.kind) {
    case 'ref':
      return true;
    case 'not':
      return isBooleanExpr(e.operand);
    case 'and':
    case 'or':
      return e.operands.every(isBooleanExpr);
    case 'implies':
    case 'equiv':
      return isBooleanExpr(e.left) && isBooleanExpr(e.right);
    default:
      return false;
  }
}

function allConstraints(model: UvlModel): Expression[] {
  const list = [...model.constraints];
  const visit = (f: Feature) => {
    for (const a of f.attributes) {
      if (a.kind === 'constraint') list.push(a.constraint);
      if (a.kind === 'constraints') list.push(...a.constraints);
    }
    for (const g of f.groups) for (const c of g.children) visit(c);
  };
  if (model.root) visit(model.root);
  return list.filter(isBooleanExpr);
}

function evalExpr(e: Expression, bit: Map<string, number>, mask: number): boolean {
  switch (e.kind) {
    case 'ref':
      return (mask & bit.get(e.ref.name)!) !== 0;
    case 'not':
      return !evalExpr(e.operand, bit, mask);
    case 'and':
      return e.operands.every((o) => evalExpr(o, bit, mask));
    case 'or':
      return e.operands.some((o) => evalExpr(o, bit, mask));
    case 'implies':
      return !evalExpr(e.left, bit, mask) || evalExpr(e.right, bit, mask);
    case 'equiv':
      return evalExpr(e.left, bit, mask) === evalExpr(e.right, bit, mask);
    default:
      throw new Error('not Boolean');
  }
}

function groupAllows(kind: string, card: { min: number; max: number | '*' } | undefined, n: number, k: number, childCount: number): boolean {
  switch (kind) {
    case 'mandatory':
      return k === n;
    case 'optional':
      return true;
    case 'alternative':
      return k === 1;
    case 'or':
      return k >= 1;
    default: {
      const max = card!.max === '*' ? childCount : card!.max;
      return k >= card!.min && k <= max;
    }
  }
}

/** Configurations of the feature model, counted from the model (names identify features, as in flamapy). */
function countModelConfigurations(model: UvlModel): number {
  const names: string[] = [];
  const nodes: Feature[] = [];
  const walk = (f: Feature) => {
    nodes.push(f);
    if (!names.includes(f.name)) names.push(f.name);
    for (const g of f.groups) for (const c of g.children) walk(c);
  };
  walk(model.root!);
  const bit = new Map(names.map((n, i) => [n, 1 << i]));
  const constraints = allConstraints(model);
  const ok = (mask: number) => constraints.every((c) => evalExpr(c, bit, mask));

  if (names.length === nodes.length) {
    // Unique names: generate the tree's configurations directly, then filter.
    const configs = (f: Feature): number[] => {
      let acc = [bit.get(f.name)!];
      for (const g of f.groups) {
        const n = g.children.length;
        const options: number[] = [];
        for (let sel = 0; sel < 1 << n; sel++) {
          let k = 0;
          for (let i = 0; i < n; i++) if (sel & (1 << i)) k++;
          if (!groupAllows(g.kind, g.cardinality, n, k, n)) continue;
          let partial = [0];
          for (let i = 0; i < n; i++) {
            if (!(sel & (1 << i))) continue;
            const sub = configs(g.children[i]!);
            partial = partial.flatMap((p) => sub.map((s) => p | s));
          }
          options.push(...partial);
        }
        acc = acc.flatMap((a) => options.map((o) => a | o));
      }
      return acc;
    };
    return configs(model.root!).filter(ok).length;
  }
  // Repeated names: every subset, with each tree occurrence's rules.
  let count = 0;
  const rootBit = bit.get(model.root!.name)!;
  for (let mask = 0; mask < 1 << names.length; mask++) {
    if (!(mask & rootBit)) continue;
    let valid = true;
    for (const f of nodes) {
      const fb = bit.get(f.name)!;
      for (const g of f.groups) {
        let k = 0;
        for (const c of g.children) {
          const cb = bit.get(c.name)!;
          if (mask & cb) {
            k++;
            if (!(mask & fb)) valid = false;
          }
        }
        if (mask & fb && !groupAllows(g.kind, g.cardinality, g.children.length, k, g.children.length)) valid = false;
      }
    }
    if (valid && ok(mask)) count++;
  }
  return count;
}

// ------------------------------------------------------------------ CNF side

/** Solutions of the CNF projected on variables 1..featureVars (exact: DPLL over those, SAT check for the rest). */
function countCnf(variables: number, featureVars: number, clauses: number[][]): number {
  const value = new Int8Array(variables + 1); // 0 unassigned, 1 true, -1 false
  const litValue = (l: number) => (l > 0 ? value[l]! : -value[-l]!);
  const propagate = (trail: number[]): boolean => {
    for (let changed = true; changed; ) {
      changed = false;
      for (const c of clauses) {
        let unassigned = 0;
        let last = 0;
        let sat = false;
        for (const l of c) {
          const v = litValue(l);
          if (v === 1) {
            sat = true;
            break;
          }
          if (v === 0) {
            unassigned++;
            last = l;
          }
        }
        if (sat) continue;
        if (unassigned === 0) return false;
        if (unassigned === 1) {
          value[Math.abs(last)] = last > 0 ? 1 : -1;
          trail.push(Math.abs(last));
          changed = true;
        }
      }
    }
    return true;
  };
  const allSatisfied = () => clauses.every((c) => c.some((l) => litValue(l) === 1));
  const undo = (trail: number[]) => {
    for (const v of trail) value[v] = 0;
  };
  const sat = (): boolean => {
    const trail: number[] = [];
    if (!propagate(trail)) {
      undo(trail);
      return false;
    }
    let pick = 0;
    for (let v = 1; v <= variables && !pick; v++) if (value[v] === 0) pick = v;
    if (!pick || allSatisfied()) {
      undo(trail);
      return true;
    }
    for (const s of [1, -1] as const) {
      value[pick] = s;
      const r = sat();
      value[pick] = 0;
      if (r) {
        undo(trail);
        return true;
      }
    }
    undo(trail);
    return false;
  };
  const count = (): number => {
    const trail: number[] = [];
    if (!propagate(trail)) {
      undo(trail);
      return 0;
    }
    let free = 0;
    let pick = 0;
    for (let v = 1; v <= featureVars; v++) {
      if (value[v] === 0) {
        free++;
        if (!pick) pick = v;
      }
    }
    let result: number;
    if (allSatisfied()) result = 2 ** free;
    else if (!pick) result = sat() ? 1 : 0;
    else {
      result = 0;
      for (const s of [1, -1] as const) {
        value[pick] = s;
        result += count();
        value[pick] = 0;
      }
    }
    undo(trail);
    return result;
  };
  return count();
}

function assertSameCount(model: UvlModel, label: string): void {
  const cnf = buildCnf(model);
  const fromCnf = countCnf(cnf.variables, cnf.featureVariables, cnf.clauses);
  const fromModel = countModelConfigurations(model);
  assert.equal(fromCnf, fromModel, `${label}: CNF has ${fromCnf} configurations, the model ${fromModel}`);
}

// ------------------------------------------------------------------ tests

const GROUP_KINDS_MODEL = `features
    Root
        mandatory
            M1
            M2
                alternative
                    A1
                    A2
                    A3
        optional
            O1
                or
                    R1
                    R2
                    R3
            O2
                [2]
                    C1
                    C2
                    C3
            O3
                [1..2]
                    D1
                    D2
                    D3
            O4
                [2..*]
                    E1
                    E2
                    E3
`;

describe('CNF configurations equal the model\'s', () => {
  test('every group kind: mandatory, optional, alternative, or, [n], [n..m], [n..*]', () => {
    const { model, diagnostics } = parseUvl(GROUP_KINDS_MODEL);
    assert.deepEqual(diagnostics, []);
    assertSameCount(model, 'group kinds');
  });

  test('large cardinality groups (the counter encodings) and wide alternatives', () => {
    const kids = (n: number) => Array.from({ length: n }, (_, i) => `            C${i}`).join('\n');
    for (const [card, n] of [['[2..3]', 7], ['[2]', 6], ['[3..*]', 8], ['[0..2]', 9], ['[4..5]', 9], ['[1..3]', 10], ['[9..12]', 10], ['alternative', 11], ['[1]', 10]] as const) {
      const { model, diagnostics } = parseUvl(`features\n    R\n        optional\n            X\n        ${card}\n${kids(n)}\nconstraints\n    X => C0 | !C1\n`);
      assert.deepEqual(diagnostics, []);
      assertSameCount(model, `${card} over ${n}`);
    }
  });

  test('every Boolean operator, alone and nested, and a constraint attribute', () => {
    const constraints = [
      'R1',
      '!R2',
      'R1 & D1',
      'R1 | D1 | E1',
      'R1 => D1',
      'R1 <=> D2',
      '!(R1 & R2) => (C1 <=> !D3)',
      '(R1 | R2) & (D1 | !E2) <=> !(O1 => (C1 & C2))',
      '((R1 => R2) => R3) <=> (E1 | (E2 & !E3))',
      '!!(A1 | A2) & !(!D1 | D2 & D3)',
    ];
    for (const c of constraints) {
      const { model, diagnostics } = parseUvl(`${GROUP_KINDS_MODEL}constraints\n    ${c}\n`);
      assert.deepEqual(diagnostics, [], c);
      assertSameCount(model, c);
    }
    const { model } = parseUvl(GROUP_KINDS_MODEL.replace('O2\n', 'O2 {constraints [O2 => R3, !C1 | A2]}\n'));
    assertSameCount(model, 'attribute constraints');
  });

  test('arithmetic constraints are left out and listed; unknown features are a typed error', () => {
    const { model } = parseUvl(`${GROUP_KINDS_MODEL}constraints\n    R1 => D1\n    O1.price + 2 > 3\n`);
    const text = toCnf(model);
    assert.match(text, /^c left out \(not expressible in CNF\): O1\.price \+ 2 > 3$/m);
    assertSameCount(model, 'with arithmetic');
    const bad = parseUvl(`${GROUP_KINDS_MODEL}constraints\n    R1 => Nope\n`).model;
    assert.throws(() => toCnf(bad), (e: unknown) => e instanceof UvlExportError && e.code === 'unknown-feature' && e.featureName === 'Nope');
  });

  test('random small models (fixed seed): trees of every group kind and random constraints', () => {
    const random = prng(20240601);
    const pick = <T,>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
    for (let m = 0; m < 60; m++) {
      let next = 0;
      const names: string[] = [];
      const lines: string[] = ['features', '    F0'];
      names.push('F0');
      next = 1;
      const grow = (depth: number, indent: string) => {
        const groups = 1 + Math.floor(random() * 2);
        for (let g = 0; g < groups && next < 12; g++) {
          const kind = pick(['mandatory', 'optional', 'alternative', 'or', '[1]', '[0..2]', '[1..*]', '[2..3]', '[0..1]']);
          lines.push(`${indent}${kind}`);
          const kids = 1 + Math.floor(random() * 3);
          for (let k = 0; k < kids && next < 12; k++) {
            const name = `F${next++}`;
            names.push(name);
            lines.push(`${indent}    ${name}`);
            if (depth < 3 && random() < 0.35) grow(depth + 1, `${indent}        `);
          }
        }
      };
      grow(0, '        ');
      const expr = (d: number): string => {
        if (d > 2 || random() < 0.3) return random() < 0.3 ? `!${pick(names)}` : pick(names);
        const op = pick(['&', '|', '=>', '<=>', '!']);
        return op === '!' ? `!(${expr(d + 1)})` : `(${expr(d + 1)} ${op} ${expr(d + 1)})`;
      };
      const count = Math.floor(random() * 3);
      if (count > 0) {
        lines.push('constraints');
        for (let i = 0; i < count; i++) lines.push(`    ${expr(0)}`);
      }
      const text = `${lines.join('\n')}\n`;
      const { model, diagnostics } = parseUvl(text);
      assert.deepEqual(diagnostics.filter((d) => d.severity === 'error'), [], text);
      assertSameCount(model, text);
    }
  });

  test('every corpus model with at most 20 features', { skip: findCorpus() ? false : corpusSkipReason }, () => {
    const corpus = findCorpus()!;
    let checked = 0;
    for (const f of corpus.files) {
      if (!f.valid || f.features === undefined || f.features > 20) continue;
      const { model } = parseUvl(corpus.read(f.path));
      if (!model.root) continue;
      try {
        buildCnf(model);
      } catch (error) {
        // Constraints over features of imported models the test does not load, or missing ones.
        assert.ok(error instanceof UvlExportError && error.code === 'unknown-feature', `${f.path}: ${String(error)}`);
        continue;
      }
      assertSameCount(model, f.path);
      checked++;
    }
    assert.ok(checked >= 50, `only ${checked} corpus models checked`);
  });
});
