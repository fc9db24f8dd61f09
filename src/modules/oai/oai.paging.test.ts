// OAI-PMH paging on every dialect (extensions section 13): 250 published datasets come in exactly
// 3 pages of at most 100, each once, with completeListSize and cursor; datasets published between
// two pages (and many sharing one datestamp) neither make a record lost nor sent twice, and a
// draft created long before but published between two pages comes in the harvest under way.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { newUser } from '../../../test/support/accounts.ts';
import { addImportSource } from '../../../test/support/import-sources.ts';
import { createDatasets, createDraft, harvestAll, oai, publishDraft } from './oai.test-support.ts';

const COUNT = 250;
/** Seven datasets with the very same created_at in each second, so that a page ends inside a group: the id breaks ties. */
const createdAt = (i: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, Math.floor(i / 7))).toISOString();

for (const dialect of testDialects()) {
  describe(`OAI-PMH paging [${dialect.name}]`, () => {
    let server: TestServer;
    let userId: number;
    let ids: number[];
    let queries: string[] | null = null;

    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, env: { ANALYSIS_WORKERS: '0' }, onQuery: (q) => queries?.push(q) });
      userId = (await newUser(server, 'Harvester')).userId;
      ids = await createDatasets(server, userId, Array.from({ length: COUNT }, (_, i) => ({ doi: `10.5555/oai.${i}`, createdAt: createdAt(i) })));
      // Drafts in the middle of the order are never harvested.
      await createDatasets(server, userId, [{ doi: null, createdAt: createdAt(120) }, { doi: null, createdAt: createdAt(5) }]);
    });
    after(async () => server?.close());

    it('ListRecords of 250 published datasets completes in 3 pages, each record once', async () => {
      const { pages, identifiers } = await harvestAll(server, 'ListRecords', 'metadataPrefix=oai_datacite');
      assert.equal(pages.length, 3);
      assert.deepEqual(pages.map((p) => p.record.length), [100, 100, 50]);
      assert.equal(identifiers.length, COUNT);
      assert.equal(new Set(identifiers).size, COUNT);
      const domain = server.hub.ctx.config.domain;
      assert.deepEqual(new Set(identifiers), new Set(Array.from({ length: COUNT }, (_, i) => `oai:${domain}:10.5555/oai.${i}`)));
      // completeListSize on every page, the cursor counting the records sent before it, an empty token last.
      assert.deepEqual(pages.map((p) => [p.resumptionToken['@completeListSize'], p.resumptionToken['@cursor']]), [['250', '0'], ['250', '100'], ['250', '200']]);
      assert.equal(pages[2].resumptionToken['#text'], undefined);
    });

    it('a page of 100 records costs a fixed number of queries, not one per record', async () => {
      // Three datasets of the first page got import sources (their summaries are read again): one query reads all of them.
      for (const i of [0, 40, 99]) await addImportSource(server, ids[i]!, { url: `https://git.example/m${i}.uvl` });
      queries = [];
      const doc = await oai(server, 'verb=ListRecords&metadataPrefix=oai_dc');
      const counted = queries;
      queries = null;
      assert.equal(doc.ListRecords.record.length, 100);
      // The page, its summaries (dataset rows, authors, models, import sources) and completeListSize.
      assert.ok(counted.length <= 9, `${counted.length} queries`);
      assert.equal(counted.filter((q) => /import_source/.test(q)).length, 1, 'the sources of the page in one query');
      const sources = doc.ListRecords.record.map((r: any) => r.metadata['oai_dc:dc']['dc:source']?.[0]).filter(Boolean);
      assert.deepEqual(sources, [0, 40, 99].map((i) => `https://git.example/m${i}.uvl`));
    });

    it('datasets published between two pages shift nothing: no record lost or repeated', async () => {
      // Drafts created before everything: published between two pages, they are dated by their publication (now).
      const drafts = [await createDraft(server, userId, '2024-06-01T00:00:00.000Z'), await createDraft(server, userId, '2024-06-01T00:00:00.000Z')];
      const publishedDrafts: string[] = [];
      let n = 0;
      const late = async () => {
        // Datasets made with their DOI (seeders) are dated by their creation: one before everything
        // already sent, one after everything: an offset-based page would repeat or skip.
        await createDatasets(server, userId, [
          { doi: `10.5555/late.early.${n}`, createdAt: '2024-06-01T00:00:00.000Z' },
          { doi: `10.5555/late.new.${n}`, createdAt: '2030-01-01T00:00:00.000Z' },
        ]);
        publishedDrafts.push(await publishDraft(server, userId, drafts[n]!));
        n++;
      };
      const { identifiers } = await harvestAll(server, 'ListIdentifiers', 'metadataPrefix=oai_dc', late);
      const domain = server.hub.ctx.config.domain;
      const originals = Array.from({ length: COUNT }, (_, i) => `oai:${domain}:10.5555/oai.${i}`);
      // The ones dated before the page reached are for the next harvest (from=); the later ones come
      // in this one, the drafts created long ago but published now among them.
      const expected = [...originals, ...['10.5555/late.new.0', '10.5555/late.new.1', ...publishedDrafts].map((doi) => `oai:${domain}:${doi}`)];
      assert.equal(n, 2);
      assert.equal(identifiers.length, new Set(identifiers).size, 'no identifier twice');
      assert.deepEqual([...identifiers].sort(), expected.sort());
    });

    it('from and until at seconds granularity select by datestamp across pages', async () => {
      // Seconds 3 to 20 hold datasets 21 to 146.
      const { identifiers, pages } = await harvestAll(server, 'ListIdentifiers', 'metadataPrefix=oai_dc&from=2025-01-01T00:00:03Z&until=2025-01-01T00:00:20Z');
      assert.equal(pages.length, 2);
      const domain = server.hub.ctx.config.domain;
      assert.deepEqual(identifiers.sort(), Array.from({ length: 126 }, (_, i) => `oai:${domain}:10.5555/oai.${i + 21}`).sort());
    });
  });
}
