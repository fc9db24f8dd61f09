// Citation at HTTP level, on every dialect (extensions section 2): the six exports with their
// media types and file names, the same through Accept on the DOI page (HTML stays the default,
// Vary: Accept), unknown formats and DOIs, superseded DOIs, the signposting Link header, the
// embedded JSON-LD and citation box, ETag/304 per representation, and a dataset whose names and
// title carry accents, braces, &, %, quotes and </script>. A dataset drafted in one year and
// published in the next is cited by its publication, in every format and on the page.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Cite } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import { parse as parseYaml } from 'yaml';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { addImportSource } from '../../../test/support/import-sources.ts';
import { projectPath } from '../../core/config.ts';

const SEED = projectPath('src/modules/dataset/seed');
const TRICKY_DOI = '10.9999/cite.tricky';
const TRICKY_TITLE = 'Modèles {curly} & 100% "quoted" </script><script>alert(1)</script>';
const ORCID = '0000-0002-1825-0097';

const EXPORTS = [
  { format: 'bibtex', type: 'application/x-bibtex', file: '10.1234_dataset1.bib' },
  { format: 'ris', type: 'application/x-research-info-systems', file: '10.1234_dataset1.ris' },
  { format: 'csl', type: 'application/vnd.citationstyles.csl+json', file: '10.1234_dataset1.csl.json' },
  { format: 'cff', type: 'application/yaml', file: 'CITATION.cff' },
  { format: 'datacite', type: 'application/vnd.datacite.datacite+json', file: '10.1234_dataset1.datacite.json' },
  { format: 'jsonld', type: 'application/ld+json', file: '10.1234_dataset1.jsonld' },
];

const get = (server: TestServer, path: string, headers: Record<string, string> = {}) => new TestClient(server.baseUrl).get(path, headers);

const DRAFTED = '2025-06-01T09:00:00.000Z';

/** A draft of user1 created in 2025 and published now (the fake deposit): its DOI and the day of its publication. */
async function draftPublishedNow(server: TestServer): Promise<{ doi: string; day: string; year: string }> {
  const { ctx, db } = server.hub;
  const user = await ctx.services.auth.getUserByEmail('user1@example.com');
  const id = await ctx.services.dataset.createFromFiles(
    user!.id,
    {
      title: 'Drafted last year', description: 'Published later', publicationType: 'none', publicationDoi: null, tags: 'late', license: 'CC-BY-4.0',
      authors: [{ name: 'Late, Lena', affiliation: null, orcid: null }],
    },
    [{ path: `${SEED}/drone.uvl`, meta: { name: 'drone.uvl', title: 'Drone', description: 'd', publicationType: 'none', publicationDoi: null, tags: '', version: null, authors: [] } }],
    { createdAt: DRAFTED },
  );
  const outcome = await ctx.services.dataset.publish(id, user!.id);
  assert.equal(outcome.status, 'ok', JSON.stringify(outcome));
  const doi = (outcome as { doi: string }).doi;
  const row = await db.selectFrom('ds_meta_data').select('published_at').where('dataset_doi', '=', doi).executeTakeFirstOrThrow();
  const day = row.published_at!.slice(0, 10);
  assert.notEqual(day.slice(0, 4), DRAFTED.slice(0, 4), 'published in a later year than its creation');
  return { doi, day, year: day.slice(0, 4) };
}

for (const dialect of testDialects()) {
  describe(`citation over HTTP [${dialect.name}]`, () => {
    let server: TestServer;
    let trickyId: number;

    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { ANALYSIS_WORKERS: '0' } });
      const ctx = server.hub.ctx;
      const user = await ctx.services.auth.getUserByEmail('user1@example.com');
      trickyId = await ctx.services.dataset.createFromFiles(
        user!.id,
        {
          title: TRICKY_TITLE, description: 'About </script> & {braces} 100%', publicationType: 'article', publicationDoi: '10.1000/paper.1', tags: 'uvl, citation', license: 'MIT',
          authors: [
            { name: 'Müller-Åström, José {Jr}', affiliation: 'Lab "A" & 50%', orcid: ORCID },
            { name: 'ACME & Co {x}', affiliation: null, orcid: null },
          ],
        },
        [{ path: `${SEED}/drone.uvl`, meta: { name: 'drone.uvl', title: 'Drone', description: 'd', publicationType: 'none', publicationDoi: null, tags: '', version: '2.0', authors: [] } }],
        { doi: TRICKY_DOI, createdAt: '2025-04-03T10:00:00.000Z' },
      );
    });
    after(async () => server?.close());

    it('exports every format with its media type, a download file name and the DOI', async () => {
      for (const e of EXPORTS) {
        const res = await get(server, `/doi/10.1234/dataset1/export/${e.format}`);
        assert.equal(res.status, 200, e.format);
        assert.equal(res.headers.get('content-type')!.split(';')[0], e.type, e.format);
        assert.equal(res.headers.get('content-disposition'), `attachment; filename="${e.file}"`, e.format);
        assert.ok(res.text.includes('10.1234/dataset1'), e.format);
        assert.ok(res.text.includes('Sample dataset 1'), e.format);
      }
      const cff = parseYaml((await get(server, '/doi/10.1234/dataset1/export/cff')).text);
      assert.deepEqual(cff.authors, [{ 'family-names': 'Doe', 'given-names': 'John', affiliation: 'Some University' }]);
      assert.equal(cff.license, 'CC-BY-4.0');
      const datacite = JSON.parse((await get(server, '/doi/10.1234/dataset1/export/datacite')).text);
      assert.equal(datacite.types.resourceTypeGeneral, 'Dataset');
      assert.equal(datacite.publicationYear, String(new Date().getUTCFullYear()));
    });

    it("cites the dataset's own licence in every format that carries one and in the Link header", async () => {
      const mit = 'https://opensource.org/licenses/MIT';
      const cff = await get(server, `/doi/${TRICKY_DOI}/export/cff`);
      assert.match(cff.text, /^license: MIT$/m);
      const jsonld = JSON.parse((await get(server, `/doi/${TRICKY_DOI}/export/jsonld`)).text);
      assert.equal(jsonld.license, mit);
      const datacite = JSON.parse((await get(server, `/doi/${TRICKY_DOI}/export/datacite`)).text);
      assert.ok(datacite.rightsList.some((r: { rightsIdentifier?: string; rightsUri?: string }) => r.rightsIdentifier?.toUpperCase() === 'MIT' && r.rightsUri === mit), JSON.stringify(datacite.rightsList));
      const page = await get(server, `/doi/${TRICKY_DOI}/`);
      assert.match(page.headers.get('link') ?? '', new RegExp(`<${mit.replace(/[./]/g, '\\$&')}>; rel="license"`));
      // The seeded datasets carry the default.
      assert.match((await get(server, '/doi/10.1234/dataset1/export/cff')).text, /^license: CC-BY-4\.0$/m);
    });

    it('gives the sources of imported models as DataCite IsDerivedFrom and JSON-LD isBasedOn, once they are added', async () => {
      const derived = (datacite: any) => datacite.relatedIdentifiers.filter((r: any) => r.relationType === 'IsDerivedFrom');
      assert.deepEqual(derived(JSON.parse((await get(server, `/doi/${TRICKY_DOI}/export/datacite`)).text)), []);
      const url = 'https://git.example/repo/archive/main.zip?a=1&b=</script>';
      await addImportSource(server, trickyId, { url: 'https://doi.org/10.5281/zenodo.77', doi: '10.5281/zenodo.77' });
      await addImportSource(server, trickyId, { url });
      const datacite = JSON.parse((await get(server, `/doi/${TRICKY_DOI}/export/datacite`)).text);
      assert.deepEqual(derived(datacite), [
        { relatedIdentifier: '10.5281/zenodo.77', relatedIdentifierType: 'DOI', relationType: 'IsDerivedFrom' },
        { relatedIdentifier: url, relatedIdentifierType: 'URL', relationType: 'IsDerivedFrom' },
      ]);
      assert.equal(datacite.relatedIdentifiers[0].relationType, 'IsSupplementTo', 'the publication stays');
      const jsonld = JSON.parse((await get(server, `/doi/${TRICKY_DOI}/export/jsonld`)).text);
      assert.deepEqual(jsonld.isBasedOn, ['https://doi.org/10.5281/zenodo.77', url]);
      // The page's embedded JSON-LD too, with no way out of its script element.
      const page = await get(server, `/doi/${TRICKY_DOI}/`);
      const embedded = /<script type="application\/ld\+json" id="dataset-jsonld">([^<]*)<\/script>/.exec(page.text);
      assert.ok(embedded, 'the JSON-LD script element');
      assert.deepEqual(JSON.parse(embedded[1]!).isBasedOn, jsonld.isBasedOn);
      // A dataset of uploaded files names no source.
      assert.deepEqual(derived(JSON.parse((await get(server, '/doi/10.1234/dataset1/export/datacite')).text)), []);
      assert.equal('isBasedOn' in JSON.parse((await get(server, '/doi/10.1234/dataset1/export/jsonld')).text), false);
    });

    it('answers an unknown format, an unknown DOI and a malformed export path with 404 in the site shape', async () => {
      const page = await get(server, '/doi/10.1234/dataset1/export/pdf');
      assert.equal(page.status, 404);
      assert.match(page.headers.get('content-type')!, /text\/html/);
      assert.match(page.text, /There is no citation format &quot;pdf&quot;/);
      const json = await get(server, '/doi/10.1234/dataset1/export/pdf', { accept: 'application/json' });
      assert.equal(json.status, 404);
      assert.match(json.json.message, /bibtex, ris, csl, cff, datacite, jsonld/);
      assert.equal((await get(server, '/doi/10.1234/nothing/export/bibtex')).status, 404);
      assert.equal((await get(server, '/doi/10.1234/nothing/', { accept: 'application/x-bibtex' })).status, 404);
      // With a slash after the format it is a DOI page address (of a DOI that does not exist).
      assert.equal((await get(server, '/doi/10.1234/dataset1/export/bibtex/')).status, 404);
    });

    it('follows doi_mapping: a superseded DOI redirects to the export of the new one', async () => {
      const res = await get(server, '/doi/10.1234/dataset1-v0/export/ris');
      assert.equal(res.status, 302);
      assert.equal(res.location, '/doi/10.1234/dataset1/export/ris');
      const negotiated = await get(server, '/doi/10.1234/dataset1-v0/', { accept: 'application/x-bibtex' });
      assert.equal(negotiated.status, 302);
      assert.equal(negotiated.location, '/doi/10.1234/dataset1/');
    });

    it('negotiates on the DOI page: each citation type through Accept, HTML by default, Vary: Accept', async () => {
      for (const e of EXPORTS.filter((x) => ['bibtex', 'ris', 'csl', 'jsonld', 'datacite'].includes(x.format))) {
        const res = await get(server, '/doi/10.1234/dataset1/', { accept: e.type });
        assert.equal(res.status, 200, e.format);
        assert.equal(res.headers.get('content-type')!.split(';')[0], e.type, e.format);
        assert.match(res.headers.get('vary')!, /accept/i, e.format);
        assert.equal(res.text, (await get(server, `/doi/10.1234/dataset1/export/${e.format}`)).text, `${e.format}: the export's text`);
      }
      for (const accept of ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', '*/*', '']) {
        const res = await get(server, '/doi/10.1234/dataset1/', accept ? { accept } : {});
        assert.equal(res.status, 200);
        assert.match(res.headers.get('content-type')!, /^text\/html/, accept);
        assert.match(res.headers.get('vary')!, /accept/i, accept);
      }
    });

    it('curl -H "Accept: application/x-bibtex" /doi/<doi>/ gives an entry a BibTeX parser reads, not counted as a view', async () => {
      const datasetId = trickyId;
      const views = async () => Number((await server.hub.db.selectFrom('ds_view_record').select((eb) => eb.fn.countAll().as('n')).where('dataset_id', '=', datasetId).executeTakeFirstOrThrow()).n);
      const before = await views();
      const res = await fetch(`${server.baseUrl}/doi/${TRICKY_DOI}/`, { headers: { accept: 'application/x-bibtex' } });
      assert.equal(res.status, 200);
      const [item] = new Cite(await res.text()).data;
      assert.equal(item!.DOI, TRICKY_DOI);
      assert.equal(item!.title, TRICKY_TITLE);
      assert.deepEqual(item!.author.map((a: any) => (a.given ? `${a.family}, ${a.given}` : a.family ?? a.literal)), ['Müller-Åström, José {Jr}', 'ACME & Co {x}']);
      assert.equal(item!.issued['date-parts'][0][0], 2025);
      assert.equal(await views(), before, 'a citation is not a page view');
      await get(server, `/doi/${TRICKY_DOI}/`);
      assert.equal(await views(), before + 1, 'the page itself still counts');
    });

    it('sends signposting links on the DOI page (GET and HEAD)', async () => {
      const resolved = await server.hub.ctx.services.dataset.resolveDoi(TRICKY_DOI);
      assert.equal(resolved.kind, 'dataset');
      const fileIds = resolved.kind === 'dataset' ? resolved.dataset.files.map((f) => f.id) : [];
      assert.equal(fileIds.length, 1);
      for (const method of ['GET', 'HEAD']) {
        const res = await fetch(`${server.baseUrl}/doi/${TRICKY_DOI}/`, { method });
        assert.equal(res.status, 200);
        const link = res.headers.get('link')!;
        assert.ok(link.includes(`<https://doi.org/${TRICKY_DOI}>; rel="cite-as"`), link);
        for (const e of EXPORTS) {
          assert.match(link, new RegExp(`<http://[^>]+/doi/10\\.9999/cite\\.tricky/export/${e.format}>; rel="describedby"; type="${e.type.replace(/[.+]/g, '\\$&')}"`), e.format);
        }
        for (const id of fileIds) assert.match(link, new RegExp(`<http://[^>]+/file/download/${id}>; rel="item"`));
        assert.ok(link.includes(`<https://orcid.org/${ORCID}>; rel="author"`));
        assert.equal(link.match(/rel="author"/g)!.length, 1);
        assert.ok(link.includes('<https://opensource.org/licenses/MIT>; rel="license"'), 'the dataset\'s own licence');
      }
    });

    it('embeds the JSON-LD safely and offers the citation box with every format and download links', async () => {
      const res = await get(server, `/doi/${TRICKY_DOI}/`);
      assert.equal(res.status, 200);
      const scripts = [...res.text.matchAll(/<script type="application\/ld\+json" id="dataset-jsonld">([\s\S]*?)<\/script>/g)];
      assert.equal(scripts.length, 1);
      const jsonLd = JSON.parse(scripts[0]![1]!);
      assert.equal(jsonLd['@type'], 'Dataset');
      assert.equal(jsonLd.identifier, `https://doi.org/${TRICKY_DOI}`);
      assert.equal(jsonLd.name, TRICKY_TITLE, 'the title survives whole');
      assert.ok(!res.text.includes('<script>alert(1)'), 'no markup from the title reaches the page unescaped');
      assert.match(res.text, /<select class="form-select form-select-sm" id="citation-format">/);
      assert.match(res.text, /<label for="citation-format"/);
      for (const e of EXPORTS) {
        assert.match(res.text, new RegExp(`<pre class="citation-entry[^"]*" id="citation-${e.format}"`), e.format);
        assert.ok(res.text.includes(`href="/doi/${TRICKY_DOI}/export/${e.format}"`), e.format);
      }
      assert.match(res.text, /id="citation-bibtex" data-format="bibtex" tabindex="0" aria-label="BibTeX">@misc\{/, 'BibTeX shown first');
      const ris = /<pre [^>]*id="citation-ris"[^>]*>([^<]*)<\/pre>/.exec(res.text);
      assert.ok(ris && ris[0].includes(`data-src="/doi/${TRICKY_DOI}/export/ris"`) && ris[0].includes(' hidden>'), 'another format is fetched when chosen');
      assert.equal(ris[1], '', 'and not in the page');
      assert.match(res.text, /id="citation-text">[^<]*Müller-Åström, J\.[^<]*\(2025\)/);
      assert.match(res.text, /<script src="\/citation\/js\/citation\.js" defer>/);
      const script = await get(server, '/citation/js/citation.js');
      assert.equal(script.status, 200);
      assert.match(script.text, /navigator\.clipboard/);
      assert.match(script.text, /execCommand\('copy'\)/, 'the fallback without the clipboard API');
      assert.match(script.text, /Copied/);
      assert.equal((await get(server, '/citation/css/citation.css')).status, 200);
    });

    it('shows a QR code of the DOI URL on the DOI page (extensions section 8)', async () => {
      const page = await get(server, '/doi/10.1234/dataset1/');
      const figure = /<figure[^>]*id="doi-qr"[\s\S]*?<\/figure>/.exec(page.text);
      assert.ok(figure, 'the DOI page has a QR code');
      assert.match(figure[0], /<svg [^>]*role="img" aria-label="QR code for https:\/\/doi.org\/10.1234\/dataset1"/);
      assert.match(figure[0], /<path d="(M\d+ \d+\.5h\d+(m\d+ 0h\d+)*)+" stroke="#000"/);
    });

    it('cites a dataset drafted in 2025 and published now by its publication, in every format and on the page', async () => {
      const { doi, day, year } = await draftPublishedNow(server);
      const [y, m, d] = day.split('-').map(Number);
      const text = async (format: string) => (await get(server, `/doi/${doi}/export/${format}`)).text;
      const bibtex = await text('bibtex');
      assert.match(bibtex, new RegExp(`^@misc\\{Late${year}Drafted,`));
      assert.match(bibtex, new RegExp(`year = \\{${year}\\}`));
      assert.deepEqual(JSON.parse(await text('csl'))[0].issued['date-parts'], [[y, m, d]]);
      const datacite = JSON.parse(await text('datacite'));
      assert.equal(datacite.publicationYear, year);
      assert.deepEqual(datacite.dates, [{ date: day, dateType: 'Issued' }]);
      assert.equal(String(parseYaml(await text('cff'))['date-released']), day);
      assert.match(await text('ris'), new RegExp(`^DA  - ${day.replaceAll('-', '/')}/$`, 'm'));
      assert.equal(JSON.parse(await text('jsonld')).datePublished, day);
      assert.match((await get(server, `/doi/${doi}/`)).text, new RegExp(`id="citation-text">[^<]*Late, L\\. \\(${year}\\)`));
    });

    it('validates a current copy with ETag (304) per representation, varying with Accept', async () => {
      const exported = await get(server, '/doi/10.1234/dataset1/export/bibtex');
      const tag = exported.headers.get('etag')!;
      assert.match(tag, /^"[^"]+"$/);
      assert.equal((await get(server, '/doi/10.1234/dataset1/export/bibtex', { 'if-none-match': tag })).status, 304);
      assert.equal((await get(server, '/doi/10.1234/dataset1/export/ris', { 'if-none-match': tag })).status, 200, 'another format, another tag');
      const negotiated = await get(server, '/doi/10.1234/dataset1/', { accept: 'application/x-bibtex', 'if-none-match': tag });
      assert.equal(negotiated.status, 304, 'the same BibTeX through Accept');
      assert.match(negotiated.headers.get('vary')!, /accept/i);
      const ris = await get(server, '/doi/10.1234/dataset1/', { accept: 'application/x-research-info-systems', 'if-none-match': tag });
      assert.equal(ris.status, 200, 'a BibTeX tag does not validate the RIS answer');
      const page = await get(server, '/doi/10.1234/dataset1/', { 'if-none-match': tag });
      assert.equal(page.status, 200, 'nor the HTML page');
      assert.match(page.headers.get('content-type')!, /^text\/html/);
    });
  });
}

describe('without the citation module', () => {
  let server: TestServer;
  before(async () => {
    const modules = ['public', 'auth', 'profile', 'dataset', 'featuremodel', 'hubfile', 'modeltool', 'explore', 'mail'];
    server = await startTestServer({ seed: true, modules });
  });
  after(async () => server?.close());

  it('the DOI page keeps its plain citation, ignores citation Accept types and has no exports', async () => {
    const page = await get(server, '/doi/10.1234/dataset1/', { accept: 'application/x-bibtex' });
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type')!, /^text\/html/);
    assert.match(page.text, /id="citation-text">[^<]*Sample dataset 1/);
    assert.doesNotMatch(page.text, /application\/ld\+json/);
    assert.equal(page.headers.get('link'), null);
    assert.equal((await get(server, '/doi/10.1234/dataset1/export/bibtex')).status, 301);
  });

  it("the plain citation gives the year of the dataset's publication, not of its creation", async () => {
    const { doi, year } = await draftPublishedNow(server);
    const page = await get(server, `/doi/${doi}/`);
    assert.equal(page.status, 200);
    assert.match(page.text, new RegExp(`id="citation-text">Late, Lena \\(${year}\\)\\. Drafted last year \\[Data set\\]`));
  });
});
