// The Zenodo client against a real local server speaking the deposit API (test/support/fake-zenodo.ts),
// including every failure path: error answers at each step, no answer (timeout), refused connection.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeZenodo, type FakeZenodo } from '../../../test/support/fake-zenodo.ts';
import { createDepositRepository, createZenodoClient, DepositError, FAKE_DOI_PREFIX, type DepositRequest } from './index.ts';

const dir = mkdtempSync(join(tmpdir(), 'hub-zenodo-'));
const files = [
  { name: 'phone.uvl', content: 'features\n    Phone\n        optional\n            Camera\n' },
  { name: 'car model (1).uvl', content: 'features\n    Car\n' },
].map((f) => {
  const path = join(dir, f.name);
  writeFileSync(path, f.content);
  return { name: f.name, path, size: Buffer.byteLength(f.content), md5: createHash('md5').update(f.content).digest('hex') };
});

function request(overrides: Partial<DepositRequest> = {}): DepositRequest {
  return {
    datasetId: 7,
    title: 'Phones and cars',
    description: 'Two small models.',
    publicationType: 'none',
    publicationDoi: null,
    tags: ['mobile', 'automotive'],
    creators: [
      { name: 'Doe, John', affiliation: 'Some University', orcid: '0000-0002-1825-0097' },
      { name: 'Roe, Jane', affiliation: null, orcid: null },
    ],
    files: files.map(({ name, path, size }) => ({ name, path, size })),
    ...overrides,
  };
}

async function rejectsWith(promise: Promise<unknown>, step: string, status: number | null, message?: RegExp) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof DepositError, `a DepositError, got ${String(error)}`);
    assert.equal(error.step, step);
    assert.equal(error.status, status);
    if (message) assert.match(error.message, message);
    return true;
  });
}

describe('Zenodo deposit client', () => {
  let zenodo: FakeZenodo;
  before(async () => { zenodo = await startFakeZenodo(); });
  after(async () => {
    await zenodo.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => zenodo.reset());

  const client = (extra: { timeoutMs?: number; uploadTimeoutMs?: number; accessToken?: string } = {}) =>
    createZenodoClient({ apiUrl: zenodo.url, accessToken: extra.accessToken ?? zenodo.token, ...extra });

  it('creates, uploads every file to the bucket, sets the metadata, publishes and answers the DOI', async () => {
    const result = await client().publish(request());
    const deposition = zenodo.depositions.get(result.depositionId)!;
    assert.ok(deposition, 'the deposition id is the one Zenodo gave');
    assert.equal(result.doi, `10.5072/zenodo.${result.depositionId}`);
    assert.equal(deposition.published, true);
    assert.deepEqual([...deposition.files].map(([name, f]) => [name, f.size, f.md5]), files.map((f) => [f.name, f.size, f.md5]));
    const m = deposition.metadata!;
    assert.equal(m.title, 'Phones and cars');
    assert.equal(m.upload_type, 'dataset');
    assert.equal(m.publication_type, undefined);
    assert.equal(m.description, 'Two small models.');
    assert.deepEqual(m.creators, [
      { name: 'Doe, John', affiliation: 'Some University', orcid: '0000-0002-1825-0097' },
      { name: 'Roe, Jane' },
    ]);
    assert.deepEqual(m.keywords, ['mobile', 'automotive', 'uvlhub']);
    assert.equal(m.access_right, 'open');
    assert.equal(typeof m.license, 'string');
    assert.deepEqual(zenodo.requests.map((r) => `${r.method} ${r.path.replace(/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/g, 'B').replace(/\d+/g, 'N')}`), [
      'POST /api/deposit/depositions',
      'PUT /api/files/B/phone.uvl',
      'PUT /api/files/B/car%Nmodel%N(N).uvl',
      'PUT /api/deposit/depositions/N',
      'POST /api/deposit/depositions/N/actions/publish',
    ]);
    assert.ok(zenodo.requests.every((r) => r.authorization === `Bearer ${zenodo.token}`), 'every request carries the bearer token');
  });

  it('publishes a publication with its type and links the publication DOI', async () => {
    const result = await client().publish(request({ publicationType: 'article', publicationDoi: '10.1000/xyz123' }));
    const m = zenodo.depositions.get(result.depositionId)!.metadata!;
    assert.equal(m.upload_type, 'publication');
    assert.equal(m.publication_type, 'article');
    assert.deepEqual(m.related_identifiers, [{ identifier: '10.1000/xyz123', relation: 'isSupplementTo', scheme: 'doi' }]);
  });

  it('uses the multipart files endpoint when the deposition has no bucket', async () => {
    zenodo.withoutBucket(true);
    const result = await client().publish(request());
    const deposition = zenodo.depositions.get(result.depositionId)!;
    assert.deepEqual([...deposition.files.values()].map((f) => f.md5), files.map((f) => f.md5));
    assert.ok(zenodo.requests.some((r) => r.method === 'POST' && r.path.endsWith('/files')));
  });

  it('maps a 500 on create to a DepositError and goes no further', async () => {
    zenodo.failOn('create', 500);
    await rejectsWith(client().publish(request()), 'create', 500, /status 500/);
    assert.deepEqual(zenodo.requests.map((r) => r.method), ['POST']);
  });

  it('maps a 4xx on a file upload to a DepositError and discards the draft', async () => {
    zenodo.failOn('upload', 403);
    await rejectsWith(client().publish(request()), 'upload', 403, /Injected failure/);
    const draft = [...zenodo.depositions.values()].at(-1)!;
    assert.equal(draft.deleted, true, 'the unpublished draft was deleted');
    assert.equal(zenodo.requests.at(-1)!.method, 'DELETE');
  });

  it('maps refused metadata and a failed publish to DepositErrors', async () => {
    zenodo.failOn('metadata', 400);
    await rejectsWith(client().publish(request()), 'metadata', 400);
    zenodo.reset();
    zenodo.failOn('publish', 502);
    await rejectsWith(client().publish(request()), 'publish', 502);
    zenodo.reset();
    // The fake validates like Zenodo: a creator without a name is refused.
    await rejectsWith(client().publish(request({ creators: [] })), 'metadata', 400, /Validation error/);
  });

  it('gives up when Zenodo does not answer (timeout), on create and on upload', async () => {
    zenodo.failOn('create', 'hang');
    await rejectsWith(client({ timeoutMs: 150 }).publish(request()), 'create', null, /did not answer/);
    zenodo.reset();
    zenodo.failOn('upload', 'hang');
    await rejectsWith(client({ uploadTimeoutMs: 150, timeoutMs: 5000 }).publish(request()), 'upload', null, /did not answer/);
  });

  it('maps a refused connection and a wrong token to DepositErrors', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port: p } = probe.address() as { port: number };
        probe.close(() => resolve(p));
      });
    });
    const closed = createZenodoClient({ apiUrl: `http://127.0.0.1:${port}/api`, accessToken: 'x' });
    await rejectsWith(closed.publish(request()), 'create', null, /could not be reached/);
    await rejectsWith(client({ accessToken: 'wrong' }).publish(request()), 'create', 401);
  });

  it('without a token, the built-in fake assigns 10.1234/fakenodo.<dataset id> and checks the files', async () => {
    assert.equal(createDepositRepository({ zenodoApiUrl: zenodo.url, zenodoAccessToken: zenodo.token }).kind, 'zenodo');
    const fake = createDepositRepository({ zenodoApiUrl: undefined, zenodoAccessToken: undefined });
    assert.equal(fake.kind, 'fake');
    assert.deepEqual(await fake.publish(request({ datasetId: 42 })), { depositionId: 42, doi: `${FAKE_DOI_PREFIX}42` });
    await rejectsWith(fake.publish(request({ files: [{ name: 'gone.uvl', path: join(dir, 'gone.uvl'), size: 1 }] })), 'upload', null);
  });
});
