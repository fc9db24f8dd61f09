// OAI-PMH over HTTP on every dialect (extensions section 13): every verb and every protocol error,
// the XML read as a harvester reads it (namespaces, root, responseDate, request element, the
// required DataCite and Dublin Core elements), drafts never harvested, from/until at both
// granularities, the POST form, escaping, and the DOI page's DataCite XML export.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { newUser } from '../../../test/support/accounts.ts';
import { addImportSource } from '../../../test/support/import-sources.ts';
import { createDatasets, harvestAll, oai, parseXml } from './oai.test-support.ts';

const OAI_NS = 'http://www.openarchives.org/OAI/2.0/';
const TRICKY = 'Models <b>&amp; "quotes" \'n\' </metadata> & more';
/** Where the models of dataset c were imported from (extensions section 13): a Zenodo record and a URL. */
const SOURCE_DOI = '10.5281/zenodo.4242';
const SOURCE_URL = 'https://git.example/models/archive/main.zip?ref=v1&x=<y>';

for (const dialect of testDialects()) {
  describe(`OAI-PMH over HTTP [${dialect.name}]`, () => {
    let server: TestServer;
    let domain: string;
    let userId: number;
    let ids: number[];
    const id = (doi: string) => `oai:${domain}:${doi}`;

    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, env: { ANALYSIS_WORKERS: '0' } });
      domain = server.hub.ctx.config.domain;
      userId = (await newUser(server, 'Harvested')).userId;
      ids = await createDatasets(server, userId, [
        { doi: '10.5555/a', createdAt: '2025-03-01T10:00:00.000Z' },
        { doi: '10.5555/b', createdAt: '2025-03-02T10:00:00.500Z', title: TRICKY, tags: 'uvl, a&b' },
        { doi: null, createdAt: '2025-03-02T10:00:00.000Z', title: 'A draft' },
        { doi: '10.5555/c', createdAt: '2025-03-03T23:59:59.999Z' },
      ]);
      await addImportSource(server, ids[3]!, { url: `https://doi.org/${SOURCE_DOI}`, doi: SOURCE_DOI });
      await addImportSource(server, ids[3]!, { url: SOURCE_URL });
    });
    after(async () => server?.close());

    it('Identify: the OAI-PMH root with its namespace, responseDate, request element and repository facts', async () => {
      const res = await fetch(`${server.baseUrl}/oai?verb=Identify`);
      const text = await res.text();
      assert.match(text, /^<\?xml version="1.0" encoding="UTF-8"\?>/);
      const doc = parseXml(text)['OAI-PMH'];
      assert.equal(doc['@xmlns'], OAI_NS);
      assert.match(doc.responseDate, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      assert.deepEqual(doc.request, { '#text': `http://${domain}/oai`, '@verb': 'Identify' });
      const identify = doc.Identify;
      assert.equal(identify.baseURL, `http://${domain}/oai`);
      assert.equal(identify.protocolVersion, '2.0');
      assert.equal(identify.earliestDatestamp, '2025-03-01T10:00:00Z');
      assert.equal(identify.deletedRecord, 'no');
      assert.equal(identify.granularity, 'YYYY-MM-DDThh:mm:ssZ');
      assert.match(identify.adminEmail, /^[^<>\s]+@[^<>\s]+$/);
    });

    it('ListMetadataFormats and ListSets', async () => {
      const formats = (await oai(server, 'verb=ListMetadataFormats')).ListMetadataFormats.metadataFormat;
      assert.deepEqual(formats.map((f: any) => f.metadataPrefix), ['oai_dc', 'oai_datacite']);
      assert.equal(formats[1].metadataNamespace, 'http://datacite.org/schema/kernel-4');
      const forItem = await oai(server, `verb=ListMetadataFormats&identifier=${encodeURIComponent(id('10.5555/a'))}`);
      assert.equal(forItem.ListMetadataFormats.metadataFormat.length, 2);
      const sets = (await oai(server, 'verb=ListSets')).ListSets.set;
      assert.deepEqual(sets.map((s: any) => s.setSpec), ['datasets', 'collections']);
    });

    it('ListIdentifiers lists published datasets only, never a draft, with datestamps at seconds', async () => {
      const doc = await oai(server, 'verb=ListIdentifiers&metadataPrefix=oai_dc');
      const headers = doc.ListIdentifiers.header;
      assert.deepEqual(headers.map((h: any) => h.identifier), [id('10.5555/a'), id('10.5555/b'), id('10.5555/c')]);
      assert.deepEqual(headers.map((h: any) => h.datestamp), ['2025-03-01T10:00:00Z', '2025-03-02T10:00:00Z', '2025-03-03T23:59:59Z']);
      assert.ok(headers.every((h: any) => h.setSpec === 'datasets'));
      // A list that fits one page has no resumption token.
      assert.equal(doc.ListIdentifiers.resumptionToken, undefined);
      assert.equal((await oai(server, 'verb=ListIdentifiers&metadataPrefix=oai_dc&set=datasets')).ListIdentifiers.header.length, 3);
      assert.equal((await oai(server, 'verb=ListIdentifiers&metadataPrefix=oai_dc&set=collections')).error['@code'], 'noRecordsMatch');
    });

    it('ListRecords in oai_datacite carries every required DataCite element', async () => {
      const records = (await oai(server, 'verb=ListRecords&metadataPrefix=oai_datacite')).ListRecords.record;
      assert.equal(records.length, 3);
      const resource = records[1].metadata.resource;
      assert.equal(resource['@xmlns'], 'http://datacite.org/schema/kernel-4');
      assert.deepEqual(resource.identifier, { '#text': '10.5555/b', '@identifierType': 'DOI' });
      const creator = resource.creators.creator[0];
      assert.equal(creator.creatorName['#text'], 'Harvest, Hanna');
      assert.equal(creator.givenName, 'Hanna');
      assert.equal(creator.familyName, 'Harvest');
      assert.equal(resource.titles.title[0], TRICKY, 'the title comes back as written: escaped, never breaking the XML');
      assert.equal(resource.publisher, 'UVL Hub');
      assert.equal(resource.publicationYear, '2025');
      assert.equal(resource.resourceType['@resourceTypeGeneral'], 'Dataset');
      assert.deepEqual(resource.subjects.subject, ['uvl', 'a&b']);
    });

    it('ListRecords in oai_dc carries dc:title, dc:creator, dc:identifier and dc:date', async () => {
      const records = (await oai(server, 'verb=ListRecords&metadataPrefix=oai_dc')).ListRecords.record;
      const dc = records[0].metadata['oai_dc:dc'];
      assert.equal(dc['@xmlns:oai_dc'], 'http://www.openarchives.org/OAI/2.0/oai_dc/');
      assert.equal(dc['@xmlns:dc'], 'http://purl.org/dc/elements/1.1/');
      assert.equal(dc['dc:title'], 'Harvested 10.5555/a');
      assert.deepEqual(dc['dc:creator'], ['Harvest, Hanna']);
      assert.ok(dc['dc:identifier'].includes('https://doi.org/10.5555/a'));
      assert.equal(dc['dc:date'], '2025-03-01');
    });

    it('GetRecord answers one item in either format; a draft, an unknown or a foreign identifier is idDoesNotExist', async () => {
      const doc = await oai(server, `verb=GetRecord&metadataPrefix=oai_datacite&identifier=${encodeURIComponent(id('10.5555/c'))}`);
      assert.equal(doc.GetRecord.record[0].header[0].identifier, id('10.5555/c'));
      assert.equal(doc.GetRecord.record[0].metadata.resource.identifier['#text'], '10.5555/c');
      assert.equal(doc.request['@identifier'], id('10.5555/c'));
      for (const identifier of [id('10.5555/missing'), `oai:elsewhere.org:10.5555/a`, '10.5555/a', id('')]) {
        const answer = await oai(server, `verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(identifier)}`);
        assert.equal(answer.error['@code'], 'idDoesNotExist', identifier);
      }
      const formats = await oai(server, `verb=ListMetadataFormats&identifier=${encodeURIComponent(id('10.5555/nope'))}`);
      assert.equal(formats.error['@code'], 'idDoesNotExist');
    });

    it('the sources of imported models: IsDerivedFrom related identifiers in oai_datacite, dc:source in oai_dc; nothing for a dataset without', async () => {
      const derived = [{ '#text': SOURCE_DOI, '@relatedIdentifierType': 'DOI', '@relationType': 'IsDerivedFrom' }, { '#text': SOURCE_URL, '@relatedIdentifierType': 'URL', '@relationType': 'IsDerivedFrom' }];
      const records = (await oai(server, 'verb=ListRecords&metadataPrefix=oai_datacite')).ListRecords.record;
      assert.deepEqual(records.map((r: any) => r.metadata.resource.identifier['#text']), ['10.5555/a', '10.5555/b', '10.5555/c']);
      assert.deepEqual(records[2].metadata.resource.relatedIdentifiers.relatedIdentifier, derived);
      assert.equal(records[0].metadata.resource.relatedIdentifiers, undefined, 'no empty relatedIdentifiers element');
      const got = (await oai(server, `verb=GetRecord&metadataPrefix=oai_datacite&identifier=${encodeURIComponent(id('10.5555/c'))}`)).GetRecord.record[0];
      assert.deepEqual(got.metadata.resource.relatedIdentifiers.relatedIdentifier, derived);
      const dc = (await oai(server, 'verb=ListRecords&metadataPrefix=oai_dc')).ListRecords.record.map((r: any) => r.metadata['oai_dc:dc']);
      assert.deepEqual(dc[2]['dc:source'], [`https://doi.org/${SOURCE_DOI}`, SOURCE_URL]);
      assert.equal(dc[0]['dc:source'], undefined);
      const single = (await oai(server, `verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(id('10.5555/c'))}`)).GetRecord.record[0];
      assert.deepEqual(single.metadata['oai_dc:dc']['dc:source'], [`https://doi.org/${SOURCE_DOI}`, SOURCE_URL]);
      // The DOI page's DataCite XML is the same resource, the URL escaped in the file.
      const res = await fetch(`${server.baseUrl}/doi/10.5555/c/export/datacite.xml`);
      assert.equal(res.status, 200);
      const text = await res.text();
      assert.ok(text.includes('ref=v1&amp;x=&lt;y&gt;'), 'the URL is escaped');
      assert.deepEqual(parseXml(text).resource, got.metadata.resource);
      const plain = await (await fetch(`${server.baseUrl}/doi/10.5555/a/export/datacite.xml`)).text();
      assert.doesNotMatch(plain, /relatedIdentifier/);
    });

    it('from and until select by datestamp at day and seconds granularity, inclusive', async () => {
      const ids = async (q: string) => {
        const doc = await oai(server, `verb=ListIdentifiers&metadataPrefix=oai_dc&${q}`);
        return doc.error ? doc.error['@code'] : doc.ListIdentifiers.header.map((h: any) => h.identifier.split(':').pop());
      };
      assert.deepEqual(await ids('from=2025-03-02'), ['10.5555/b', '10.5555/c']);
      assert.deepEqual(await ids('until=2025-03-02'), ['10.5555/a', '10.5555/b']);
      assert.deepEqual(await ids('from=2025-03-02&until=2025-03-02'), ['10.5555/b']);
      // b was stored at 10:00:00.500: its second is 10:00:00.
      assert.deepEqual(await ids('from=2025-03-02T10:00:00Z&until=2025-03-02T10:00:00Z'), ['10.5555/b']);
      assert.deepEqual(await ids('until=2025-03-03T23:59:59Z&from=2025-03-03T00:00:00Z'), ['10.5555/c']);
      assert.deepEqual(await ids('from=2025-03-03T23:59:59Z'), ['10.5555/c']);
      assert.deepEqual(await ids('from=0001-01-01&until=9999-12-31'), ['10.5555/a', '10.5555/b', '10.5555/c']);
      assert.deepEqual(await ids('until=9999-12-31T23:59:59Z'), ['10.5555/a', '10.5555/b', '10.5555/c']);
      assert.deepEqual(await ids('until=2024-02-29'), 'noRecordsMatch');
      assert.equal(await ids('from=2025-03-04'), 'noRecordsMatch');
      assert.equal(await ids('until=2025-02-28T23:59:59Z'), 'noRecordsMatch');
    });

    it('every argument error is badArgument or badVerb, and the request element then has no attributes', async () => {
      const cases: [string, string][] = [
        ['', 'badVerb'],
        ['verb=Explode', 'badVerb'],
        ['verb=Identify&verb=Identify', 'badVerb'],
        ['verb=Identify&extra=1', 'badArgument'],
        ['verb=ListRecords', 'badArgument'],
        ['verb=ListRecords&metadataPrefix=oai_dc&metadataPrefix=oai_dc', 'badArgument'],
        ['verb=ListRecords&metadataPrefix=oai_dc&from=2025-13-01', 'badArgument'],
        ['verb=ListRecords&metadataPrefix=oai_dc&from=2025-02-30', 'badArgument'],
        ['verb=ListRecords&metadataPrefix=oai_dc&until=2025-02-29', 'badArgument'],
        ['verb=ListRecords&metadataPrefix=oai_dc&until=2025-03-01T24:00:00Z', 'badArgument'],
        ['verb=ListRecords&metadataPrefix=oai_dc&from=2025-03-01T10:00:00', 'badArgument'],
        ['verb=ListRecords&metadataPrefix=oai_dc&from=2025-03-01T10:00:00.000Z', 'badArgument'],
        ['verb=ListRecords&metadataPrefix=oai_dc&from=2025-03-01&until=2025-03-02T00:00:00Z', 'badArgument'],
        ['verb=ListRecords&metadataPrefix=oai_dc&from=2025-03-02&until=2025-03-01', 'badArgument'],
        ['verb=ListRecords&metadataPrefix=oai_dc&set=nothing', 'badArgument'],
        ['verb=ListIdentifiers&metadataPrefix=oai_dc&resumptionToken=abc', 'badArgument'],
        ['verb=GetRecord&metadataPrefix=oai_dc', 'badArgument'],
        ['verb=GetRecord&identifier=x', 'badArgument'],
        ['verb=ListSets&set=datasets', 'badArgument'],
      ];
      for (const [query, code] of cases) {
        const doc = await oai(server, query);
        assert.equal(doc.error?.['@code'], code, query);
        assert.ok(doc.error['#text'].length > 10, `a message for ${query}`);
        assert.equal(doc.request, `http://${domain}/oai`, `no attributes after ${code}: ${query}`);
      }
    });

    it('a NUL, a control character, bytes that are not UTF-8 or a malformed escape are badArgument (badVerb in the verb), in OAI-PMH XML', async () => {
      const getRecord = `verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(id('10.5555/a'))}`;
      const cases: [string, string][] = [
        [`${getRecord}%00`, 'badArgument'],
        ['verb=ListRecords&metadataPrefix=oai_dc%00', 'badArgument'],
        ['verb=ListIdentifiers&metadataPrefix=oai_dc&set=datasets%01', 'badArgument'],
        ['verb=ListRecords&metadataPrefix=oai_dc%FF', 'badArgument'],
        ['verb=ListRecords&metadataPrefix=oai_dc%C0%80', 'badArgument'],
        ['verb=ListRecords&metadataPrefix=oai%zzdc', 'badArgument'],
        ['verb=ListRecords&metadataPrefix=oai_dc%', 'badArgument'],
        ['verb=Identify%00', 'badVerb'],
        ['%00verb=Identify', 'badVerb'],
      ];
      for (const [query, code] of cases) {
        // oai() asserts the 200 and the text/xml of an OAI-PMH answer.
        const doc = await oai(server, query);
        assert.equal(doc.error?.['@code'], code, query);
        assert.equal(doc.request, `http://${domain}/oai`, `no attributes after ${code}: ${query}`);
      }
      // A harvester's POST form holding a NUL: the same answer (the hub-wide check reads JSON bodies only).
      const posted = await fetch(`${server.baseUrl}/oai`, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `${getRecord}%00`,
      });
      assert.equal(posted.status, 200);
      assert.equal(parseXml(await posted.text())['OAI-PMH'].error['@code'], 'badArgument');
      // The same arguments without the bad byte answer as usual.
      assert.equal((await oai(server, getRecord)).GetRecord.record[0].header[0].identifier, id('10.5555/a'));
    });

    it('cannotDisseminateFormat, badResumptionToken and noRecordsMatch keep the request attributes', async () => {
      const cases: [string, string][] = [
        ['verb=ListRecords&metadataPrefix=marc21', 'cannotDisseminateFormat'],
        ['verb=ListIdentifiers&metadataPrefix=datacite', 'cannotDisseminateFormat'],
        [`verb=GetRecord&metadataPrefix=marc21&identifier=${encodeURIComponent(id('10.5555/a'))}`, 'cannotDisseminateFormat'],
        ['verb=ListRecords&resumptionToken=not-a-token', 'badResumptionToken'],
        [`verb=ListRecords&resumptionToken=${Buffer.from('[1,"oai_dc","","","","datasets","x",-1,0]').toString('base64url')}`, 'badResumptionToken'],
        [`verb=ListRecords&resumptionToken=${Buffer.from('[1,"marc21","","","","datasets","x",1,0]').toString('base64url')}`, 'badResumptionToken'],
        ['verb=ListIdentifiers&resumptionToken=%3Cscript%3E', 'badResumptionToken'],
        ['verb=ListSets&resumptionToken=abc', 'badResumptionToken'],
        ['verb=ListRecords&metadataPrefix=oai_dc&from=2030-01-01', 'noRecordsMatch'],
      ];
      for (const [query, code] of cases) {
        const doc = await oai(server, query);
        assert.equal(doc.error?.['@code'], code, query);
        assert.equal(typeof doc.request, 'object', `attributes kept: ${query}`);
        assert.ok(doc.request['@verb'], query);
      }
    });

    it('answers a POST form as the same GET, without a CSRF token', async () => {
      const res = await fetch(`${server.baseUrl}/oai`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'verb=ListIdentifiers&metadataPrefix=oai_dc&from=2025-03-02',
      });
      assert.equal(res.status, 200);
      const doc = parseXml(await res.text())['OAI-PMH'];
      assert.equal(doc.ListIdentifiers.header.length, 2);
      const repeated = await fetch(`${server.baseUrl}/oai`, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'verb=Identify&verb=ListSets',
      });
      assert.equal(parseXml(await repeated.text())['OAI-PMH'].error['@code'], 'badVerb');
    });

    it('a list that fits one page is the same whether harvested by ListRecords or followed by tokens', async () => {
      const { pages, identifiers } = await harvestAll(server, 'ListRecords', 'metadataPrefix=oai_dc');
      assert.equal(pages.length, 1);
      assert.equal(identifiers.length, 3);
    });

    it('the DOI page offers the same DataCite XML at /doi/<doi>/export/datacite.xml', async () => {
      const res = await fetch(`${server.baseUrl}/doi/10.5555/b/export/datacite.xml`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type')!, /^application\/vnd\.datacite\.datacite\+xml/);
      assert.equal(res.headers.get('content-disposition'), 'attachment; filename="10.5555_b.datacite.xml"');
      const text = await res.text();
      const resource = parseXml(text).resource;
      assert.equal(resource.identifier['#text'], '10.5555/b');
      assert.equal(resource.titles.title[0], TRICKY);
      const record = (await oai(server, `verb=GetRecord&metadataPrefix=oai_datacite&identifier=${encodeURIComponent(id('10.5555/b'))}`)).GetRecord.record[0];
      assert.deepEqual(record.metadata.resource, resource);
      const missing = await fetch(`${server.baseUrl}/doi/10.5555/missing/export/datacite.xml`);
      assert.equal(missing.status, 404);
      assert.doesNotMatch(await missing.text(), /at .*\.ts:\d+/, 'no stack trace');
      // A superseded DOI and another spelling move to the current one, as the other exports do.
      await server.hub.ctx.services.dataset.mapDoi('10.5555/old-b', '10.5555/b');
      for (const old of ['10.5555/old-b', '10.5555/B']) {
        const moved = await fetch(`${server.baseUrl}/doi/${old}/export/datacite.xml`, { redirect: 'manual' });
        assert.equal(moved.status, 302, old);
        assert.equal(moved.headers.get('location'), '/doi/10.5555/b/export/datacite.xml', old);
      }
      // The DOI page lists it with its other exports.
      const page = await (await fetch(`${server.baseUrl}/doi/10.5555/b/`)).text();
      assert.match(page, /<a href="\/doi\/10\.5555\/b\/export\/datacite\.xml" download="10\.5555_b\.datacite\.xml">[^<]*<i[^>]*><\/i> DataCite XML<\/a>/);
      // The other exports stay the citation module's.
      assert.equal((await fetch(`${server.baseUrl}/doi/10.5555/b/export/bibtex`)).status, 200);
    });

    // Last: it changes the order the tests above rely on.
    it('an edit of published metadata moves the datestamp, so an incremental harvest (from=) gets the change', async () => {
      const before = new Date().toISOString().slice(0, 19) + 'Z';
      await server.hub.ctx.services.dataset.apiUpdate(ids[0]!, userId, { name: 'Edited after publication' });
      const doc = await oai(server, `verb=ListRecords&metadataPrefix=oai_dc&from=${before}`);
      assert.equal(doc.error, undefined, JSON.stringify(doc.error));
      const [record] = doc.ListRecords.record;
      assert.equal(doc.ListRecords.record.length, 1);
      assert.equal(record.header[0].identifier, id('10.5555/a'));
      assert.ok(record.header[0].datestamp >= before, record.header[0].datestamp);
      assert.equal(record.metadata['oai_dc:dc']['dc:title'], 'Edited after publication');
      // The edited dataset now comes last in the list.
      const all = (await oai(server, 'verb=ListIdentifiers&metadataPrefix=oai_dc')).ListIdentifiers.header;
      assert.deepEqual(all.map((h: any) => h.identifier), [id('10.5555/b'), id('10.5555/c'), id('10.5555/a')]);
    });
  });
}
