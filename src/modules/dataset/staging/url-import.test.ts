// Import from a URL over HTTP (extensions section 13), in development (every address allowed): a
// local server of the test serves a model file, a Git host's repository archive, redirect chains,
// an oversized body (declared and undeclared), a body that never ends, and the fake Zenodo serves a
// record read by its DOI and by its page. POST /dataset/file/import stages the models; POST
// /api/v1/datasets/<id>/files/import adds them to a dataset; the source (URL, record DOI) becomes a
// related identifier of the deposit. The production guard: url-guard.test.ts.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ZipArchive } from 'archiver';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { newUser } from '../../../../test/support/accounts.ts';
import { bearer, createToken } from '../../../../test/support/api.ts';
import { startFakeZenodo, type FakeZenodo } from '../../../../test/support/fake-zenodo.ts';
import { stage, uploadForm } from '../dataset.test-support.ts';
import { ARCHIVE_OVER_LIMIT, importSource, NOT_A_MODEL, OVER_LIMIT } from './url-sources.ts';
import { UrlImportError } from './url-fetch.ts';

const CORPUS = '../shared/uvl-corpus/real/Feature_Models';
const MODEL_A = readFileSync(`${CORPUS}/Operating_Systems/Linux/Evolution/Linux_v1.uvl`);
const MODEL_B = Buffer.from('namespace Phone\n\nfeatures\n    Phone {abstract}\n        mandatory\n            Screen\n        optional\n            Camera\n');
const MAX_BYTES = 200_000;
const ODD_RECORDS = ['null', '[]', '"record"', '{"files": {}}', '{"files": [null]}', '{"files": [{"key": {"toString": 1}, "links": {}}]}', '{"files": [{"key": "a.uvl", "links": {"self": 7}}]}'];
/** MAX_UPLOAD_BYTES of the test's hub: below the fetch limit, so that a fetched model can pass it. */
const MAX_UPLOAD = MAX_BYTES - 10_000;
/** A valid model of more bytes than MAX_UPLOAD_BYTES and fewer than URL_IMPORT_MAX_BYTES. */
const OVER_UPLOAD = Buffer.from(`namespace Padded\n\nfeatures\n    Padded\n${' '.repeat(MAX_UPLOAD)}\n`);

async function zipOf(entries: { name: string; body: Buffer | string }[]): Promise<Buffer> {
  const archive = new ZipArchive({ zlib: { level: 6 } });
  const chunks: Buffer[] = [];
  archive.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => { archive.on('end', () => resolve()); archive.on('error', reject); });
  for (const e of entries) archive.append(e.body, { name: e.name });
  await archive.finalize();
  await done;
  return Buffer.concat(chunks);
}

/** The test's file server: what each path answers, and every path asked. */
async function startSources(repoZip: Buffer, bomb: Buffer): Promise<{ server: Server; origin: string; asked: string[] }> {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    asked.push(path);
    const chain = /^\/chain\/(\d+)$/.exec(path);
    if (chain) {
      const left = Number(chain[1]);
      res.writeHead(302, { location: left === 0 ? '/files/Linux_v1.uvl' : `/chain/${left - 1}` });
      return res.end();
    }
    if (path === '/files/Linux_v1.uvl') return res.end(MODEL_A);
    // A "Zenodo API" answering JSON that is not a record's shape.
    const odd = /^\/api\/records\/(\d+)$/.exec(path);
    if (odd) return res.writeHead(200, { 'content-type': 'application/json' }).end(ODD_RECORDS[Number(odd[1])]);
    if (path === '/download') {
      res.writeHead(200, { 'content-disposition': 'attachment; filename="phone.uvl"' });
      return res.end(MODEL_B);
    }
    if (path === '/archive/main.zip') return res.end(repoZip);
    if (path === '/archive/bomb.zip') return res.end(bomb);
    if (path === '/declared-big.uvl') {
      res.writeHead(200, { 'content-length': String(MAX_BYTES + 1) });
      return res.end();
    }
    if (path === '/streamed-big.uvl') {
      res.writeHead(200, { 'transfer-encoding': 'chunked' });
      const piece = Buffer.alloc(64 * 1024, 'a');
      for (let i = 0; i < 5; i++) res.write(piece);
      return res.end();
    }
    // A body that starts and never ends: only the fetch's deadline stops the wait.
    if (path === '/slow.uvl') return res.writeHead(200, { 'content-type': 'text/plain' }).write('namespace Slow\n');
    // The same, its body delimited by the connection's close (no length, not chunked), as an
    // HTTP/1.0 server sends it: the deadline's closing of the socket must not read as its end.
    if (path === '/slow-close.uvl') return req.socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\nnamespace Slow\n');
    if (path === '/notes.txt') return res.end('not a model');
    if (path === '/padded.uvl') return res.end(OVER_UPLOAD);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked };
}

describe('import from a URL', () => {
  let server: TestServer;
  let zenodo: FakeZenodo;
  let sources: Awaited<ReturnType<typeof startSources>>;

  before(async () => {
    sources = await startSources(await zipOf([
      { name: 'repo-main/README.md', body: '# models' },
      { name: 'repo-main/models/phone.uvl', body: MODEL_B },
      { name: 'repo-main/models/os/Linux_v1.uvl', body: MODEL_A },
      { name: 'repo-main/.github/ci.yml', body: 'on: push' },
    // A small archive whose one model unpacks past the limit (a zip bomb in miniature).
    ]), await zipOf([{ name: 'bomb/huge.uvl', body: `namespace Huge\n${' '.repeat(MAX_BYTES * 2)}` }]));
    zenodo = await startFakeZenodo();
    server = await startTestServer({ env: { ANALYSIS_WORKERS: '0', URL_IMPORT_MAX_BYTES: String(MAX_BYTES), MAX_UPLOAD_BYTES: String(MAX_UPLOAD), URL_IMPORT_TIMEOUT_MS: '1500', ZENODO_API_URL: zenodo.url, ZENODO_ACCESS_TOKEN: zenodo.token } });
  });
  after(async () => {
    await server?.close();
    await zenodo?.close();
    sources?.server.closeAllConnections();
    await new Promise((resolve) => sources?.server.close(resolve));
  });

  const importing = async (client: Awaited<ReturnType<typeof newUser>>['client'], url: string) => client.post('/dataset/file/import', { json: { url } });

  it('stages a model file, named by its URL or its Content-Disposition', async () => {
    const { client, userId } = await newUser(server, 'Importer');
    const res = await importing(client, `${sources.origin}/files/Linux_v1.uvl`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json.files.map((f: { filename: string }) => f.filename), ['Linux_v1.uvl']);
    assert.equal(res.json.files[0].valid, true);
    assert.equal(res.json.source.url, `${sources.origin}/files/Linux_v1.uvl`);
    const named = await importing(client, `${sources.origin}/download`);
    assert.deepEqual(named.json.files.map((f: { filename: string }) => f.filename), ['phone.uvl']);
    const staged = await server.hub.ctx.services.dataset.listStagedFiles(userId);
    assert.deepEqual(staged.map((f) => f.filename).sort(), ['Linux_v1.uvl', 'phone.uvl']);
  });

  it("stages every model of a Git host's repository archive and names the other files", async () => {
    const { client, userId } = await newUser(server, 'Archivist');
    const res = await importing(client, `${sources.origin}/archive/main.zip`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json.files.map((f: { filename: string }) => f.filename).sort(), ['Linux_v1.uvl', 'phone.uvl']);
    assert.deepEqual(res.json.skipped.sort(), ['repo-main/.github/ci.yml', 'repo-main/README.md']);
    assert.equal((await server.hub.ctx.services.dataset.listStagedFiles(userId)).length, 2);
  });

  it('follows 5 redirects and refuses a sixth', async () => {
    const { client } = await newUser(server, 'Redirected');
    const five = await importing(client, `${sources.origin}/chain/4`);
    assert.equal(five.status, 200, five.text);
    assert.deepEqual(five.json.files.map((f: { filename: string }) => f.filename), ['Linux_v1.uvl']);
    const six = await importing(client, `${sources.origin}/chain/5`);
    assert.equal(six.status, 400);
    assert.equal(six.json.kind, 'too_many_redirects');
  });

  it('refuses oversized, endless, missing and model-less bodies with a 400 and stages nothing', async () => {
    const { client, userId } = await newUser(server, 'Limited');
    for (const [path, kind] of [
      ['/declared-big.uvl', 'too_large'], ['/streamed-big.uvl', 'too_large'], ['/slow.uvl', 'timeout'], ['/slow-close.uvl', 'timeout'],
      ['/missing.uvl', 'http_status'], ['/notes.txt', 'no_models'], ['/archive/bomb.zip', 'too_large'],
    ] as const) {
      const res = await importing(client, `${sources.origin}${path}`);
      assert.equal(res.status, 400, `${path}: ${res.text}`);
      assert.equal(res.json.kind, kind, path);
      assert.equal(typeof res.json.message, 'string');
      assert.doesNotMatch(res.text, /\bat \w+ \(|node:internal/, 'no stack trace');
      // Words for the user, not the pattern of the code (it read "(.(uvl|xml|sxfm|json)$)").
      if (kind === 'no_models') assert.equal(res.json.message, 'No model file (.uvl, .xml, .sxfm or .json) was found at this URL.');
    }
    for (const url of ['', 'not a url', 'ftp://example.org/a.uvl', 'file:///etc/passwd', `http://user:pw@127.0.0.1/a.uvl`]) {
      const res = await importing(client, url);
      assert.equal(res.status, 400, url);
    }
    assert.equal((await server.hub.ctx.services.dataset.listStagedFiles(userId)).length, 0);
  });

  it('refuses a fetched model over MAX_UPLOAD_BYTES as its upload would be, staging and adding nothing', async () => {
    const { client, userId } = await newUser(server, 'Padder');
    const message = `The file is larger than the upload limit of ${MAX_UPLOAD} bytes.`;
    const staged = await importing(client, `${sources.origin}/padded.uvl`);
    assert.equal(staged.status, 200, staged.text);
    assert.deepEqual(staged.json.files, []);
    assert.deepEqual(staged.json.refused, [{ name: 'padded.uvl', message }]);
    assert.deepEqual(await server.hub.ctx.services.dataset.listStagedFiles(userId), []);
    const token = await createToken(client, ['read', 'write']);
    const created = await bearer(server.baseUrl, token, 'POST', '/api/v1/datasets', { name: 'Padded' });
    const added = await bearer(server.baseUrl, token, 'POST', `/api/v1/datasets/${created.json.id}/files/import`, { url: `${sources.origin}/padded.uvl` });
    assert.equal(added.status, 201, JSON.stringify(added.json));
    assert.deepEqual(added.json.files, []);
    assert.deepEqual(added.json.refused, [{ name: 'padded.uvl', message }]);
  });

  it('refuses a visitor and a missing CSRF token before fetching anything', async () => {
    const before = sources.asked.length;
    const { client } = await newUser(server, 'Guarded');
    assert.equal((await client.post('/dataset/file/import', { json: { url: `${sources.origin}/download` }, csrf: false })).status, 400);
    const visitor = new (await import('../../../../test/support/client.ts')).TestClient(server.baseUrl);
    assert.equal((await visitor.post('/dataset/file/import', { json: { url: `${sources.origin}/download` }, csrf: false })).status, 302);
    assert.equal(sources.asked.length, before);
  });

  it('reads a Zenodo record through the Zenodo API, by DOI and by its page, models of its zip included', async () => {
    const record = zenodo.addRecord([
      { key: 'phone.uvl', body: MODEL_B }, { key: 'more.zip', body: await zipOf([{ name: 'x/Linux_v1.uvl', body: MODEL_A }]) }, { key: 'paper.pdf', body: '%PDF' },
    ]);
    const { client } = await newUser(server, 'Zenodian');
    const byDoi = await importing(client, record.doi);
    assert.equal(byDoi.status, 200, byDoi.text);
    assert.deepEqual(byDoi.json.files.map((f: { filename: string }) => f.filename).sort(), ['Linux_v1.uvl', 'phone.uvl']);
    assert.deepEqual(byDoi.json.source, { url: `https://doi.org/${record.doi}`, doi: record.doi });
    assert.deepEqual(byDoi.json.skipped, ['paper.pdf']);
    const byPage = await importing(client, record.page);
    assert.equal(byPage.status, 200, byPage.text);
    assert.equal(byPage.json.source.doi, record.doi);
    assert.equal(byPage.json.files.length, 2);
    assert.equal((await importing(client, '10.5281/zenodo.99999999')).json.kind, 'http_status');
  });

  it('lists every model past the 200 one import takes in skipped with the reason, and fetches none of them from a Zenodo record', async () => {
    const model = (name: string) => ({ key: `${name}.uvl`, body: `namespace ${name}\n\nfeatures\n    ${name}\n` });
    // 199 models, then an archive of 3 that crosses the limit, then a model and an archive past it.
    const record = zenodo.addRecord([
      ...Array.from({ length: 199 }, (_, i) => model(`M${i}`)),
      { key: 'three.zip', body: await zipOf(['Z0', 'Z1', 'Z2'].map((n) => ({ name: `z/${n}.uvl`, body: model(n).body }))) },
      model('After'), { key: 'after.zip', body: await zipOf([{ name: 'A.uvl', body: model('A').body }]) }, { key: 'paper.pdf', body: '%PDF' },
    ]);
    const asked = zenodo.requests.length;
    const options = { publicOnly: false, allowHosts: [], maxBytes: MAX_BYTES, timeoutMs: 1500, zenodoApiUrl: zenodo.url, maxModelBytes: MAX_BYTES };
    const source = await importSource(record.doi, options);
    assert.equal(source.models.length, 200);
    assert.deepEqual(source.models.slice(198).map((m) => m.name), ['M198.uvl', 'Z0.uvl']);
    assert.deepEqual(source.skipped, [
      { name: 'z/Z1.uvl', reason: OVER_LIMIT }, { name: 'z/Z2.uvl', reason: OVER_LIMIT },
      { name: 'After.uvl', reason: OVER_LIMIT }, { name: 'after.zip', reason: ARCHIVE_OVER_LIMIT }, { name: 'paper.pdf', reason: NOT_A_MODEL },
    ]);
    const fetched = zenodo.requests.slice(asked).filter((r) => r.path.endsWith('/content')).map((r) => decodeURIComponent(r.path.split('/').at(-2)!));
    assert.equal(fetched.length, 200, 'the 199 models and three.zip; nothing after the limit');
    assert.ok(!fetched.includes('After.uvl') && !fetched.includes('after.zip') && !fetched.includes('paper.pdf'));

    // The answer of the staging route: the names in skipped, the reasons beside them, and the message says so.
    const { client } = await newUser(server, 'Hoarder');
    const res = await importing(client, record.doi);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.files.length, 200);
    assert.deepEqual(res.json.skipped, source.skipped.map((f) => f.name));
    assert.deepEqual(res.json.skipped_reasons, source.skipped);
    assert.match(res.json.message, /4 more files left out \(at most 200 models per import/);
  });

  it('refuses a Zenodo API answer that is not a record (null, an array, files not a list of objects) as a fetch failure, not a TypeError', async () => {
    const options = { publicOnly: false, allowHosts: [], maxBytes: MAX_BYTES, timeoutMs: 1500, zenodoApiUrl: `${sources.origin}/api`, maxModelBytes: MAX_BYTES };
    for (const [i, body] of ODD_RECORDS.entries()) {
      await assert.rejects(importSource(`10.5281/zenodo.${i}`, options), (error) => error instanceof UrlImportError, body);
    }
  });

  it("adds a URL's models to the caller's dataset through the API, and fetches nothing for another's", async () => {
    const owner = await newUser(server, 'ApiOwner');
    const token = await createToken(owner.client, ['read', 'write']);
    const created = await bearer(server.baseUrl, token, 'POST', '/api/v1/datasets', { name: 'Imported' });
    assert.equal(created.status, 201, JSON.stringify(created.json));
    const res = await bearer(server.baseUrl, token, 'POST', `/api/v1/datasets/${created.json.id}/files/import`, { url: `${sources.origin}/archive/main.zip` });
    assert.equal(res.status, 201, JSON.stringify(res.json));
    assert.deepEqual(res.json.files.map((f: { file_name: string }) => f.file_name).sort(), ['Linux_v1.uvl', 'phone.uvl']);
    assert.deepEqual(res.json.skipped.sort(), ['repo-main/.github/ci.yml', 'repo-main/README.md']);
    assert.deepEqual(res.json.skipped_reasons.map((f: { reason: string }) => f.reason), [NOT_A_MODEL, NOT_A_MODEL]);
    const again = await bearer(server.baseUrl, token, 'POST', `/api/v1/datasets/${created.json.id}/files/import`, { url: `${sources.origin}/download` });
    assert.equal(again.status, 201);
    assert.equal(again.json.files.length, 0);
    assert.equal(again.json.refused.length, 1, 'phone.uvl is in the dataset already');

    const other = await newUser(server, 'ApiOther');
    const otherToken = await createToken(other.client, ['read', 'write']);
    const asked = sources.asked.length;
    assert.equal((await bearer(server.baseUrl, otherToken, 'POST', `/api/v1/datasets/${created.json.id}/files/import`, { url: `${sources.origin}/download` })).status, 404);
    const readOnly = await createToken(owner.client, ['read'], 'read-only');
    assert.equal((await bearer(server.baseUrl, readOnly, 'POST', `/api/v1/datasets/${created.json.id}/files/import`, { url: `${sources.origin}/download` })).status, 403);
    assert.equal((await bearer(server.baseUrl, token, 'POST', `/api/v1/datasets/${created.json.id}/files/import`, {})).status, 400);
    assert.equal(sources.asked.length, asked, 'no fetch for a refused caller');
  });

  it('gives a new version the sources of the models imported into it, through a failed publish and its retry, and those of the version it comes from', async () => {
    const { client } = await newUser(server, 'Versioner');
    assert.equal((await importing(client, `${sources.origin}/files/Linux_v1.uvl`)).status, 200);
    const first = await client.post('/dataset/upload', { form: { ...uploadForm(['Linux_v1.uvl']), 'authors-0-name': 'Doe, Jane' } });
    assert.ok(first.json.doi, first.text);
    assert.equal((await importing(client, `${sources.origin}/download`)).status, 200);
    const form = { ...uploadForm(['phone.uvl'], { title: 'Second', version_of: String(first.json.dataset_id) }), 'authors-0-name': 'Doe, Jane' };
    // The first publish fails: the version is removed and phone.uvl goes back to the staging area, with its source.
    zenodo.failOn('newversion', 500);
    const failed = await client.post('/dataset/upload', { form });
    assert.equal(failed.status, 502, failed.text);
    zenodo.reset();
    const retry = await client.post('/dataset/upload', { form });
    assert.equal(retry.json.status, 'ok', retry.text);
    const deposited = [...zenodo.depositions.values()].find((d) => d.doi === retry.json.doi)!;
    const derived = (deposited.metadata?.related_identifiers ?? []).filter((r: { relation: string }) => r.relation === 'isDerivedFrom');
    assert.deepEqual(derived.map((r: { identifier: string }) => r.identifier).sort(), [`${sources.origin}/download`, `${sources.origin}/files/Linux_v1.uvl`]);
    const datacite = await client.get(`/doi/${retry.json.doi}/export/datacite`);
    assert.equal(JSON.parse(datacite.text).relatedIdentifiers.filter((r: { relationType: string }) => r.relationType === 'IsDerivedFrom').length, 2);
  });

  it('forgets the source of a staged model removed before the dataset is made: an own file staged under its name is derived from nothing', async () => {
    const { client } = await newUser(server, 'Rethinker');
    assert.equal((await importing(client, `${sources.origin}/download`)).status, 200);
    assert.equal((await client.post('/dataset/file/delete', { json: { file: 'phone.uvl' } })).status, 200);
    assert.equal((await stage(client, 'phone.uvl', MODEL_B)).json.filename, 'phone.uvl');
    const uploaded = await client.post('/dataset/upload', { form: { ...uploadForm(['phone.uvl']), 'authors-0-name': 'Doe, Jane' } });
    assert.equal(uploaded.status, 200, uploaded.text);
    const deposited = [...zenodo.depositions.values()].find((d) => d.doi === uploaded.json.doi)!;
    assert.deepEqual(deposited.metadata?.related_identifiers ?? [], []);
    const datacite = await client.get(`/doi/${uploaded.json.doi}/export/datacite`);
    assert.deepEqual(JSON.parse(datacite.text).relatedIdentifiers.filter((r: { relationType: string }) => r.relationType === 'IsDerivedFrom'), []);
  });

  it("makes the source a related identifier of the published dataset, staged or added by the API", async () => {
    const record = zenodo.addRecord([{ key: 'phone.uvl', body: MODEL_B }]);
    const { client } = await newUser(server, 'Deriver');
    assert.equal((await importing(client, `${sources.origin}/files/Linux_v1.uvl`)).status, 200);
    const uploaded = await client.post('/dataset/upload', { form: { ...uploadForm(['Linux_v1.uvl']), 'authors-0-name': 'Doe, Jane' } });
    assert.equal(uploaded.status, 200, uploaded.text);
    assert.ok(uploaded.json.doi, JSON.stringify(uploaded.json));
    const staged = [...zenodo.depositions.values()].find((d) => d.doi === uploaded.json.doi)!;
    assert.deepEqual(staged.metadata?.related_identifiers, [{ identifier: `${sources.origin}/files/Linux_v1.uvl`, relation: 'isDerivedFrom', scheme: 'url' }]);

    const token = await createToken(client, ['write']);
    const created = await bearer(server.baseUrl, token, 'POST', '/api/v1/datasets', { name: 'From Zenodo', description: 'Imported', authors: [{ name: 'Doe, Jane' }] });
    assert.equal((await bearer(server.baseUrl, token, 'POST', `/api/v1/datasets/${created.json.id}/files/import`, { url: record.page })).status, 201);
    const published = await bearer(server.baseUrl, token, 'POST', `/api/v1/datasets/${created.json.id}/publish`);
    assert.equal(published.json.status, 'ok', JSON.stringify(published.json));
    const deposited = [...zenodo.depositions.values()].find((d) => d.doi === published.json.doi)!;
    assert.deepEqual(deposited.metadata?.related_identifiers, [
      { identifier: record.doi, relation: 'isDerivedFrom', scheme: 'doi' }, { identifier: record.page, relation: 'isDerivedFrom', scheme: 'url' },
    ]);
    // The hub's own metadata of the dataset says so too: its DataCite export and its OAI-PMH record.
    const derived = [
      { relatedIdentifier: record.doi, relatedIdentifierType: 'DOI', relationType: 'IsDerivedFrom' },
      { relatedIdentifier: record.page, relatedIdentifierType: 'URL', relationType: 'IsDerivedFrom' },
    ];
    const derivedOf = (text: string) => JSON.parse(text).relatedIdentifiers.filter((r: { relationType: string }) => r.relationType === 'IsDerivedFrom');
    const datacite = await client.get(`/doi/${published.json.doi}/export/datacite`);
    assert.equal(datacite.status, 200);
    assert.deepEqual(derivedOf(datacite.text), derived);
    const fromForm = await client.get(`/doi/${uploaded.json.doi}/export/datacite`);
    assert.deepEqual(derivedOf(fromForm.text), [{ relatedIdentifier: `${sources.origin}/files/Linux_v1.uvl`, relatedIdentifierType: 'URL', relationType: 'IsDerivedFrom' }]);
    const oaiRecord = await client.get(`/oai?verb=GetRecord&metadataPrefix=oai_datacite&identifier=${encodeURIComponent(`oai:${server.hub.ctx.config.domain}:${published.json.doi}`)}`);
    assert.ok(oaiRecord.text.includes(`<relatedIdentifier relatedIdentifierType="DOI" relationType="IsDerivedFrom">${record.doi}</relatedIdentifier>`), oaiRecord.text);
  });
});
