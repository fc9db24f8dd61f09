// Publishing collections and saved searches on every dialect (extensions section 13), against the
// fake Zenodo server: the deposit holds manifest.csv (member DOI, file name, SHA-256) and the
// models, whose SHA-256 equal the manifest's and the hub's files'; a published collection changes
// only by a new version (same concept DOI); a member of an unpublished dataset blocks the publish;
// a saved search keeps its member list when later datasets match its query.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { testDialects } from '../../../test/support/databases.ts';
import type { TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { newUser } from '../../../test/support/accounts.ts';
import { apiDatasetWithModel, bearer, createToken } from '../../../test/support/api.ts';
import { download } from '../../../test/support/zip.ts';
import { useHubWithFakeZenodo, type FakeZenodo } from '../../../test/support/fake-zenodo.ts';
import { oai } from '../../../test/support/oai-harvest.ts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function seededFileIds(server: TestServer, doi: string): Promise<number[]> {
  const rows = await server.hub.db.selectFrom('file').innerJoin('feature_model', 'feature_model.id', 'file.feature_model_id')
    .innerJoin('data_set', 'data_set.id', 'feature_model.data_set_id').innerJoin('ds_meta_data', 'ds_meta_data.id', 'data_set.ds_meta_data_id')
    .select('file.id').where('ds_meta_data.dataset_doi', '=', doi).orderBy('file.id').execute();
  return rows.map((r) => Number(r.id));
}

async function newCollection(client: TestClient, title: string, fileIds: number[]): Promise<number> {
  await client.get('/collections');
  const res = await client.post('/collections', { form: { title, description: 'For the study', tags: 'study' } });
  const id = Number(/\/collection\/(\d+)\//.exec(res.location ?? '')?.[1]);
  for (const fileId of fileIds) assert.equal((await client.post(`/collection/${id}/add`, { form: { file_id: String(fileId) } })).status, 303);
  return id;
}

/** The fake Zenodo deposition that holds a DOI. */
function depositionOf(zenodo: FakeZenodo, doi: string) {
  const found = [...zenodo.depositions.values()].find((d) => d.doi === doi);
  assert.ok(found, `a deposition with the DOI ${doi}`);
  return found;
}

for (const dialect of testDialects()) {
  describe(`collections: publish and saved search [${dialect.name}]`, () => {
    const hubs = useHubWithFakeZenodo({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { ANALYSIS_WORKERS: '0' } });
    let server: TestServer;
    let zenodo: FakeZenodo;
    let members: number[];
    before(async () => {
      ({ server, zenodo } = hubs);
      members = [...(await seededFileIds(server, '10.1234/dataset1')).slice(0, 2), ...(await seededFileIds(server, '10.1234/dataset2')).slice(0, 2)];
    });

    it('publishes with a DOI: the manifest SHA-256 equal the deposited and the stored files; then it changes only by a new version', async () => {
      const { client } = await newUser(server, 'Publisher');
      const id = await newCollection(client, 'Published study', members);
      const published = await client.post(`/collection/${id}/publish`, { form: {} });
      assert.equal(published.status, 303, published.text);
      const api = (await client.get(`/api/v1/collections/${id}`)).json;
      assert.match(api.doi, /^10\.\d+\//);
      const deposition = depositionOf(zenodo, api.doi);
      assert.equal(deposition.published, true);
      const manifest = deposition.files.get('manifest.csv')!.body.toString('utf8').trim().split('\r\n');
      assert.equal(manifest[0], 'doi,file_name,deposit_name,sha256');
      assert.equal(manifest.length, 1 + members.length);
      for (const [i, row] of manifest.slice(1).entries()) {
        const [doi, fileName, depositName, hash] = row.split(',');
        const member = api.members[i];
        assert.equal(doi, member.dataset_doi);
        assert.equal(fileName, member.file_name);
        assert.equal(hash, sha256(deposition.files.get(depositName!)!.body), `${depositName} as deposited`);
        assert.equal(hash, sha256((await download(client, `/file/download/${member.file_id}`)).bytes), `${fileName} as stored`);
        assert.equal(hash, member.sha256);
      }
      assert.deepEqual(deposition.metadata?.related_identifiers.map((r: { identifier: string }) => r.identifier).sort(), ['10.1234/dataset1', '10.1234/dataset2']);

      const visitor = new TestClient(server.baseUrl);
      const page = await visitor.get(`/collection/${id}/`);
      assert.equal(page.status, 200, 'a published collection is public');
      assert.match(page.text, new RegExp(`id="collection-doi">${api.doi.replace(/\./g, '\\.')}<`));
      // Its page is its DOI's landing page: the DOI's QR code, as on a dataset's DOI page (section 8).
      assert.match(page.text, new RegExp(`id="collection-qr"[\\s\\S]*aria-label="QR code for https://doi\\.org/${api.doi.replace(/\./g, '\\.')}"`));
      const draft = await client.get(`/collection/${await newCollection(client, 'Not yet', members)}/`);
      assert.doesNotMatch(draft.text, /id="collection-qr"/, 'no QR code before a DOI');
      assert.equal((await client.post(`/collection/${id}/add`, { form: { file_id: String(members[0]) } })).status, 409);
      assert.equal((await client.post(`/collection/${id}/remove`, { form: { file_id: String(members[0]) } })).status, 409);
      assert.equal((await client.post(`/collection/${id}/publish`, { form: {} })).status, 409);

      const next = await client.post(`/collection/${id}/new-version`, { form: {} });
      assert.equal(next.status, 303);
      const nextId = Number(/\/collection\/(\d+)\//.exec(next.location ?? '')?.[1]);
      assert.notEqual(nextId, id);
      const again = await client.post(`/collection/${id}/new-version`, { form: {} });
      assert.equal(again.status, 303);
      assert.equal(again.location, `/collection/${nextId}/`, 'one newer version: asked again, the same');
      assert.equal((await client.post(`/collection/${nextId}/remove`, { form: { file_id: String(members[3]) } })).status, 303);
      assert.equal((await client.post(`/collection/${nextId}/publish`, { form: {} })).status, 303);
      const second = (await client.get(`/api/v1/collections/${nextId}`)).json;
      const first = (await client.get(`/api/v1/collections/${id}`)).json;
      assert.notEqual(second.doi, first.doi);
      assert.equal(second.version, 2);
      assert.equal(second.concept_doi, first.concept_doi);
      assert.equal(second.members.length, members.length - 1);
      assert.equal(first.members.length, members.length, 'the published version keeps its members');
      assert.match((await client.get(`/collection/${id}/`)).text, new RegExp(`href="/collection/${nextId}/"`));
      const listed = await server.hub.ctx.services.collection.publishedCollections();
      assert.ok(listed.some((c) => c.id === id && c.doi === first.doi && c.title === 'Published study' && c.creators.length === 1));
      // Its DOI's address on the hub leads to its page; the concept DOI to the newest version's.
      const landing = await visitor.get(`/doi/${first.doi}/`);
      assert.equal(landing.status, 302, landing.text);
      assert.equal(landing.location, `/collection/${id}/`);
      assert.equal((await visitor.get(`/doi/${second.doi}/`)).location, `/collection/${nextId}/`);
      assert.equal((await visitor.get(`/doi/${first.concept_doi}/`)).location, `/collection/${nextId}/`);
      assert.equal((await visitor.get('/doi/10.5072/no-such-collection/')).status, 404);
    });

    it('is harvested by OAI-PMH in the collections set once published, as a DataCite Collection', async () => {
      const { client } = await newUser(server, 'Harvested');
      const id = await newCollection(client, 'Harvested study', members.slice(0, 1));
      const before = (await oai(server, 'verb=ListIdentifiers&metadataPrefix=oai_dc&set=collections')).ListIdentifiers?.header;
      assert.equal((await client.post(`/collection/${id}/publish`, { form: {} })).status, 303);
      const doi = (await client.get(`/api/v1/collections/${id}`)).json.doi as string;
      const listed = await oai(server, 'verb=ListRecords&metadataPrefix=oai_datacite&set=collections');
      const all = [listed.ListRecords.record].flat();
      assert.equal(all.length, [before ?? []].flat().length + 1, 'one more record once published');
      const headerOf = (r: any) => [r.header].flat()[0];
      assert.ok(all.every((r: any) => headerOf(r).setSpec === 'collections'));
      const records = all.filter((r: any) => headerOf(r).identifier.endsWith(`:${doi}`));
      assert.equal(records.length, 1);
      const resource = records[0].metadata.resource;
      assert.deepEqual([resource.titles.title].flat(), ['Harvested study']);
      assert.equal(resource.resourceType['@resourceTypeGeneral'], 'Collection');
      const got = await oai(server, `verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(headerOf(records[0]).identifier)}`);
      assert.equal(headerOf([got.GetRecord.record].flat()[0]).setSpec, 'collections');
      // The datasets set still holds only datasets.
      const datasets = [(await oai(server, 'verb=ListIdentifiers&metadataPrefix=oai_dc&set=datasets')).ListIdentifiers.header].flat();
      assert.ok(datasets.every((h: any) => h.setSpec === 'datasets' && !h.identifier.endsWith(doi)));
    });

    it("refuses to publish an empty collection, a member of an unpublished dataset, or another's collection, depositing nothing; a failed deposit is a 502 leaving it unpublished", async () => {
      const { client } = await newUser(server, 'Hasty');
      const token = await createToken(client, ['write']);
      const draft = await apiDatasetWithModel(server.baseUrl, token, { name: 'Draft' });
      const empty = await newCollection(client, 'Empty', []);
      const depositions = zenodo.depositions.size;
      assert.equal((await client.post(`/collection/${empty}/publish`, { form: {} })).status, 400);
      const mixed = await newCollection(client, 'Mixed', [members[0]!, draft.fileId]);
      const refused = await client.post(`/collection/${mixed}/publish`, { form: {} });
      assert.equal(refused.status, 400);
      assert.match(refused.text, /without a DOI/);
      const other = await newUser(server, 'Intruder');
      await other.client.get('/collections');
      assert.equal((await other.client.post(`/collection/${empty}/publish`, { form: {} })).status, 404);
      assert.equal(zenodo.depositions.size, depositions);
      assert.equal((await client.get(`/api/v1/collections/${mixed}`)).json.doi, null);

      // The deposit repository failing: 502 with a message, the collection still open and unpublished.
      const ready = await newCollection(client, 'Ready', [members[0]!]);
      zenodo.failOn('publish', 500);
      try {
        const failed = await client.post(`/collection/${ready}/publish`, { form: {} });
        assert.equal(failed.status, 502);
        const message = 'The deposit failed: Zenodo refused the publish step with status 500: Injected failure of the publish step. The collection stays unpublished; try again.';
        assert.ok(failed.text.includes(message), `the answer says: ${message}`);
        assert.doesNotMatch(failed.text, /\bat \w+ \(|node:internal/, 'no stack trace');
      } finally {
        zenodo.reset();
      }
      assert.equal((await client.get(`/api/v1/collections/${ready}`)).json.doi, null);
      assert.equal((await client.post(`/collection/${ready}/publish`, { form: {} })).status, 303, 'published once the repository answers');
    });

    it('lets one publish run at a time: while a live claim holds it, publish, add and remove answer 409; a dead process\'s claim is taken over', async () => {
      const { client } = await newUser(server, 'Doubler');
      const id = await newCollection(client, 'Claimed', [members[0]!]);
      const depositions = zenodo.depositions.size;
      // A publish under way (its claim taken a moment ago by another request or instance).
      await server.hub.db.updateTable('collection').set({ publish_claimed_at: new Date().toISOString() }).where('id', '=', id).execute();
      const second = await client.post(`/collection/${id}/publish`, { form: {} });
      assert.equal(second.status, 409);
      assert.match(second.text, /under way/);
      assert.equal((await client.post(`/collection/${id}/add`, { form: { file_id: String(members[1]) } })).status, 409);
      assert.equal((await client.post(`/collection/${id}/remove`, { form: { file_id: String(members[0]) } })).status, 409);
      assert.equal(zenodo.depositions.size, depositions, 'nothing deposited twice');
      // The claim of a process that died an hour ago.
      await server.hub.db.updateTable('collection').set({ publish_claimed_at: new Date(Date.now() - 3_600_000).toISOString() }).where('id', '=', id).execute();
      assert.equal((await client.post(`/collection/${id}/publish`, { form: {} })).status, 303);
      const row = await server.hub.db.selectFrom('collection').select(['doi', 'publish_claimed_at']).where('id', '=', id).executeTakeFirstOrThrow();
      assert.ok(row.doi);
      assert.equal(row.publish_claimed_at, null);
    });

    it('settles a publish whose answer was lost instead of depositing the collection twice', async () => {
      const { client } = await newUser(server, 'Unlucky');
      const id = await newCollection(client, 'Lost answer', [members[0]!]);
      const before = zenodo.depositions.size;
      zenodo.loseAnswer('publish', 502);
      try {
        assert.equal((await client.post(`/collection/${id}/publish`, { form: {} })).status, 502);
      } finally {
        zenodo.reset();
      }
      assert.equal(zenodo.depositions.size, before + 1);
      const published = [...zenodo.depositions.values()].at(-1)!;
      assert.equal(published.published, true, 'Zenodo did publish it');
      assert.equal((await client.get(`/api/v1/collections/${id}`)).json.doi, null);
      assert.equal((await client.post(`/collection/${id}/publish`, { form: {} })).status, 303);
      assert.equal((await client.get(`/api/v1/collections/${id}`)).json.doi, published.doi, 'the DOI Zenodo gave the first time');
      assert.equal(zenodo.depositions.size, before + 1, 'no second record');
    });

    it('saves a search with its query and keeps its members when a later dataset matches', async () => {
      const { client } = await newUser(server, 'Searcher');
      const token = await createToken(client, ['write']);
      const publish = async (name: string) => {
        const { id } = await apiDatasetWithModel(server.baseUrl, token, { name, description: `Models of ${name}`, authors: [{ name: 'Doe, Jane' }] });
        const done = await bearer(server.baseUrl, token, 'POST', `/api/v1/datasets/${id}/publish`);
        assert.equal(done.json.status, 'ok', JSON.stringify(done.json));
        return id;
      };
      const word = `quokka${dialect.name}`;
      await publish(`${word} first`);
      await client.get('/collections');
      const saved = await client.post('/explore/save', { json: { query: word, title: `All ${word}` } });
      assert.equal(saved.status, 303, saved.text);
      const id = Number(/\/collection\/(\d+)\//.exec(saved.location ?? '')?.[1]);
      const before = (await client.get(`/api/v1/collections/${id}`)).json;
      assert.equal(before.members.length, 1);
      assert.equal(before.query.query, word);
      assert.ok(before.query.saved_at);

      await publish(`${word} second`);
      const found = await new TestClient(server.baseUrl).post('/explore', { json: { query: word }, csrf: false });
      assert.equal(found.json.length, 2, 'the search now finds both datasets');
      const after = (await client.get(`/api/v1/collections/${id}`)).json;
      assert.deepEqual(after.members, before.members, 'the saved member list is frozen');
      assert.match((await client.get(`/collection/${id}/`)).text, /id="collection-query"/);
      assert.equal((await client.post('/explore/save', { json: { query: word, title: '' } })).status, 400);
    });
  });
}
