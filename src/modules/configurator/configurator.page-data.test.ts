// The model page's own data, light (issue 37, item 1): the tree and the probabilities carry an
// entity tag of their content, so a later visit revalidates them with 304 and no body; the
// probabilities in the page's form (`order=name`) hold the values of the full form in the order
// of the names sorted, and the engine's texts only where the page shows them.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { storeModelFile } from '../../../test/support/fixtures.ts';
import { PRINTER_UVL, waitForResult } from './configurator.test-support.ts';

/** A printer with a rarely chosen extra: its probability is shown as a power of ten. */
const RARE_UVL = `${PRINTER_UVL}        optional\n            Tray\n                or\n${Array.from({ length: 12 }, (_, i) => `                    T${i}\n`).join('')}constraints\n    Stapler => T0 & T1 & T2 & T3 & T4 & T5 & T6 & T7 & T8 & T9 & T10 & T11\n`;

describe('the model page\'s tree and probabilities', () => {
  let server: TestServer;
  let fileId = 0;
  before(async () => {
    server = await startTestServer({ seed: true, env: { ANALYSIS_WORKERS: '0' } });
    ({ fileId } = await storeModelFile(server, { label: 'Model', content: RARE_UVL, name: 'rare.uvl' }));
  });
  after(async () => server?.close());

  it('answers 304 without a body to a client that has the tree or the probabilities', async () => {
    for (const path of [`/configurator/${fileId}/tree.json`, `/configurator/${fileId}/probabilities.json?order=name`, `/configurator/${fileId}/probabilities.json`]) {
      await waitForResult(`${server.baseUrl}${path}`);
      const first = await fetch(`${server.baseUrl}${path}`);
      assert.equal(first.status, 200, path);
      const tag = first.headers.get('etag');
      assert.match(tag ?? '', /^"[0-9a-f]{32}-/, `${path}: an entity tag of the content`);
      assert.equal(first.headers.get('cache-control'), 'no-cache');
      const again = await fetch(`${server.baseUrl}${path}`, { headers: { 'if-none-match': tag! } });
      assert.equal(again.status, 304, path);
      assert.equal(await again.text(), '');
      assert.equal((await fetch(`${server.baseUrl}${path}`, { headers: { 'if-none-match': '"other"' } })).status, 200);
    }
    const tags = await Promise.all([`/configurator/${fileId}/probabilities.json?order=name`, `/configurator/${fileId}/probabilities.json`]
      .map(async (path) => (await fetch(`${server.baseUrl}${path}`)).headers.get('etag')));
    assert.notEqual(tags[0], tags[1], 'each form its own tag');
  });

  it('gives the probabilities in the order of the names sorted, with the texts of the extreme ones only', async () => {
    const full = await waitForResult(`${server.baseUrl}/configurator/${fileId}/probabilities.json`);
    const page = await waitForResult(`${server.baseUrl}/configurator/${fileId}/probabilities.json?order=name`);
    const names = Object.keys(full.probability).sort();
    assert.equal(page.order, 'name');
    assert.equal(page.probability.length, names.length);
    names.forEach((name, i) => assert.ok(Math.abs(page.probability[i] - full.probability[name]) <= 5e-7, `${name}: ${page.probability[i]} for ${full.probability[name]}`));
    assert.deepEqual(page.bins, full.bins);
    const extreme = Object.entries(full.shown as Record<string, string>).filter(([, text]) => !/^(0\.\d{3}|0|1)$/.test(text));
    assert.ok(extreme.length > 0, 'the model has a probability shown as text');
    assert.deepEqual(page.shown, Object.fromEntries(extreme));
    assert.ok(JSON.stringify(page).length < JSON.stringify(full).length);
  });
});
