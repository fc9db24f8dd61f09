// Citable samples (issue 37, item 6): the citation of a sample names the dataset's authors, year
// and DOI, the file, kind, parameters, seed and engine version, in text, BibTeX and CSL-JSON.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { fetchJson, uploadDataset } from '../../../test/support/uploads.ts';
import { ENGINE_VERSION } from '../../../packages/analysis/src/index.ts';
import { PRINTER_UVL } from './configurator.test-support.ts';

for (const dialect of testDialects()) {
  describe(`citing a sample [${dialect.name}]`, () => {
    let server: TestServer;
    let file = 0;
    let dataset: any;

    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { ANALYSIS_WORKERS: '0' } });
      const client = new TestClient(server.baseUrl);
      await client.login('user1@example.com', '1234');
      await client.get('/dataset/upload');
      const datasetId = (await uploadDataset(client, 'Printer citations', [['printer.uvl', PRINTER_UVL]])).dataset_id;
      dataset = (await fetchJson(`${server.baseUrl}/api/v1/datasets/${datasetId}`)).json;
      file = dataset.files[0].file_id;
    });
    after(async () => server?.close());

    it('gives text, BibTeX and CSL-JSON with authors, year, DOI, file, kind, parameters, seed and engine version', async () => {
      const res = await fetchJson(`${server.baseUrl}/api/v1/files/${file}/samples/citation?kind=uniform&n=7&seed=42&select=Laser`);
      assert.equal(res.status, 200, JSON.stringify(res.json));
      const { text, bibtex, csl } = res.json;
      const year = String(new Date().getUTCFullYear());
      // The API gives the DOI's address; the citation holds the DOI itself.
      const doi = /10\.\d+\/[^\s"]+$/.exec(String(dataset.dataset_doi ?? dataset.doi))?.[0];
      assert.ok(doi, JSON.stringify(dataset));
      for (const form of [text, bibtex, JSON.stringify(csl)]) {
        for (const part of ['Lyst', year, 'printer.uvl', 'uniform', 'n=7', 'select=Laser', '42', ENGINE_VERSION, `files/${file}/samples?kind=uniform`]) {
          assert.ok(form.includes(part), `${part} missing from ${form}`);
        }
        assert.ok(form.includes(doi), `${doi} missing from ${form}`);
      }
      assert.match(text, /seed 42/);
      assert.match(bibtex, /^@misc\{Ana\d{4}sample42,\n  author = \{Ana Lyst\},/);
      assert.match(bibtex, new RegExp(`\\n  year = \\{${year}\\}`));
      assert.deepEqual(csl.author, [{ family: 'Lyst', given: 'Ana' }]);
      assert.deepEqual(csl.issued, { 'date-parts': [[Number(year)]] });
      assert.equal(csl.type, 'dataset');
      assert.equal(csl.version, ENGINE_VERSION);
    });

    it('gives each form alone with its media type, and a t-wise sample its t', async () => {
      const base = `${server.baseUrl}/api/v1/files/${file}/samples/citation?kind=twise&t=2&seed=3`;
      const bib = await fetch(`${base}&format=bibtex`);
      assert.equal(bib.status, 200);
      assert.match(bib.headers.get('content-type')!, /^application\/x-bibtex/);
      assert.match(await bib.text(), /2-wise sample of printer\.uvl \(t=2, seed 3\)/);
      const csl = await fetch(`${base}&format=csl`);
      assert.match(csl.headers.get('content-type')!, /^application\/vnd\.citationstyles\.csl\+json/);
      const items = await csl.json();
      assert.equal(items.length, 1);
      assert.match(items[0].note, /kind 2-wise; parameters t=2; seed 3; engine version/);
      const text = await fetch(`${base}&format=text`);
      assert.match(text.headers.get('content-type')!, /^text\/plain/);
      assert.match(await text.text(), /^Ana Lyst \(\d{4}\)\. Printer citations\. /);
    });

    it('answers 404 for an unknown file and 400 for a bad query', async () => {
      assert.equal((await fetchJson(`${server.baseUrl}/api/v1/files/999999/samples/citation?kind=uniform`)).status, 404);
      const bad = await fetchJson(`${server.baseUrl}/api/v1/files/${file}/samples/citation?kind=nope`);
      assert.equal(bad.status, 400);
      assert.equal(typeof bad.json.message, 'string');
    });
  });
}
