// Races of collections on every dialect (extensions section 13: a published collection changes only
// by a new version). Each test puts one request's step between another's check and its write: a
// step run once around a service the collection module calls, or one statement held back while
// other requests run; or it runs two requests at once. A change of the members racing a publish
// lands before the publish's claim (and is deposited) or answers 409 (and changes nothing); a file
// deleted while it is added is a 404; a publish deposits what its claim holds; a double "new
// version" makes one; a publish that ran past the stale time and lost its claim to a newer one
// neither clears that one's claim nor records over it.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import type { TestServer } from '../../../test/support/server.ts';
import { newUser } from '../../../test/support/accounts.ts';
import { apiDatasetWithModel, createToken } from '../../../test/support/api.ts';
import { useHubWithFakeZenodo, type FakeZenodo } from '../../../test/support/fake-zenodo.ts';
import { HttpError } from '../../core/http/errors.ts';
import { STALE_PUBLISH_CLAIM_MS } from './collection.rules.ts';

async function seeded(server: TestServer, doi: string): Promise<{ datasetId: number; fileIds: number[] }> {
  const rows = await server.hub.db.selectFrom('file').innerJoin('feature_model', 'feature_model.id', 'file.feature_model_id')
    .innerJoin('data_set', 'data_set.id', 'feature_model.data_set_id').innerJoin('ds_meta_data', 'ds_meta_data.id', 'data_set.ds_meta_data_id')
    .select(['file.id', 'data_set.id as dataset_id']).where('ds_meta_data.dataset_doi', '=', doi).orderBy('file.id').execute();
  return { datasetId: Number(rows[0]!.dataset_id), fileIds: rows.map((r) => Number(r.id)) };
}

/** The next call of `service[name]` runs `step` before (or after) the real call; the method is put back first, so the step may call it too. */
function stepAtNextCall<S extends object>(service: S, name: keyof S & string, step: () => Promise<unknown>, at: 'before' | 'after' = 'before'): void {
  const original = service[name] as (...args: unknown[]) => Promise<unknown>;
  (service as Record<string, unknown>)[name] = async (...args: unknown[]) => {
    (service as Record<string, unknown>)[name] = original;
    if (at === 'before') await step();
    const result = await original(...args);
    if (at === 'after') await step();
    return result;
  };
}

/**
 * The next query built by `ctx.db.updateTable(table)` waits to run until `release()`; `reached`
 * resolves when it is about to. The handle is put back at once, so only that statement of that
 * request waits, holding no connection, while the test runs other requests.
 */
function holdNextUpdate(server: TestServer, table: string): { reached: Promise<void>; release: () => void } {
  const ctx = server.hub.ctx;
  const db = ctx.db;
  let release!: () => void;
  let reached!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const arrived = new Promise<void>((resolve) => (reached = resolve));
  const gated = <T extends object>(builder: T): T => new Proxy(builder, {
    get(target, prop) {
      const value = Reflect.get(target, prop) as unknown;
      if (typeof value !== 'function') return value;
      if (String(prop).startsWith('execute')) return async (...args: unknown[]) => (reached(), await gate, value.apply(target, args));
      return (...args: unknown[]) => {
        const out = value.apply(target, args) as unknown;
        return out !== null && typeof out === 'object' && 'executeTakeFirst' in out ? gated(out) : out;
      };
    },
  });
  ctx.db = new Proxy(db, {
    get(target, prop) {
      const value = Reflect.get(target, prop) as unknown;
      if (prop !== 'updateTable') return typeof value === 'function' ? value.bind(target) : value;
      return (name: string) => {
        if (name !== table) return target.updateTable(name as 'collection');
        ctx.db = db;
        return gated(target.updateTable(name as 'collection'));
      };
    },
  });
  return { reached: arrived, release };
}

const httpError = (status: number, message?: RegExp) => (error: unknown) =>
  error instanceof HttpError && error.status === status && (message === undefined || message.test(error.message));

/** The file names of the manifest deposited under a DOI. */
function depositedFiles(zenodo: FakeZenodo, doi: string): string[] {
  const deposition = [...zenodo.depositions.values()].find((d) => d.doi === doi);
  assert.ok(deposition, `a deposition with the DOI ${doi}`);
  return deposition.files.get('manifest.csv')!.body.toString('utf8').trim().split('\r\n').slice(1).map((row) => row.split(',')[1]!);
}

for (const dialect of testDialects()) {
  describe(`collections: races [${dialect.name}]`, () => {
    const hubs = useHubWithFakeZenodo({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { ANALYSIS_WORKERS: '0' } });
    let server: TestServer;
    let zenodo: FakeZenodo;
    let dataset1: { datasetId: number; fileIds: number[] };
    let dataset2: { datasetId: number; fileIds: number[] };
    const services = () => server.hub.ctx.services;
    const memberNames = async (id: number, userId: number) => (await services().collection.memberEntries(id, userId)).map((e) => e.fileName);
    before(async () => {
      ({ server, zenodo } = hubs);
      dataset1 = await seeded(server, '10.1234/dataset1');
      dataset2 = await seeded(server, '10.1234/dataset2');
      assert.ok(dataset1.fileIds.length >= 2 && dataset2.fileIds.length >= 1, 'the seed has files');
    });

    it('an add checked before a publish and written after it answers 409 and leaves the published members as deposited', async () => {
      const { userId } = await newUser(server, 'Adder');
      const collection = services().collection;
      const id = await collection.create(userId, { title: 'Raced add' }, { fileId: dataset1.fileIds[0]! });
      // The add has found its collection open; the publish runs before it finds the file and writes.
      stepAtNextCall(services().hubfile, 'getVisibleFile', () => collection.publish(id, userId));
      await assert.rejects(collection.add(id, userId, { fileId: dataset2.fileIds[0]! }), httpError(409, /published/));
      const { doi } = await collection.get(id, userId);
      assert.ok(doi);
      assert.deepEqual(await memberNames(id, userId), depositedFiles(zenodo, doi), 'the members are the deposited ones');
      assert.equal((await collection.memberIds(id)).length, 1);
    });

    it('a remove checked before a publish claim and written after it answers 409 and removes nothing', async () => {
      const { userId } = await newUser(server, 'Remover');
      const collection = services().collection;
      const id = await collection.create(userId, { title: 'Raced remove' }, { datasetId: dataset1.datasetId });
      const before = await collection.memberIds(id);
      // A publish claims the collection while the remove looks up the dataset's files.
      stepAtNextCall(services().featuremodel, 'listByDataset', () =>
        server.hub.db.updateTable('collection').set({ publish_claimed_at: new Date().toISOString() }).where('id', '=', id).execute());
      await assert.rejects(collection.remove(id, userId, { datasetId: dataset1.datasetId }), httpError(409, /under way/));
      assert.deepEqual(await collection.memberIds(id), before, 'the claimed members stay');
    });

    it('adding a file or a draft dataset deleted after it was found answers 404 and writes nothing', async () => {
      const { client, userId } = await newUser(server, 'Deleter');
      const token = await createToken(client, ['write']);
      const draft = async (name: string) => {
        const { id, fileId } = await apiDatasetWithModel(server.baseUrl, token, { name });
        return { datasetId: id, fileId };
      };
      const collection = services().collection;
      const deleteOwn = (datasetId: number) => () => services().dataset.deleteOwn(datasetId, userId);
      const id = await collection.create(userId, { title: 'Vanishing' }, { fileId: dataset1.fileIds[0]! });
      // The dataset deleted once the add has found its files, before it writes them.
      const whole = await draft('Deleted whole');
      stepAtNextCall(services().featuremodel, 'listByDataset', deleteOwn(whole.datasetId), 'after');
      await assert.rejects(collection.add(id, userId, { datasetId: whole.datasetId }), httpError(404, /no dataset with id/));
      const single = await draft('Deleted file');
      stepAtNextCall(services().hubfile, 'getVisibleFile', deleteOwn(single.datasetId), 'after');
      await assert.rejects(collection.add(id, userId, { fileId: single.fileId }), httpError(404, /no file with id/));
      assert.deepEqual(await collection.memberIds(id), [dataset1.fileIds[0]!]);
      // A new collection made with it: no row either.
      const first = await draft('Deleted first');
      stepAtNextCall(services().featuremodel, 'listByDataset', deleteOwn(first.datasetId), 'after');
      await assert.rejects(collection.create(userId, { title: 'Never made' }, { datasetId: first.datasetId }), httpError(404, /no dataset with id/));
      assert.deepEqual((await collection.listMine(userId)).map((c) => c.id), [id]);
    });

    it('a publish that read the collection before an earlier one ended settles the deposition that one handed over, depositing no second record', async () => {
      const { userId } = await newUser(server, 'Second');
      const collection = services().collection;
      const id = await collection.create(userId, { title: 'Read before the claim' }, { fileId: dataset1.fileIds[0]! });
      const before = zenodo.depositions.size;
      // The second publish has read the collection (no deposition handed over yet) and waits to claim it.
      const held = holdNextUpdate(server, 'collection');
      const second = collection.publish(id, userId);
      await held.reached;
      // The first publishes; Zenodo publishes the record but its answer is lost: the deposition id is kept, the claim given back.
      zenodo.loseAnswer('publish', 502);
      try {
        await assert.rejects(collection.publish(id, userId), httpError(502));
      } finally {
        zenodo.reset();
        held.release();
      }
      const published = [...zenodo.depositions.values()].at(-1)!;
      assert.equal(published.published, true, 'Zenodo did publish it');
      assert.equal((await second).doi, published.doi, 'the DOI Zenodo gave the first time');
      assert.equal(zenodo.depositions.size, before + 1, 'no second record');
    });

    /** A publish that has claimed the collection and waits just before its deposit until `release()`. */
    async function newerPublishHeld(id: number, userId: number): Promise<{ publishing: Promise<{ doi: string }>; claimedAt: string; release: () => void }> {
      let release!: () => void;
      let reached!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const arrived = new Promise<void>((resolve) => (reached = resolve));
      stepAtNextCall(services().dataset, 'depositRecord', () => (reached(), gate));
      const publishing = services().collection.publish(id, userId);
      publishing.catch(() => undefined); // awaited by the test; no unhandled rejection if it stops early
      await Promise.race([arrived, publishing.then(() => { throw new Error('the newer publish ended before its deposit'); })]);
      const row = await server.hub.db.selectFrom('collection').select('publish_claimed_at').where('id', '=', id).executeTakeFirstOrThrow();
      assert.ok(row.publish_claimed_at, 'the newer publish holds the claim');
      return { publishing, claimedAt: row.publish_claimed_at, release };
    }

    /**
     * Runs `first` (a publish) with a step around its deposit: its claim made older than the stale
     * time (it ran past 30 minutes), then a newer publish takes the claim over and waits before its
     * own deposit. Checks that the newer claim is untouched and no DOI recorded once the first
     * ended, and that it answered a 409 saying so; then lets the newer one go on; answers its outcome.
     */
    async function outrun(id: number, userId: number, at: 'before' | 'after', message: RegExp, atTakeover = () => {}): Promise<{ doi: string }> {
      let newer: Awaited<ReturnType<typeof newerPublishHeld>> | undefined;
      stepAtNextCall(services().dataset, 'depositRecord', async () => {
        await server.hub.db.updateTable('collection').set({ publish_claimed_at: new Date(Date.now() - STALE_PUBLISH_CLAIM_MS - 60_000).toISOString() })
          .where('id', '=', id).execute();
        newer = await newerPublishHeld(id, userId);
        atTakeover();
      }, at);
      try {
        const [first] = await Promise.allSettled([services().collection.publish(id, userId)]);
        assert.ok(newer, 'the newer publish took the claim over');
        const row = await server.hub.db.selectFrom('collection').select(['doi', 'publish_claimed_at']).where('id', '=', id).executeTakeFirstOrThrow();
        assert.deepEqual(row, { doi: null, publish_claimed_at: newer.claimedAt }, 'the newer publish keeps its claim; no DOI recorded');
        assert.ok(first.status === 'rejected' && httpError(409, message)(first.reason), `the first answers 409, not ${first.status === 'rejected' ? first.reason : JSON.stringify(first.value)}`);
      } finally {
        zenodo.reset();
        newer?.release();
      }
      return await newer!.publishing;
    }

    const publishedRecords = () => [...zenodo.depositions.values()].filter((d) => d.published);

    it('a publish whose claim was taken over before its draft publishes nothing and leaves the newer publish its claim and DOI', async () => {
      const { userId } = await newUser(server, 'Early');
      const collection = services().collection;
      const id = await collection.create(userId, { title: 'Outrun before the draft' }, { fileId: dataset1.fileIds[0]! });
      const before = publishedRecords().length;
      // The draft it then makes is not kept under a claim it lost: the client discards it.
      const { doi } = await outrun(id, userId, 'before', /took over/);
      assert.equal((await collection.get(id, userId)).doi, doi, 'the newer publish recorded its DOI');
      assert.equal(publishedRecords().length, before + 1, 'one record');
      assert.equal(publishedRecords().at(-1)!.doi, doi);
    });

    it('a publish whose claim was taken over failing then gives back no claim but its own', async () => {
      const { userId } = await newUser(server, 'Failing');
      const collection = services().collection;
      const id = await collection.create(userId, { title: 'Outrun and failing' }, { fileId: dataset1.fileIds[0]! });
      // Its deposit fails at Zenodo's first step, so it ends on its error path (a 502 while its claim holds).
      const { doi } = await outrun(id, userId, 'before', /took over/, () => zenodo.failOn('create', 500));
      assert.equal((await collection.get(id, userId)).doi, doi, 'the newer publish recorded its DOI');
    });

    it('a publish whose claim was taken over after Zenodo published its record records nothing; the newer publish settles that record', async () => {
      const { userId } = await newUser(server, 'Late');
      const collection = services().collection;
      const id = await collection.create(userId, { title: 'Outrun after the publish' }, { fileId: dataset1.fileIds[0]! });
      const before = publishedRecords().length;
      // The newer publish has read the deposition the first one kept under its claim.
      const { doi } = await outrun(id, userId, 'after', /took over.*records its DOI/);
      assert.equal(publishedRecords().length, before + 1, 'no second record');
      assert.equal(doi, publishedRecords().at(-1)!.doi, 'the DOI Zenodo gave the first publish');
      assert.equal((await collection.get(id, userId)).doi, doi);
    });

    it('two new versions asked at once make one, which both answer', async () => {
      const { userId } = await newUser(server, 'Clicker');
      const collection = services().collection;
      const id = await collection.create(userId, { title: 'Double click' }, { fileId: dataset1.fileIds[0]! });
      await collection.publish(id, userId);
      const answers = await Promise.all([collection.newVersion(id, userId), collection.newVersion(id, userId)]);
      const rows = await server.hub.db.selectFrom('collection').select('id').where('previous_id', '=', id).execute();
      assert.equal(rows.length, 1, 'one newer version');
      assert.deepEqual(answers.map((a) => a.id), [Number(rows[0]!.id), Number(rows[0]!.id)]);
      assert.deepEqual(answers.map((a) => a.created).sort(), [false, true]);
      assert.deepEqual(await collection.memberIds(Number(rows[0]!.id)), [dataset1.fileIds[0]!]);
    });

    it('an add and a publish at once: the add is deposited or refused, never confirmed and then lost', async () => {
      const collection = services().collection;
      for (let round = 0; round < 3; round++) {
        const { userId } = await newUser(server, `Both${round}`);
        const id = await collection.create(userId, { title: `Both at once ${round}` }, { fileId: dataset1.fileIds[0]! });
        const [added, published] = await Promise.allSettled([collection.add(id, userId, { fileId: dataset2.fileIds[0]! }), collection.publish(id, userId)]);
        assert.equal(published.status, 'fulfilled', String((published as PromiseRejectedResult).reason));
        const deposited = depositedFiles(zenodo, (published as PromiseFulfilledResult<{ doi: string }>).value.doi);
        assert.deepEqual(await memberNames(id, userId), deposited);
        if (added.status === 'fulfilled') assert.equal(deposited.length, 2, 'a confirmed add is deposited');
        else assert.ok(httpError(409)(added.reason), String(added.reason));
      }
    });
  });
}
