// The configurator's API (issue 24, extensions section 6 "In the hub") on every dialect: exact
// answers on a hand-made model, 202 then 200 for samples and commonality, CSV, bad values,
// files of hidden datasets, and tokens without the write scope.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { bearer, createToken } from '../../../test/support/api.ts';
import { fetchJson, uploadDataset } from '../../../test/support/uploads.ts';
import { PRINTER_UVL, waitForResult } from './configurator.test-support.ts';

for (const dialect of testDialects()) {
  describe(`the configurator's API [${dialect.name}]`, () => {
    let server: TestServer;
    let file = 0;
    let datasetId = 0;
    let client: TestClient;
    const configure = (body: unknown, id = file) => fetchJson(`${server.baseUrl}/api/v1/files/${id}/configure`, {
      method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' },
    });

    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { ANALYSIS_WORKERS: '0' } });
      client = new TestClient(server.baseUrl);
      await client.login('user1@example.com', '1234');
      await client.get('/dataset/upload');
      datasetId = (await uploadDataset(client, 'Printer configurator', [['printer.uvl', PRINTER_UVL]])).dataset_id;
      file = (await fetchJson(`${server.baseUrl}/api/v1/datasets/${datasetId}`)).json.files[0].file_id;
    });
    after(async () => server?.close());

    it('propagates decisions: states, the remaining count and why', async () => {
      const open = await configure({});
      assert.equal(open.status, 200, JSON.stringify(open.json));
      assert.deepEqual(open.json.features, { Printer: 'forced', Laser: 'open', Inkjet: 'open', Duplex: 'open', Stapler: 'open' });
      assert.equal(open.json.remaining, '6');
      const res = await configure({ selected: ['Stapler', 'Laser'], why: 'Inkjet' });
      assert.equal(res.status, 200);
      assert.equal(res.json.consistent, true);
      assert.equal(res.json.remaining, '1');
      assert.deepEqual(res.json.features, { Printer: 'forced', Laser: 'selected', Inkjet: 'excluded', Duplex: 'forced', Stapler: 'selected' });
      assert.deepEqual(res.json.why, { feature: 'Inkjet', state: 'excluded', why: ['selected Laser'] });
    });

    it('answers a conflict with a minimal set of decisions', async () => {
      const res = await configure({ selected: ['Laser', 'Inkjet', 'Duplex'] });
      assert.equal(res.status, 200);
      assert.equal(res.json.consistent, false);
      assert.deepEqual(res.json.conflict.decisions, ['selected Laser', 'selected Inkjet']);
    });

    it('refuses unknown features and malformed bodies with 400 and a message', async () => {
      for (const body of [{ selected: ['Nope'] }, { why: 'Nope' }, { selected: 'Laser' }]) {
        const res = await configure(body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(typeof res.json.message, 'string');
      }
    });

    it('answers commonality 202 then 200 with exact values', async () => {
      const first = await fetch(`${server.baseUrl}/api/v1/files/${file}/commonality`);
      assert.equal(first.status, 202);
      assert.ok(Number(first.headers.get('retry-after')) > 0);
      assert.deepEqual(await first.json(), { status: 'pending' });
      const result = await waitForResult(`${server.baseUrl}/api/v1/files/${file}/commonality`);
      assert.equal(result.configurations, '6');
      assert.deepEqual(result.features.Duplex, { commonality: '4', probability: 4 / 6 });
      assert.deepEqual(result.features.Printer, { commonality: '6', probability: 1 });
      assert.deepEqual(result.features.Stapler, { commonality: '2', probability: 2 / 6 });
      const probabilities = await fetchJson(`${server.baseUrl}/configurator/${file}/probabilities.json`);
      assert.deepEqual(probabilities.json.probability, { Printer: 1, Laser: 0.5, Inkjet: 0.5, Duplex: 4 / 6, Stapler: 2 / 6 });
      assert.deepEqual(probabilities.json.shown, { Printer: '1', Laser: '0.500', Inkjet: '0.500', Duplex: '0.667', Stapler: '0.333' });
      // The histogram's bars, decided on the exact counts: Printer core, the rest in their tenths.
      assert.deepEqual(probabilities.json.bins, [0, 0, 0, 0, 1, 0, 2, 1, 0, 0, 0, 1]);
    });

    it('computes a uniform sample once, the same for the same seed, as JSON and CSV', async () => {
      const url = `${server.baseUrl}/api/v1/files/${file}/samples?kind=uniform&n=20&seed=7&select=Duplex`;
      const first = await fetch(url);
      assert.equal(first.status, 202);
      const sample = await waitForResult(url);
      assert.deepEqual([sample.kind, sample.n, sample.seed, sample.configurations.length], ['uniform', 20, 7, 20]);
      assert.deepEqual(sample.features, ['Duplex', 'Inkjet', 'Laser', 'Printer', 'Stapler']);
      for (const c of sample.configurations) {
        assert.ok(c.includes('Printer') && c.includes('Duplex'));
        assert.equal(c.filter((f: string) => f === 'Laser' || f === 'Inkjet').length, 1);
      }
      assert.deepEqual((await fetchJson(url)).json, sample, 'stored: the same answer');
      const csv = await fetch(url, { headers: { accept: 'text/csv' } });
      assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
      const lines = (await csv.text()).trim().split('\n');
      assert.equal(lines[0], 'Duplex,Inkjet,Laser,Printer,Stapler');
      assert.equal(lines.length, 21);
      assert.ok(lines.slice(1).every((l) => /^1,[01],[01],1,[01]$/.test(l)));
      const rows = await server.hub.db.selectFrom('model_sample').select(['kind', 'params']).where('kind', '=', 'uniform').execute();
      assert.deepEqual(rows, [{ kind: 'uniform', params: 'n=20;seed=7;select=Duplex;deselect=' }]);
    });

    it('serves a sample stored by another engine version never: it is drawn again under this one', async () => {
      const { sha256 } = await server.hub.db.selectFrom('model_sample').select('sha256').where('kind', '=', 'uniform').executeTakeFirstOrThrow();
      const now = new Date().toISOString();
      const older = { kind: 'uniform', n: 3, seed: 11, engine_version: '0.9.0', features: ['Printer'], configurations: [['Printer'], ['Printer'], ['Printer']] };
      await server.hub.db.insertInto('model_sample').values({
        sha256, kind: 'uniform', params: 'n=3;seed=11;select=;deselect=', engine_version: '0.9.0', status: 'done',
        result: JSON.stringify(older), summary: null, error: null, claimed_by: null, claimed_at: null, created_at: now, finished_at: now,
      }).execute();
      const url = `${server.baseUrl}/api/v1/files/${file}/samples?kind=uniform&n=3&seed=11`;
      assert.equal((await fetch(url)).status, 202, 'the older engine\'s row is not this engine\'s answer');
      const sample = await waitForResult(url);
      assert.notEqual(sample.engine_version, '0.9.0');
      assert.equal(sample.configurations.length, 3);
      assert.ok(sample.configurations.every((c: string[]) => c.includes('Printer') && c.length > 1), 'each a whole configuration of the model');
      const rows = await server.hub.db.selectFrom('model_sample').select('engine_version').where('params', '=', 'n=3;seed=11;select=;deselect=').execute();
      assert.deepEqual(rows.map((r) => r.engine_version).sort(), ['0.9.0', sample.engine_version].sort());
    });

    it('computes a complete pairwise sample, also as CSV', async () => {
      const url = `${server.baseUrl}/api/v1/files/${file}/samples?kind=twise&t=2&seed=1`;
      const sample = await waitForResult(url);
      assert.deepEqual([sample.kind, sample.t, sample.seed, sample.complete], ['twise', 2, 1, true]);
      assert.equal(sample.covered, sample.interactions);
      assert.equal(sample.size, sample.configurations.length);
      assert.ok(sample.size >= sample.lower_bound);
      assert.equal(typeof sample.engine_version, 'string');
      const csv = await (await fetch(url, { headers: { accept: 'text/csv' } })).text();
      assert.equal(csv.trim().split('\n').length, sample.size + 1);
    });

    it('a uniform sample whose selections contradict is a 422 naming the conflict, not 200 with no configuration; an unknown name a 400', async () => {
      /** The answer after the 202s: the sample is computed off the request. */
      const settled = async (query: string) => {
        for (;;) {
          const res = await fetchJson(`${server.baseUrl}/api/v1/files/${file}/samples?kind=uniform&n=5&seed=3&${query}`);
          if (res.status !== 202) return res;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };
      const both = await settled('select=Laser,Inkjet');
      assert.equal(both.status, 422, JSON.stringify(both.json));
      assert.deepEqual(Object.keys(both.json), ['message']);
      assert.match(both.json.message, /^No configuration keeps these decisions: selected (Inkjet, selected Laser|Laser, selected Inkjet) contradict each other \(through the tree\)\.$/);
      const againstItself = await settled('select=Laser&deselect=Laser');
      assert.equal(againstItself.status, 422);
      assert.match(againstItself.json.message, /selected Laser, deselected Laser/);
      // Stored: asked again, the same answer at once.
      assert.equal((await fetchJson(`${server.baseUrl}/api/v1/files/${file}/samples?kind=uniform&n=5&seed=3&select=Laser,Inkjet`)).status, 422);
      const unknown = await settled('select=Nope');
      assert.equal(unknown.status, 400);
      assert.match(unknown.json.message, /Nope/);
      // Decisions some configuration keeps: the sample.
      const fine = await settled('select=Laser');
      assert.equal(fine.status, 200);
      assert.equal(fine.json.configurations.length, 5);
    });

    it('refuses bad sample parameters with 400 and a message', async () => {
      for (const query of ['kind=uniform&n=0', 'kind=uniform&n=10001', 'kind=other', '', 'kind=uniform&seed=-1', 'kind=twise&t=4', 'kind=uniform&n=abc']) {
        const res = await fetchJson(`${server.baseUrl}/api/v1/files/${file}/samples?${query}`);
        assert.equal(res.status, 400, query);
        assert.equal(typeof res.json.message, 'string', query);
      }
    });

    it('answers 404 for unknown files and files of datasets the caller may not see', async () => {
      assert.equal((await configure({}, 999999)).status, 404);
      assert.equal((await fetchJson(`${server.baseUrl}/api/v1/files/999999/commonality`)).status, 404);
      // 0 is an id no file has: 404 as for the analysis and the file itself, not a 400 about the address.
      assert.deepEqual([(await configure({}, 0)).status, (await configure({}, 0)).json], [404, { message: 'File not found' }]);
      for (const path of ['commonality', 'samples?kind=uniform', 'samples/citation?kind=uniform', 'analysis', '']) {
        const res = await fetchJson(`${server.baseUrl}/api/v1/files/0/${path}`.replace(/\/$/, ''));
        assert.equal(res.status, 404, path);
        assert.equal(typeof res.json.message, 'string', path);
      }
      const hidden = (await uploadDataset(client, 'Hidden printer', [['hidden.uvl', PRINTER_UVL.replace('Stapler', 'Hidden')]])).dataset_id;
      const hiddenFile = (await client.get(`/api/v1/datasets/${hidden}`)).json.files[0].file_id;
      // Unsynchronized: the dataset has no DOI, so only its owner sees its files.
      const meta = await server.hub.db.selectFrom('data_set').select('ds_meta_data_id').where('id', '=', hidden).executeTakeFirstOrThrow();
      await server.hub.db.updateTable('ds_meta_data').set({ dataset_doi: null }).where('id', '=', meta.ds_meta_data_id).execute();
      assert.equal((await configure({}, hiddenFile)).status, 404, 'anonymous');
      assert.equal((await fetchJson(`${server.baseUrl}/api/v1/files/${hiddenFile}/samples?kind=uniform`)).status, 404);
      assert.equal((await fetchJson(`${server.baseUrl}/api/v1/files/${hiddenFile}/commonality`)).status, 404);
      const own = await client.post(`/api/v1/files/${hiddenFile}/configure`, { body: JSON.stringify({ selected: ['Hidden'] }), headers: { 'content-type': 'application/json' } });
      assert.equal(own.status, 200, 'the owner');
      assert.equal(own.json.features.Duplex, 'forced');
    });

    it('lets a read-only token configure without CSRF', async () => {
      const token = await createToken(client, ['read']);
      const res = await bearer(server.baseUrl, token, 'POST', `/api/v1/files/${file}/configure`, { deselected: ['Duplex'] });
      assert.equal(res.status, 200);
      assert.equal(res.json.features.Stapler, 'excluded');
    });

    it('documents the routes in the OpenAPI document', async () => {
      const doc = (await fetchJson(`${server.baseUrl}/api/v1/openapi.json`)).json;
      for (const path of ['/api/v1/files/{file_id}/configure', '/api/v1/files/{file_id}/commonality', '/api/v1/files/{file_id}/samples']) assert.ok(doc.paths[path], path);
    });
  });
}
