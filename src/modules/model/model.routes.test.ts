// The model page, its diagram and its analysis JSON at HTTP level, on every dialect: anonymous,
// logged in, someone else's unsynchronized dataset (404 as /file/view answers), bad ids and bad
// query values, a file missing on disk, and a finished analysis shown in the fact label and the
// diagram (the analysis module's real workers analyse the fixture).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { deleteStored } from '../../../test/support/stored.ts';
import { storeModel } from './model.test-support.ts';

/** Polls the page's own JSON until the analysis has left `pending` (a short poll, no fixed sleep). */
async function finishedAnalysis(client: TestClient, fileId: number) {
  for (;;) {
    const res = await client.get(`/model/${fileId}/analysis.json`);
    assert.equal(res.status, 200, res.text);
    if (res.json.status !== 'pending') return res.json;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function login(server: TestServer, email: string): Promise<TestClient> {
  const client = new TestClient(server.baseUrl);
  assert.equal((await client.login(email, '1234')).status, 302);
  return client;
}

for (const dialect of testDialects()) {
  describe(`model routes [${dialect.name}]`, () => {
    let server: TestServer;
    const anonymous = () => new TestClient(server.baseUrl);

    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true });
    });
    after(async () => {
      await server?.close();
    });

    it('shows an anonymous visitor the model page, then the finished analysis in the fact label and the diagram', async () => {
      const { fileId, doi } = await storeModel(server);
      const page = await anonymous().get(`/model/${fileId}/`);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type') ?? '', /text\/html/);
      assert.match(page.text, /id="model-title">Cars with a dead turbo</);
      assert.match(page.text, /cars\.uvl/);
      assert.match(page.text, /<code id="model-root">Car<\/code>/);
      assert.ok(page.text.includes(`>${doi}</a>`), 'the DOI is shown');
      assert.ok(page.text.includes(`href="/doi/${doi}/"`), 'the dataset is linked');
      // Line anchors and escaped, highlighted source.
      assert.match(page.text, /<div class="uvl-line" id="L4"><a class="uvl-ln" href="#L4"[^>]*>4<\/a><code>    <span class="uvl-name">Car<\/span>/);
      assert.ok(page.text.includes('&quot;Diesel &lt;V6&gt;&quot;'));
      assert.ok(!page.text.includes('"Diesel <V6>"'), 'no unescaped model text');
      // Checks and exports.
      for (const link of [`/modeltool/download/glencoe/${fileId}`, `/modeltool/download/splot/${fileId}`, `/modeltool/download/cnf/${fileId}`, `/modeltool/valid/${fileId}`, `/file/download/${fileId}`]) {
        assert.ok(page.text.includes(`href="${link}"`), link);
      }
      assert.match(page.text, /js-check-file" data-file-id="\d+"/);
      assert.match(page.text, /<svg xmlns="http:\/\/www.w3.org\/2000\/svg" class="feature-diagram"/);
      assert.doesNotMatch(page.text, /<script>/, 'no inline script (CSP)');

      const analysis = await finishedAnalysis(anonymous(), fileId);
      assert.equal(analysis.status, 'done');
      assert.equal(analysis.file_id, fileId);
      assert.match(analysis.sha256, /^[0-9a-f]{64}$/);
      assert.deepEqual(analysis.dead, ['Turbo']);
      assert.equal(analysis.configurations, '1');

      const done = await anonymous().get(`/model/${fileId}/`);
      assert.match(done.text, /data-analysis-state="finished"/);
      assert.match(done.text, /id="fact-satisfiable">yes</);
      assert.match(done.text, /id="fact-configurations">\s*1\s*</);
      const dead = /id="dead-features"[\s\S]*?id="false-optional-features"/.exec(done.text)?.[0] ?? '';
      assert.match(dead, /data-feature="Turbo"/);
      assert.match(dead, /<a href="#L12">Line 12<\/a>: <code>&quot;Diesel &lt;V6&gt;&quot; =&gt; !Turbo<\/code>/);
      assert.match(dead, /<a href="#L13">Line 13<\/a>: <code>&quot;Diesel &lt;V6&gt;&quot;<\/code>/);
      assert.match(done.text, /<g class="feature dead" data-feature="Turbo">/);
      assert.match(done.text, /<g class="feature core abstract" data-feature="Car" data-open="">/);

      const svg = await anonymous().get(`/model/${fileId}/diagram.svg`);
      assert.equal(svg.status, 200);
      assert.match(svg.headers.get('content-type') ?? '', /^image\/svg\+xml/);
      assert.match(svg.text, /<g class="feature dead" data-feature="Turbo">/);
      assert.match(svg.text, /<g class="feature core" data-feature="Engine">/);
      assert.match(svg.text, /data-feature="Diesel &lt;V6&gt;"/);
    });

    it('explains a void model in the fact label, each constraint linked to its line', async () => {
      const { fileId } = await storeModel(server, { content: 'features\n    Root\n        mandatory\n            A\n        optional\n            B\n\nconstraints\n    A => B\n    !B\n' });
      const analysis = await finishedAnalysis(anonymous(), fileId);
      assert.equal(analysis.satisfiable, false);
      const page = await anonymous().get(`/model/${fileId}/`);
      assert.match(page.text, /id="fact-satisfiable"><span class="text-danger">no \(void model\)/);
      const why = /id="void-explanation"[\s\S]*?<\/ul>/.exec(page.text)?.[0] ?? '';
      assert.match(why, /<a href="#L9">Line 9<\/a>: <code>A =&gt; B<\/code>/);
      assert.match(why, /<a href="#L10">Line 10<\/a>: <code>!B<\/code>/);
    });

    it('redirects the address without its slash, keeping the query', async () => {
      const { fileId } = await storeModel(server);
      const res = await anonymous().get(`/model/${fileId}?root=Engine`);
      assert.equal(res.status, 301);
      assert.equal(res.location, `/model/${fileId}/?root=Engine`);
    });

    it('shows a subtree with root and depth, and refuses bad values with 400 and a message', async () => {
      const { fileId } = await storeModel(server);
      const sub = await anonymous().get(`/model/${fileId}/diagram.svg?root=Engine`);
      assert.equal(sub.status, 200);
      assert.deepEqual([...sub.text.matchAll(/data-feature="([^"]*)"/g)].map((m) => m[1]), ['Engine']);
      assert.match(sub.text, /class="up" href="\?root=Car"/);
      const shallow = await anonymous().get(`/model/${fileId}/diagram.svg?depth=0`);
      assert.deepEqual([...shallow.text.matchAll(/data-feature="([^"]*)"/g)].map((m) => m[1]), ['Car']);
      const page = await anonymous().get(`/model/${fileId}/?root=Engine`);
      assert.equal(page.status, 200);
      assert.match(page.text, /href="\/model\/\d+\/diagram.svg\?root=Engine"/);

      for (const query of ['depth=abc', 'depth=-1', 'depth=1&depth=2', 'root=Nope', 'root=']) {
        const res = await anonymous().get(`/model/${fileId}/diagram.svg?${query}`);
        assert.equal(res.status, 400, query);
        assert.equal(typeof res.json.message, 'string', query);
        assert.doesNotMatch(res.text, /at \w+ \(/, 'no stack trace');
        const pageRes = await anonymous().get(`/model/${fileId}/?${query}`);
        assert.equal(pageRes.status, 400, `page ${query}`);
      }
      assert.match((await anonymous().get(`/model/${fileId}/diagram.svg?root=Nope`)).json.message, /no feature named "Nope"/);
    });

    it("answers 404 for someone else's unsynchronized dataset, as /file/view does, and shows it to its owner", async () => {
      const { fileId } = await storeModel(server, { owner: 'user2@example.com', doi: null });
      const other = await login(server, 'user1@example.com');
      const owner = await login(server, 'user2@example.com');
      for (const client of [anonymous(), other]) {
        assert.equal((await client.get(`/file/view/${fileId}`)).status, 404);
        assert.equal((await client.get(`/model/${fileId}/`)).status, 404);
        const svg = await client.get(`/model/${fileId}/diagram.svg`);
        assert.equal(svg.status, 404);
        assert.deepEqual(svg.json, { message: `There is no file with id ${fileId}.` });
        assert.equal((await client.get(`/model/${fileId}/analysis.json`)).status, 404);
      }
      const page = await owner.get(`/model/${fileId}/`);
      assert.equal(page.status, 200);
      assert.match(page.text, /not synchronized/);
      assert.equal((await owner.get(`/model/${fileId}/diagram.svg`)).status, 200);
      assert.equal((await owner.get(`/model/${fileId}/analysis.json`)).status, 200);
    });

    it('answers 404 for unknown and malformed ids and a file missing on disk', async () => {
      for (const id of ['999999', '0', '2147483648', '99999999999']) {
        assert.equal((await anonymous().get(`/model/${id}/`)).status, 404, id);
        const svg = await anonymous().get(`/model/${id}/diagram.svg`);
        assert.equal(svg.status, 404, id);
        assert.equal(typeof svg.json.message, 'string');
        assert.equal((await anonymous().get(`/model/${id}/analysis.json`)).status, 404, id);
      }
      for (const id of ['abc', '1e3', '-1']) assert.equal((await anonymous().get(`/model/${id}/`)).status, 404, id);
      const { fileId, key } = await storeModel(server);
      await deleteStored(server, key);
      const res = await anonymous().get(`/model/${fileId}/`);
      assert.equal(res.status, 404);
      assert.match(res.text, /missing from disk/);
      assert.equal((await anonymous().get(`/model/${fileId}/diagram.svg`)).status, 404);
    });

    it('shows a model with syntax errors with its errors and source, and no diagram (422 for the SVG)', async () => {
      const { fileId } = await storeModel(server, { content: 'features\n    Root\n        INVALID {{{ ]]\n' });
      const page = await anonymous().get(`/model/${fileId}/`);
      assert.equal(page.status, 200);
      assert.match(page.text, /id="model-errors"/);
      const svg = await anonymous().get(`/model/${fileId}/diagram.svg`);
      assert.equal(svg.status, 422);
      assert.match(svg.json.message, /syntax errors/);
    });

    it('is linked from the DOI page for every file', async () => {
      const { fileId, doi } = await storeModel(server);
      const page = await anonymous().get(`/doi/${doi}/`);
      assert.equal(page.status, 200);
      assert.ok(page.text.includes(`href="/model/${fileId}/"`));
      const links = [...page.text.matchAll(/class="btn btn-sm btn-outline-secondary js-model-page" href="\/model\/(\d+)\/"/g)].map((m) => Number(m[1]));
      const files = [...page.text.matchAll(/class="d-flex flex-wrap gap-2 align-items-center mt-2 file-row" data-file-id="(\d+)"/g)].map((m) => Number(m[1]));
      assert.deepEqual(links, files);
    });

    it('serves its script and stylesheet', async () => {
      const js = await anonymous().get('/model/js/model.js');
      assert.equal(js.status, 200);
      assert.match(js.text, /analysis/);
      assert.equal((await anonymous().get('/model/css/model.css')).status, 200);
    });
  });
}

describe('the DOI page without the model module', () => {
  it('offers no model page link', async () => {
    const server = await startTestServer({ seed: true, modules: ['public', 'auth', 'mail', 'profile', 'dataset', 'featuremodel', 'hubfile', 'modeltool', 'explore'] });
    try {
      const { doi } = await storeModel(server);
      const page = await new TestClient(server.baseUrl).get(`/doi/${doi}/`);
      assert.equal(page.status, 200);
      assert.doesNotMatch(page.text, /js-model-page/);
      assert.equal((await new TestClient(server.baseUrl).get('/model/1/')).status, 404);
    } finally {
      await server.close();
    }
  });
});

describe('the model page without the analysis module', () => {
  it('says that models are not analysed here, and still shows the diagram and source', async () => {
    const server = await startTestServer({ seed: true, modules: ['public', 'auth', 'mail', 'profile', 'dataset', 'featuremodel', 'hubfile', 'modeltool', 'explore', 'model'] });
    try {
      const { fileId } = await storeModel(server);
      const client = new TestClient(server.baseUrl);
      const page = await client.get(`/model/${fileId}/`);
      assert.equal(page.status, 200);
      assert.match(page.text, /id="analysis-unavailable"/);
      assert.match(page.text, /<g class="feature abstract" data-feature="Car" data-open="">/);
      assert.match(page.text, /id="L12"/);
      const json = await client.get(`/model/${fileId}/analysis.json`);
      assert.equal(json.status, 200);
      assert.equal(json.json.status, 'unavailable');
    } finally {
      await server.close();
    }
  });
});
