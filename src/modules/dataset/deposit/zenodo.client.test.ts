// The Zenodo client against a real local server speaking the deposit API (test/support/fake-zenodo.ts),
// including every failure path: error answers at each step, no answer (timeout), refused connection.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeZenodo, type FakeZenodo } from '../../../../test/support/fake-zenodo.ts';
import { createDepositRepository, createZenodoClient, DepositError, FAKE_DOI_PREFIX, type DepositFile, type DepositRequest } from './index.ts';

const dir = mkdtempSync(join(tmpdir(), 'hub-zenodo-'));
const files = [
  { name: 'phone.uvl', content: 'features\n    Phone\n        optional\n            Camera\n' },
  { name: 'car model (1).uvl', content: 'features\n    Car\n' },
].map((f) => {
  const path = join(dir, f.name);
  writeFileSync(path, f.content);
  return { name: f.name, path, size: Buffer.byteLength(f.content), md5: createHash('md5').update(f.content).digest('hex') };
});

/** A deposit file read from disk (the hub hands the deposit a stream of its stored file). */
function onDisk(name: string, path: string, size: number): DepositFile {
  return { name, size, open: async () => (existsSync(path) ? createReadStream(path) : undefined) };
}

function request(overrides: Partial<DepositRequest> = {}): DepositRequest {
  return {
    datasetId: 7,
    title: 'Phones and cars',
    description: 'Two small models.',
    publicationType: 'none',
    publicationDoi: null,
    tags: ['mobile', 'automotive'],
    license: 'CC-BY-4.0',
    creators: [
      { name: 'Doe, John', affiliation: 'Some University', orcid: '0000-0002-1825-0097' },
      { name: 'Roe, Jane', affiliation: null, orcid: null },
    ],
    files: files.map(({ name, path, size }) => onDisk(name, path, size)),
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
    assert.equal(result.conceptDoi, `10.5072/zenodo.${deposition.conceptRecid}`, 'the concept DOI is answered at the first publish');
    assert.notEqual(result.conceptDoi, result.doi);
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
    assert.equal(m.license, 'cc-by-4.0', 'Zenodo\'s vocabulary id of the SPDX licence');
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

  it('sends the licence of the request', async () => {
    const result = await client().publish(request({ license: 'MIT' }));
    assert.equal(zenodo.depositions.get(result.depositionId)!.metadata!.license, 'mit');
  });

  /** A published deposition, ready to be edited; the requests log starts after it. */
  async function published() {
    const result = await client().publish(request());
    zenodo.reset();
    return result;
  }
  const steps = () => zenodo.requests.map((r) => `${r.method} ${r.path.replace(/\d+/g, 'N')}`);

  it('updates a published record: edit, metadata, publish; same DOI, new metadata, files untouched', async () => {
    const before = await published();
    const deposition = zenodo.depositions.get(before.depositionId)!;
    const files = [...deposition.files.keys()];
    const after = await client().updateMetadata(before.depositionId, request({
      title: 'Renamed', description: 'Changed.', tags: ['new'], license: 'CC0-1.0', publicationType: 'article', publicationDoi: '10.1000/p.2',
      creators: [{ name: 'Poe, Ann', affiliation: null, orcid: null }],
    }));
    assert.deepEqual(after, before, 'the deposition and its DOI stay');
    assert.deepEqual(steps(), [
      'POST /api/deposit/depositions/N/actions/edit',
      'PUT /api/deposit/depositions/N',
      'POST /api/deposit/depositions/N/actions/publish',
    ]);
    const m = deposition.metadata!;
    assert.equal(m.title, 'Renamed');
    assert.equal(m.license, 'cc0-1.0');
    assert.equal(m.publication_type, 'article');
    assert.deepEqual(m.keywords, ['new', 'uvlhub']);
    assert.deepEqual(m.creators, [{ name: 'Poe, Ann' }]);
    assert.equal(deposition.editing, false);
    assert.equal(deposition.doi, before.doi);
    assert.deepEqual([...deposition.files.keys()], files);
  });

  for (const [step, status] of [['edit', 500], ['metadata', 400], ['publish', 502]] as const) {
    it(`maps a failed ${step} step of an update to a DepositError and leaves the published metadata as they were`, async () => {
      const before = await published();
      const deposition = zenodo.depositions.get(before.depositionId)!;
      const old = structuredClone(deposition.metadata);
      zenodo.failOn(step, status);
      await rejectsWith(client().updateMetadata(before.depositionId, request({ title: 'Never seen' })), step, status);
      assert.deepEqual(deposition.metadata, old);
      assert.equal(deposition.editing, false, 'no edit is left open');
      assert.equal(deposition.doi, before.doi);
      if (step === 'edit') assert.deepEqual(steps(), ['POST /api/deposit/depositions/N/actions/edit'], 'nothing follows a refused edit');
      else assert.equal(steps().at(-1), 'POST /api/deposit/depositions/N/actions/discard', 'the open edit is discarded');
    });
  }

  it('still reports the failed step when the discard fails too (the edit stays open, the record unchanged)', async () => {
    const before = await published();
    const deposition = zenodo.depositions.get(before.depositionId)!;
    const old = structuredClone(deposition.metadata);
    zenodo.failOn('publish', 500);
    zenodo.failOn('discard', 503);
    await rejectsWith(client().updateMetadata(before.depositionId, request({ title: 'Never published' })), 'publish', 500);
    assert.equal(steps().at(-1), 'POST /api/deposit/depositions/N/actions/discard');
    assert.equal(deposition.editing, true);
    assert.equal(deposition.publishedMetadata!.title, old!.title, 'what is published did not change');
  });

  it('gives up on an update when Zenodo does not answer, and does not wait for a hanging discard', async () => {
    const before = await published();
    zenodo.failOn('metadata', 'hang');
    zenodo.failOn('discard', 'hang');
    const started = Date.now();
    await rejectsWith(client({ timeoutMs: 150 }).updateMetadata(before.depositionId, request()), 'metadata', null, /did not answer/);
    assert.ok(Date.now() - started < 5000);
  });

  it('the built-in fake updates keep the DOI and refuse metadata Zenodo would refuse', async () => {
    const fake = createDepositRepository({ zenodoApiUrl: undefined, zenodoAccessToken: undefined });
    assert.deepEqual(await fake.updateMetadata(42, request({ datasetId: 42 })), { depositionId: 42, doi: `${FAKE_DOI_PREFIX}42`, conceptDoi: null });
    await rejectsWith(fake.updateMetadata(42, request({ datasetId: 42, description: ' ' })), 'metadata', 400, /description/);
    await rejectsWith(fake.updateMetadata(42, request({ datasetId: 42, creators: [] })), 'metadata', 400, /author/);
  });

  it('without a token, the built-in fake assigns 10.1234/fakenodo.<dataset id> and checks the files', async () => {
    assert.equal(createDepositRepository({ zenodoApiUrl: zenodo.url, zenodoAccessToken: zenodo.token }).kind, 'zenodo');
    const fake = createDepositRepository({ zenodoApiUrl: undefined, zenodoAccessToken: undefined });
    assert.equal(fake.kind, 'fake');
    assert.deepEqual(await fake.publish(request({ datasetId: 42 })), { depositionId: 42, doi: `${FAKE_DOI_PREFIX}42`, conceptDoi: `${FAKE_DOI_PREFIX}concept.42` });
    await rejectsWith(fake.publish(request({ files: [onDisk('gone.uvl', join(dir, 'gone.uvl'), 1)] })), 'upload', null);
    assert.deepEqual(await fake.newVersion(42, request({ datasetId: 43 })), { depositionId: 43, doi: `${FAKE_DOI_PREFIX}43`, conceptDoi: null });
    await rejectsWith(fake.newVersion(42, request({ datasetId: 44, files: [onDisk('gone.uvl', join(dir, 'gone.uvl'), 1)] })), 'upload', null);
  });

  describe('settling a deposition a publish left pending', () => {
    /** A request that notes what onDraft was told, and which steps Zenodo had seen by then. */
    const recording = (extra: Partial<DepositRequest> = {}) => {
      const drafts: { id: number; stepsBefore: string[] }[] = [];
      const req = request({ ...extra, onDraft: async (id) => { drafts.push({ id, stepsBefore: zenodo.requests.map((r) => r.path.replace(/\d+/g, 'N')) }); } });
      return { req, drafts };
    };
    const count = () => zenodo.depositions.size;

    it('onDraft gets the draft before the publish step; a published deposition answers its DOI and nothing is made', async () => {
      const { req, drafts } = recording();
      const published = await client().publish(req);
      assert.deepEqual(drafts.map((d) => d.id), [published.depositionId]);
      assert.ok(!drafts[0]!.stepsBefore.some((p) => p.endsWith('/actions/publish')), 'recorded before the publish step');
      zenodo.reset();
      const made = count();
      assert.deepEqual(await client().settlePending(published.depositionId), published);
      assert.deepEqual(steps(), ['GET /api/deposit/depositions/N']);
      assert.equal(count(), made);
    });

    it('a publish whose answer was lost fails, and settling its draft answers the DOI Zenodo gave', async () => {
      const { req, drafts } = recording();
      zenodo.loseAnswer('publish', 500);
      await rejectsWith(client().publish(req), 'publish', 500);
      const id = drafts[0]!.id;
      assert.equal(zenodo.depositions.get(id)!.published, true, 'Zenodo published it');
      zenodo.reset();
      const settled = await client().settlePending(id);
      assert.deepEqual(settled, { depositionId: id, doi: `10.5072/zenodo.${id}`, conceptDoi: zenodo.depositions.get(id)!.conceptDoi });
    });

    it('an unpublished draft is deleted and null answered; so is a new version\'s, which then can be made', async () => {
      const first = recording();
      zenodo.failOn('publish', 502);
      zenodo.failOn('delete', 500);
      await rejectsWith(client().publish(first.req), 'publish', 502);
      zenodo.reset();
      const draft = first.drafts[0]!.id;
      assert.equal(await client().settlePending(draft), null);
      assert.deepEqual(steps(), ['GET /api/deposit/depositions/N', 'DELETE /api/deposit/depositions/N']);
      assert.equal(zenodo.depositions.get(draft)!.deleted, true);

      const v1 = await client().publish(request());
      const v2 = recording({ files: [files[0]!].map(({ name, path, size }) => onDisk(name, path, size)) });
      zenodo.failOn('publish', 502);
      zenodo.failOn('delete', 500);
      await rejectsWith(client().newVersion(v1.depositionId, v2.req), 'publish', 502);
      zenodo.reset();
      assert.equal(v2.drafts.length, 1, 'the new version\'s draft, once');
      assert.equal(await client().settlePending(v2.drafts[0]!.id), null);
      const retried = await client().newVersion(v1.depositionId, request());
      assert.equal(retried.conceptDoi, v1.conceptDoi, 'no open draft blocks the new version');
    });

    it('a deposition that is gone answers null; any other failure is a DepositError', async () => {
      assert.equal(await client().settlePending(999_999), null);
      const { depositionId } = await client().publish(request());
      zenodo.failOn('get', 500);
      await rejectsWith(client().settlePending(depositionId), 'settle', 500);
      zenodo.reset();
      zenodo.failOn('get', 'hang');
      await rejectsWith(client({ timeoutMs: 150 }).settlePending(depositionId), 'settle', null, /did not answer/);
      zenodo.reset();
      zenodo.failOn('publish', 502);
      zenodo.failOn('delete', 500);
      const { req, drafts } = recording();
      await rejectsWith(client().publish(req), 'publish', 502);
      zenodo.reset();
      zenodo.failOn('delete', 503);
      await rejectsWith(client().settlePending(drafts[0]!.id), 'discard', 503);
      assert.equal(zenodo.depositions.get(drafts[0]!.id)!.deleted, false);
      zenodo.reset();
      assert.equal(await client().settlePending(drafts[0]!.id), null, 'settled once Zenodo answers again');
    });

    it('the built-in fake has nothing pending: null', async () => {
      assert.equal(await createDepositRepository({ zenodoApiUrl: undefined, zenodoAccessToken: undefined }).settlePending(42), null);
    });
  });

  describe('new version', () => {
    const only = [files[0]!].map(({ name, path, size }) => onDisk(name, path, size));
    const published = async () => {
      const first = await client().publish(request());
      zenodo.reset();
      return first;
    };
    const state = () => [...zenodo.depositions.values()].map((d) => ({ id: d.id, published: d.published, deleted: d.deleted, files: [...d.files.keys()] }));

    it('opens the new version, replaces the copied files, sets the metadata, publishes: new DOI, same concept DOI', async () => {
      const first = await published();
      const result = await client().newVersion(first.depositionId, request({ title: 'Phones only', files: only }));
      assert.notEqual(result.depositionId, first.depositionId);
      assert.equal(result.doi, `10.5072/zenodo.${result.depositionId}`);
      assert.notEqual(result.doi, first.doi);
      assert.equal(result.conceptDoi, first.conceptDoi);
      const next = zenodo.depositions.get(result.depositionId)!;
      assert.equal(next.published, true);
      assert.deepEqual([...next.files.keys()], ['phone.uvl'], 'the previous files were deleted; only the request\'s are in');
      assert.equal(next.metadata!.title, 'Phones only');
      const old = zenodo.depositions.get(first.depositionId)!;
      assert.equal(old.published, true);
      assert.deepEqual([...old.files.keys()], files.map((f) => f.name), 'the first version keeps its files');
      assert.deepEqual(zenodo.requests.map((r) => `${r.method} ${r.path.replace(/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/g, 'B').replace(/\d+/g, 'N')}`), [
        'POST /api/deposit/depositions/N/actions/newversion',
        'GET /api/deposit/depositions/N',
        'DELETE /api/deposit/depositions/N/files/B',
        'DELETE /api/deposit/depositions/N/files/B',
        'PUT /api/files/B/phone.uvl',
        'PUT /api/deposit/depositions/N',
        'POST /api/deposit/depositions/N/actions/publish',
      ]);
    });

    for (const [step, status] of [['newversion', 500], ['delete-file', 409], ['upload', 403], ['metadata', 400], ['publish', 502]] as const) {
      it(`a fault at the ${step} step: a DepositError, the draft deleted, the published version untouched`, async () => {
        const first = await published();
        const before = state();
        zenodo.failOn(step, status);
        await rejectsWith(client().newVersion(first.depositionId, request({ files: only })), step, status, /status \d+/);
        const drafts = [...zenodo.depositions.values()].filter((d) => !d.published);
        assert.ok(drafts.every((d) => d.deleted), 'no draft is left open');
        assert.deepEqual(state().filter((d) => before.some((b) => b.id === d.id)), before, 'the published versions are as they were');
        assert.ok(![...zenodo.depositions.values()].some((d) => d.published && d.id > first.depositionId), 'no new version was published');
        // The fault gone, a retry succeeds (no draft left open blocks it).
        zenodo.reset();
        const retried = await client().newVersion(first.depositionId, request({ files: only }));
        assert.equal(retried.conceptDoi, first.conceptDoi);
      });
    }

    it('gives up when the newversion step does not answer, and refuses an unknown deposition', async () => {
      const first = await published();
      zenodo.failOn('newversion', 'hang');
      await rejectsWith(client({ timeoutMs: 150 }).newVersion(first.depositionId, request({ files: only })), 'newversion', null, /did not answer/);
      zenodo.reset();
      await rejectsWith(client().newVersion(999_999, request({ files: only })), 'newversion', 404);
    });
  });
});
