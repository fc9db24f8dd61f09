// OAI-PMH datestamps of datasets published after their creation, on every dialect (extensions
// section 13): a draft created at T0 and published at T1, after a harvest, is dated T1, so the
// next incremental harvest (from= the time of the last one) gets it; before, it was dated T0 and
// no incremental harvest ever saw it. Its record's date (oai_dc dc:date, DataCite publicationYear
// and Issued date, in the record and in the DOI page's DataCite XML) is its publication too.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { newUser } from '../../../test/support/accounts.ts';
import { createDatasets, createDraft, oai, parseXml, publishDraft } from './oai.test-support.ts';

const T0 = '2025-05-01T08:00:00.000Z';
const seconds = (iso: string) => `${iso.slice(0, 19)}Z`;

for (const dialect of testDialects()) {
  describe(`OAI-PMH datestamp of a dataset published after its creation [${dialect.name}]`, () => {
    let server: TestServer;
    let domain: string;
    let userId: number;

    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, env: { ANALYSIS_WORKERS: '0' } });
      domain = server.hub.ctx.config.domain;
      userId = (await newUser(server, 'Publisher')).userId;
      await createDatasets(server, userId, [{ doi: '10.5555/published.at.once', createdAt: '2025-04-01T00:00:00.000Z' }]);
    });
    after(async () => server?.close());

    it('a draft created at T0 and published at T1 comes in the harvest from= a time between them, dated T1', async () => {
      const draftId = await createDraft(server, userId, T0);
      // The last harvest: the draft is not in it.
      const first = (await oai(server, 'verb=ListIdentifiers&metadataPrefix=oai_dc')).ListIdentifiers.header;
      assert.deepEqual(first.map((h: any) => h.identifier), [`oai:${domain}:10.5555/published.at.once`]);
      const from = seconds(new Date().toISOString());
      assert.ok(from > T0);

      const doi = await publishDraft(server, userId, draftId);
      const meta = await server.hub.db.selectFrom('data_set as ds').innerJoin('ds_meta_data as md', 'md.id', 'ds.ds_meta_data_id')
        .select(['ds.created_at', 'md.published_at', 'md.dataset_doi']).where('ds.id', '=', draftId).executeTakeFirstOrThrow();
      assert.equal(meta.created_at, T0);
      assert.equal(meta.dataset_doi, doi);
      const t1 = meta.published_at!;
      assert.ok(seconds(t1) >= from, `published at ${t1}, harvested last at ${from}`);

      const doc = await oai(server, `verb=ListRecords&metadataPrefix=oai_dc&from=${from}`);
      assert.equal(doc.error, undefined, JSON.stringify(doc.error));
      const records = doc.ListRecords.record;
      assert.deepEqual(records.map((r: any) => r.header[0].identifier), [`oai:${domain}:${doi}`]);
      assert.equal(records[0].header[0].datestamp, seconds(t1));
      // GetRecord and the whole list agree: dated by its publication, it comes after the one published at its creation.
      const got = await oai(server, `verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(`oai:${domain}:${doi}`)}`);
      assert.equal(got.GetRecord.record[0].header[0].datestamp, seconds(t1));
      const all = (await oai(server, 'verb=ListIdentifiers&metadataPrefix=oai_dc')).ListIdentifiers.header;
      assert.deepEqual(all.map((h: any) => [h.identifier, h.datestamp]), [
        [`oai:${domain}:10.5555/published.at.once`, '2025-04-01T00:00:00Z'],
        [`oai:${domain}:${doi}`, seconds(t1)],
      ]);
      // A harvest of the time before the publication does not list it.
      const until = (await oai(server, 'verb=ListIdentifiers&metadataPrefix=oai_dc&until=2025-12-31T23:59:59Z')).ListIdentifiers.header;
      assert.deepEqual(until.map((h: any) => h.identifier), [`oai:${domain}:10.5555/published.at.once`]);
    });

    it('a draft created in 2025 and published now is dated by its publication: dc:date, publicationYear, Issued', async () => {
      const draftId = await createDraft(server, userId, T0, 'Drafted last year');
      const doi = await publishDraft(server, userId, draftId);
      const { published_at: publishedAt } = await server.hub.db.selectFrom('data_set as ds').innerJoin('ds_meta_data as md', 'md.id', 'ds.ds_meta_data_id')
        .select('md.published_at').where('ds.id', '=', draftId).executeTakeFirstOrThrow();
      const day = publishedAt!.slice(0, 10);
      const year = day.slice(0, 4);
      assert.notEqual(year, T0.slice(0, 4), 'published in a later year than its creation');
      const identifier = encodeURIComponent(`oai:${domain}:${doi}`);

      const dc = (await oai(server, `verb=GetRecord&metadataPrefix=oai_dc&identifier=${identifier}`)).GetRecord.record[0].metadata['oai_dc:dc'];
      assert.equal(dc['dc:date'], day);
      const resource = (await oai(server, `verb=GetRecord&metadataPrefix=oai_datacite&identifier=${identifier}`)).GetRecord.record[0].metadata.resource;
      assert.equal(resource.publicationYear, year);
      assert.deepEqual(resource.dates.date, { '#text': day, '@dateType': 'Issued' });
      // The DOI page's DataCite XML is the same resource.
      const exported = await fetch(`${server.baseUrl}/doi/${doi}/export/datacite.xml`);
      assert.equal(exported.status, 200);
      assert.equal(parseXml(await exported.text()).resource.publicationYear, year);
    });
  });
}
