// A configure step's answer as what changed (issue 37, item 1): on several models, along random
// decisions, the `changed` of a step that names the state it comes from (`since`), applied to
// that state, equals the full answer's `features`, with the same count, as does the compact first
// step (a letter per feature in the tree's order); also when `since` is a
// state the worker no longer keeps (propagated again), with `why`, and through a conflict.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { storeModelFile } from '../../../test/support/fixtures.ts';
import { corpusSkipReason, findCorpus } from '../../../packages/uvl/src/corpus.support.ts';
import { applyChanges, changedStates, decisionsKey, type States } from './configurator.diff.ts';
import { generatedModel, PRINTER_UVL, waitForResult } from './configurator.test-support.ts';

const corpus = findCorpus();
/** Corpus models of a few hundred features with cross-tree constraints, when the corpus is there. */
const CORPUS_MODELS = ['real/Feature_Models/Automotive/Automotive01/automotive01.uvl', 'real/Feature_Models/Operating_Systems/CDL/gps4020.uvl'];
const STEPS = 12;

type Decisions = { selected: string[]; deselected: string[] };

/** Seeded, so that a failure can be replayed. */
function lcg(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

describe('changed states instead of all of them (unit)', () => {
  it('lists exactly the features whose state differs; applied, gives the new states', () => {
    const before: States = { A: 'open', B: 'forced', C: 'open' };
    const after: States = { A: 'selected', B: 'forced', C: 'excluded' };
    assert.deepEqual(changedStates(before, after), { A: 'selected', C: 'excluded' });
    assert.deepEqual(applyChanges(before, changedStates(before, after)), after);
    assert.deepEqual(changedStates(after, after), {});
    assert.equal(decisionsKey({ selected: ['b', 'a'], deselected: ['c'] }), decisionsKey({ selected: ['a', 'b'], deselected: ['c'] }));
    assert.notEqual(decisionsKey({ selected: ['a'], deselected: [] }), decisionsKey({ selected: [], deselected: ['a'] }));
  });
});

for (const dialect of testDialects()) {
  describe(`configure answers as changes [${dialect.name}]`, () => {
    let server: TestServer;
    const models: { label: string; fileId: number }[] = [];
    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { ANALYSIS_WORKERS: '0' } });
      const texts: [string, string][] = [['printer', PRINTER_UVL], ['generated (61 groups)', generatedModel(12)]];
      for (const path of corpus ? CORPUS_MODELS : []) texts.push([path.split('/').at(-1)!, corpus!.read(path)]);
      for (const [label, content] of texts) models.push({ label, fileId: (await storeModelFile(server, { label: 'Model', content, name: 'model.uvl' })).fileId });
    });
    after(async () => server?.close());

    const configure = async (fileId: number, body: object) => {
      const res = await fetch(`${server.baseUrl}/api/v1/files/${fileId}/configure`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
      const json = await res.json();
      assert.equal(res.status, 200, JSON.stringify(json).slice(0, 300));
      return json;
    };

    it('applied to the state it names, a step\'s changes give the full answer\'s states, along random decisions', async () => {
      if (!corpus) console.log(`# ${corpusSkipReason}: generated models only`);
      for (const { label, fileId } of models) {
        const random = lcg(fileId * 7919);
        let held: Decisions = { selected: [], deselected: [] };
        let states: States = (await configure(fileId, held)).features;
        let changedAtAll = 0;
        for (let step = 0; step < STEPS; step++) {
          const open = Object.keys(states).filter((n) => states[n] === 'open');
          if (open.length === 0) break;
          const name = open[Math.floor(random() * open.length)]!;
          const next = random() < 0.5 ? { selected: [...held.selected, name], deselected: held.deselected } : { selected: held.selected, deselected: [...held.deselected, name] };
          const full = await configure(fileId, next);
          const diff = await configure(fileId, { ...next, since: held });
          assert.equal(diff.consistent, full.consistent, `${label}, step ${step}`);
          if (!full.consistent) continue;
          assert.equal(diff.features, undefined, `${label}: an answer with since holds no full list`);
          assert.ok(Object.keys(diff.changed).length < Object.keys(full.features).length || Object.keys(full.features).length < 10, `${label}: fewer changes than states`);
          assert.deepEqual(applyChanges(states, diff.changed), full.features, `${label}, step ${step}: the changes applied give the full states`);
          // A compile in the background may end between the two: a count then, none before.
          if (diff.remaining !== null && full.remaining !== null) assert.equal(diff.remaining, full.remaining, `${label}, step ${step}: the same count`);
          assert.equal(diff.changed[name], next.selected.includes(name) ? 'selected' : 'deselected');
          changedAtAll += Object.keys(diff.changed).length;
          held = next;
          states = full.features;
        }
        assert.ok(changedAtAll > 0, `${label}: the decisions changed states`);
      }
    });

    it('gives the first step as one letter per feature in the tree\'s order, the full answer\'s states', async () => {
      const letters: Record<string, string> = { s: 'selected', d: 'deselected', f: 'forced', x: 'excluded', o: 'open' };
      for (const { label, fileId } of models) {
        const tree = await waitForResult(`${server.baseUrl}/configurator/${fileId}/tree.json`);
        const order: string[] = tree.features.map(([name]: [string]) => name);
        const open = Object.entries((await configure(fileId, {})).features as States).filter(([, s]) => s === 'open').map(([n]) => n);
        const decisions = { selected: open.slice(0, 1), deselected: open.slice(-1) };
        const full = await configure(fileId, decisions);
        const compact = await configure(fileId, { ...decisions, compact: true });
        assert.equal(compact.features, undefined, label);
        if (compact.remaining !== null && full.remaining !== null) assert.equal(compact.remaining, full.remaining, label);
        assert.equal(compact.states.length, order.length, `${label}: a letter per feature`);
        assert.deepEqual(Object.fromEntries(order.map((name, i) => [name, letters[compact.states[i]]])), full.features, label);
      }
    });

    it('answers the same for a state the worker no longer keeps, with why, and gives the conflict whole', async () => {
      const { fileId } = models[1]!;
      const start: States = (await configure(fileId, {})).features;
      const names = Object.keys(start).filter((n) => start[n] === 'open');
      // Ten other steps in between: the worker keeps the states of the last eight only.
      for (let i = 0; i < 10; i++) await configure(fileId, { selected: [names[i]!], deselected: [] });
      const next = { selected: [names[0]!], deselected: [names[5]!] };
      const full = await configure(fileId, next);
      const diff = await configure(fileId, { ...next, since: { selected: [], deselected: [] }, why: names[0] });
      assert.deepEqual(applyChanges(start, diff.changed), full.features);
      assert.deepEqual(diff.why, full.why ?? (await configure(fileId, { ...next, why: names[0] })).why);
      // The same state: nothing changed.
      assert.deepEqual((await configure(fileId, { ...next, since: next })).changed, {});
      // A printer with both printers selected has no configuration: the conflict, as without since.
      const conflict = await configure(models[0]!.fileId, { selected: ['Laser', 'Inkjet'], deselected: [], since: { selected: ['Laser'], deselected: [] } });
      assert.equal(conflict.consistent, false);
      assert.deepEqual(conflict.conflict.decisions.sort(), ['selected Inkjet', 'selected Laser']);
    });
  });
}
