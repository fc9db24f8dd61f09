// The model page of the largest corpus model (automotive2_4, 18 616 features, 22 307 lines) stays
// light (issue 24, item 5): at most 400 KB of HTML even with a finished analysis whose every
// feature is core (the worst label), the source beyond its first lines served on demand with its
// anchors, the diagram opened at a depth that keeps the drawing small, expanded in place through
// diagram.svg's open and close, and features found by name with their paths.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { corpusSkipReason, findCorpus } from '../../../packages/uvl/src/corpus.support.ts';
import { flattenModel, parseUvl } from '../../../packages/uvl/src/index.ts';
import { preparedPage, storeModel } from './model.test-support.ts';
import { CHUNK_LINES, INLINE_LINES } from './model.service.ts';
import { LABEL_LIST_LIMIT } from './fact-label.ts';

const corpus = findCorpus();
const LARGEST = 'real/Feature_Models/Automotive/Automotive02/automotive2_4.uvl';
const PAGE_BUDGET = 400 * 1024;

describe('the model page of automotive2_4', { skip: corpus ? false : corpusSkipReason }, () => {
  let server: TestServer;
  let fileId: number;
  let text: string;
  const client = () => new TestClient(server.baseUrl);

  before(async () => {
    // No analysis workers: the test stores the finished result itself (computing it takes a minute).
    server = await startTestServer({ seed: true, env: { ANALYSIS_WORKERS: '0' } });
    text = corpus!.read(LARGEST);
    ({ fileId } = await storeModel(server, { content: text, name: 'automotive2_4.uvl' }));
  });
  after(async () => server?.close());

  it('is under 400 KB of HTML while pending and with every feature core, the rest of each list linked', async () => {
    const pending = await client().get(`/model/${fileId}/`);
    assert.equal(pending.status, 200);
    assert.ok(pending.text.length < PAGE_BUDGET, `pending page: ${pending.text.length} bytes`);
    assert.match(pending.text, /id="analysis-pending"/);

    // The worst label: all 18 616 features core (the page's request queued the row).
    const names = [...new Set(flattenModel(parseUvl(text).model!).features.map((f) => f.name))].sort();
    const result = {
      valid: true, boolean_only: true, ignored_constraints: 0, satisfiable: true, configurations: '1', configurations_status: 'exact',
      core: names, dead: [], false_optional: [], variant: [], atomic_sets: [names], explanations: { void: [], dead: {}, false_optional: {} },
      metrics: { features: names.length, leaf_features: 0, abstract_features: 0, compound_features: 0, depth: 0, groups: { or: 0, alternative: 0, cardinality: 0 }, constraints: 0, simple_constraints: 0, complex_constraints: 0, features_in_constraints: 0, attributes: 0, typed_features: 0, language_level: 'boolean' },
      timings_ms: {},
    };
    const sha256 = createHash('sha256').update(text, 'utf8').digest('hex');
    const updated = await server.hub.db.updateTable('model_analysis').set({ status: 'done', result: JSON.stringify(result) }).where('sha256', '=', sha256).executeTakeFirst();
    assert.equal(Number(updated.numUpdatedRows), 1);

    const done = await preparedPage(client(), `/model/${fileId}/`);
    assert.equal(done.status, 200);
    assert.match(done.text, /data-analysis-state="finished"/);
    console.log(`# automotive2_4 model page: ${(pending.text.length / 1024).toFixed(0)} KB pending, ${(done.text.length / 1024).toFixed(0)} KB with every feature core`);
    assert.ok(done.text.length < PAGE_BUDGET, `finished page: ${done.text.length} bytes`);
    const core = /id="core-features"[\s\S]*?<\/details>/.exec(done.text)![0];
    assert.equal([...core.matchAll(/<code>/g)].length, LABEL_LIST_LIMIT);
    assert.match(core, new RegExp(`… and ${names.length - LABEL_LIST_LIMIT} more in <a href="/model/${fileId}/analysis.json">`));
  });

  it('holds the first source lines and placeholders for the rest, served on demand with their highlighting', async () => {
    const page = await preparedPage(client(), `/model/${fileId}/`);
    const total = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    assert.match(page.text, new RegExp(`id="L${INLINE_LINES}"`));
    assert.doesNotMatch(page.text, new RegExp(`id="L${INLINE_LINES + 1}"`));
    assert.match(page.text, new RegExp(`class="uvl-chunk" data-from="${INLINE_LINES + 1}" data-to="${INLINE_LINES + CHUNK_LINES}"`));
    const chunks = [...page.text.matchAll(/class="uvl-chunk" data-from="(\d+)" data-to="(\d+)"/g)].map((m) => [Number(m[1]), Number(m[2])]);
    assert.equal(chunks.at(-1)![1], total, 'the chunks reach the last line');

    // Line 12 000 (an anchor such as /model/<id>/#L12000 asks the page's script for its chunk).
    const lines = await client().get(`/model/${fileId}/lines?from=11900&to=12100`);
    assert.equal(lines.status, 200);
    assert.equal(lines.json.from, 11900);
    assert.equal(lines.json.to, 12100);
    assert.equal(lines.json.total, total);
    assert.equal(lines.json.lines.length, 201);
    const word = /[A-Za-z0-9_]{3,}/.exec(text.split('\n')[12000 - 1]!)![0];
    assert.match(lines.json.lines[100], new RegExp(`<span class="uvl-[a-z]+">"?(&quot;)?${word}`), 'line 12 000, highlighted');
    const tail = await client().get(`/model/${fileId}/lines?from=${total - 1}&to=${total + 50}`);
    assert.deepEqual([tail.json.to, tail.json.lines.length], [total, 2], 'clipped at the last line');
    for (const q of ['from=0&to=5', 'from=10&to=5', 'from=1&to=2001', 'from=a&to=5', 'to=5', 'from=1&from=2&to=5']) {
      const res = await client().get(`/model/${fileId}/lines?${q}`);
      assert.equal(res.status, 400, q);
      assert.equal(typeof res.json.message, 'string');
    }
    assert.equal((await client().get('/model/999999/lines?from=1&to=5')).status, 404);
  });

  it('opens the diagram two levels deep on the page, while diagram.svg keeps depth 3; open and close work in place', async () => {
    const page = await preparedPage(client(), `/model/${fileId}/`);
    const shown = [...page.text.matchAll(/<g class="[^"]*" data-feature="/g)].length;
    assert.ok(shown > 10 && shown <= 250, `${shown} features drawn in the page`);
    assert.match(page.text, new RegExp(`href="/model/${fileId}/diagram.svg\\?depth=2"`));
    const svg = await client().get(`/model/${fileId}/diagram.svg`);
    assert.equal([...svg.text.matchAll(/data-feature="/g)].length, 1488, 'the contract: collapsed to depth 3');

    const collapsed = /<g class="feature[^"]*collapsed[^"]*" data-feature="([^"]*)">/.exec(page.text)![1]!.replace(/&quot;/g, '"');
    const opened = await client().get(`/model/${fileId}/diagram.svg?depth=2&open=${encodeURIComponent(collapsed)}`);
    assert.equal(opened.status, 200);
    assert.match(opened.text, new RegExp(`data-feature="${collapsed}" data-open=""`));
    const closed = await client().get(`/model/${fileId}/diagram.svg?depth=2&close=${encodeURIComponent(names0(page.text))}`);
    assert.equal(closed.status, 200);
    assert.ok([...closed.text.matchAll(/data-feature="/g)].length < shown);
  });

  it('finds features by name with the path from the root, and refuses a missing query', async () => {
    const name = /^\s*"?([A-Za-z0-9_]+)"?\s*$/.exec(text.split('\n')[12000 - 1]!)?.[1] ?? 'F_';
    const found = await client().get(`/model/${fileId}/features.json?q=${encodeURIComponent(name.toLowerCase())}`);
    assert.equal(found.status, 200);
    assert.equal(found.json.features[0].name, name);
    assert.ok(found.json.features[0].path.length >= 1);
    assert.equal(found.json.features[0].path[0], parseUvl(text).model!.root!.name);
    assert.equal((await client().get(`/model/${fileId}/features.json`)).status, 400);
    assert.deepEqual((await client().get(`/model/${fileId}/features.json?q=zzzz-none`)).json.features, []);
  });
});

/** The first feature drawn open (data-open) in a page or drawing. */
function names0(html: string): string {
  return /data-feature="([^"]*)" data-open=""/.exec(html)![1]!.replace(/&quot;/g, '"');
}
