// A configurator carries what a step learned to the next (step-backbone.ts: witnesses patched to
// the new decisions, what growing decisions already forced or excluded, the same decisions'
// answer). These tests replay sequences of steps as a person makes them (a decision more, one
// undone, the same again after a "why", a conflicting one and its undo) on one configurator and
// compare each step with a fresh configurator that answers that step alone, and on small
// models with the enumerated configurations.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { corpusSkipReason, diskLoader, findCorpus } from '../../../uvl/src/corpus.support.ts';
import { parseUvl, type UvlModel } from '../../../uvl/src/index.ts';
import { bruteForceModel, type BruteForceModel } from '../testing/brute-force.support.ts';
import { randomModelText, seededRandom } from '../testing/generators.support.ts';
import { Configurator } from './configurator.ts';
import type { ConfigureResult, Decisions } from './types.ts';

const NO_COUNT = { countTimeoutMs: 0 };

/** The next decisions of a sequence, from the last step's answer. */
function nextDecisions(rand: () => number, names: string[], d: Decisions, last: ConfigureResult, c: Configurator): Decisions {
  const next: Decisions = { selected: [...d.selected], deselected: [...d.deselected] };
  const decided = (n: string) => next.selected.includes(n) || next.deselected.includes(n);
  const undo = () => {
    const all = [...next.selected.map((n) => ['s', n]), ...next.deselected.map((n) => ['d', n])];
    if (all.length === 0) return;
    const [kind, name] = all[Math.floor(rand() * all.length)]!;
    const list = kind === 's' ? next.selected : next.deselected;
    list.splice(list.indexOf(name!), 1);
  };
  const add = (pool: string[]) => {
    if (pool.length === 0) return;
    (rand() < 0.5 ? next.selected : next.deselected).push(pool[Math.floor(rand() * pool.length)]!);
  };
  if (!last.consistent) {
    undo();
    return next;
  }
  const r = rand();
  if (r < 0.55) add(names.filter((n) => last.features[n] === 'open'));
  else if (r < 0.7) add(names.filter((n) => !decided(n))); // may conflict
  else if (r < 0.85) undo();
  else if (r < 0.95) {
    // The hub's configure-with-why: the same decisions twice in a row.
    const implied = names.find((n) => last.features[n] === 'forced' || last.features[n] === 'excluded');
    if (implied) c.why(next, implied);
  } else next.selected.reverse(); // the same decisions in another order
  return next;
}

/** Differences between the kept configurator's step and a fresh one's (and the oracle's when given). */
function compare(model: UvlModel, text: string, kept: ConfigureResult, d: Decisions, truth?: BruteForceModel): string[] {
  const fresh = new Configurator(model, { text }).configure(d, NO_COUNT);
  if (kept.consistent !== fresh.consistent) return [`consistent: kept ${kept.consistent}, fresh ${fresh.consistent}`];
  const out: string[] = [];
  if (kept.consistent && fresh.consistent) {
    for (const [name, state] of Object.entries(fresh.features)) if (kept.features[name] !== state) out.push(`${name}: kept ${kept.features[name]}, fresh ${state}`);
  }
  if (truth && kept.consistent) out.push(...againstTruth(truth, kept, d));
  return out;
}

function againstTruth(truth: BruteForceModel, r: Extract<ConfigureResult, { consistent: true }>, d: Decisions): string[] {
  let on = 0;
  let off = 0;
  for (const s of d.selected) on |= 1 << truth.names.indexOf(s);
  for (const s of d.deselected) off |= 1 << truth.names.indexOf(s);
  const ext = truth.configurations.filter((m) => (m & on) === on && (m & off) === 0);
  const out: string[] = [];
  truth.names.forEach((name, i) => {
    if (d.selected.includes(name) || d.deselected.includes(name)) return;
    const count = ext.filter((m) => m & (1 << i)).length;
    const expected = count === ext.length ? 'forced' : count === 0 ? 'excluded' : 'open';
    if (r.features[name] !== expected) out.push(`${name}: ${r.features[name]}, brute force ${expected}`);
  });
  return out;
}

/** Runs a sequence of steps on one configurator; the differences of each step, with its decisions. */
function replay(rand: () => number, model: UvlModel, text: string, steps: number, truth?: BruteForceModel): { wrong: string[]; grown: number; undone: number } {
  const c = new Configurator(model, { text });
  let d: Decisions = { selected: [], deselected: [] };
  let last = c.configure(d, NO_COUNT);
  const wrong: string[] = [];
  let grown = 0;
  let undone = 0;
  for (let i = 0; i < steps && wrong.length === 0; i++) {
    const next = nextDecisions(rand, c.names, d, last, c);
    const size = (x: Decisions) => x.selected.length + x.deselected.length;
    if (size(next) > size(d)) grown++;
    if (size(next) < size(d)) undone++;
    d = next;
    last = c.configure(d, NO_COUNT);
    const diffs = compare(model, text, last, d, truth);
    if (diffs.length > 0) wrong.push(`step ${i + 1} ${JSON.stringify(d)}: ${diffs.slice(0, 5).join('; ')}`);
  }
  return { wrong, grown, undone };
}

const corpus = findCorpus();

describe('configurator steps carried over against fresh steps', () => {
  test('generated models: sequences of steps equal fresh steps and the enumerated configurations', { timeout: 600_000 }, () => {
    const rand = seededRandom(4242);
    const wrong: string[] = [];
    let grown = 0;
    let undone = 0;
    for (let i = 0; i < 150 && wrong.length < 5; i++) {
      const features = 3 + Math.floor(rand() * (i % 3 === 0 ? 40 : 12));
      const g = randomModelText(rand, { features, maxConstraints: 2 + Math.floor(rand() * 6) });
      const { model } = parseUvl(g.text);
      const truth = features <= 14 ? bruteForceModel(model) : undefined;
      const r = replay(rand, model, g.text, 12, truth);
      grown += r.grown;
      undone += r.undone;
      wrong.push(...r.wrong.map((w) => `${w}\n${g.text}`));
    }
    assert.deepEqual(wrong, []);
    assert.ok(grown >= 300 && undone >= 100, `only ${grown} grown and ${undone} undone steps`);
  });

  test('corpus models of 100 to 1 500 features: sequences of steps equal fresh steps', { skip: corpus ? false : corpusSkipReason, timeout: 600_000 }, () => {
    const files = corpus!.files.filter((f) => f.valid && f.features !== undefined && f.features >= 100 && f.features <= 1500).sort((a, b) => a.features! - b.features! || (a.path < b.path ? -1 : 1));
    // A spread over the sizes, not only the many small ones.
    const chosen = files.filter((_, i) => i % Math.max(1, Math.floor(files.length / 8)) === 0).slice(0, 8);
    assert.ok(chosen.length >= 5, `only ${chosen.length} corpus models of that size`);
    const rand = seededRandom(77);
    const wrong: string[] = [];
    for (const f of chosen) {
      const text = corpus!.read(f.path);
      const { model } = parseUvl(text, { fileName: join(corpus!.dir, f.path), loader: diskLoader });
      wrong.push(...replay(rand, model, text, 10).wrong.map((w) => `${f.path}: ${w}`));
    }
    assert.deepEqual(wrong, []);
  });
});
