// The FileStore contract, run on the uploads folder and on a real S3-compatible server (s3rver).
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { startS3, type TestS3 } from '../../../test/support/s3.ts';
import { loadConfig } from '../config.ts';
import { createFileStore, createLocalStore, placeObjects, StorageKeyError, type FileStore } from './index.ts';

async function text(store: FileStore, key: string): Promise<string | undefined> {
  const found = await store.get(key);
  if (!found) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of found.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

const kinds: { name: string; open(): Promise<{ store: FileStore; close(): Promise<void> }> }[] = [
  {
    name: 'local folder',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'hub-store-'));
      return { store: createLocalStore(join(dir, 'uploads')), close: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'S3 (s3rver)',
    async open() {
      const s3 = await startS3('hub-contract', 'some/prefix');
      const store = createFileStore(loadConfig({ ...s3.env }));
      return { store, close: async () => { await store.close(); await s3.close(); } };
    },
  },
];

for (const kind of kinds) {
  describe(`FileStore contract: ${kind.name}`, () => {
    let store: FileStore;
    let close: () => Promise<void>;
    let scratch: string;
    before(async () => {
      ({ store, close } = await kind.open());
      scratch = mkdtempSync(join(tmpdir(), 'hub-store-src-'));
    });
    after(async () => {
      await close();
      rmSync(scratch, { recursive: true, force: true });
    });

    it('puts from a Buffer, a string, a stream and a file; gets, stats and lists them', async () => {
      await store.put('user_1/dataset_2/a.uvl', Buffer.from('features\n    A'));
      await store.put('user_1/dataset_2/b (1).uvl', 'features\n    B');
      await store.put('user_1/dataset_20/c.uvl', Readable.from([Buffer.from('features\n'), Buffer.from('    C')]));
      writeFileSync(join(scratch, 'd.uvl'), 'features\n    D');
      const put = await store.put('temp/1/d.uvl', { file: join(scratch, 'd.uvl') });
      assert.equal(put.size, 'features\n    D'.length);
      assert.equal(await text(store, 'user_1/dataset_2/b (1).uvl'), 'features\n    B');
      assert.equal(await text(store, 'user_1/dataset_20/c.uvl'), 'features\n    C');
      const info = await store.stat('user_1/dataset_2/a.uvl');
      assert.equal(info?.size, 14);
      assert.ok(info!.lastModified instanceof Date && Math.abs(info!.lastModified.getTime() - Date.now()) < 60_000);
      assert.equal(await store.stat('user_1/dataset_2/none.uvl'), undefined);
      assert.equal(await store.get('user_1/dataset_2/none.uvl'), undefined);
      const listed = (await store.list('user_1/dataset_2/')).map((o) => o.key);
      assert.deepEqual(listed, ['user_1/dataset_2/a.uvl', 'user_1/dataset_2/b (1).uvl'], 'dataset_2/ never lists dataset_20/');
      assert.deepEqual((await store.list('user_1/')).map((o) => o.key).length, 3);
      assert.deepEqual(await store.list('nobody/'), []);
    });

    it('replaces on put, refuses on putIfAbsent', async () => {
      await store.put('temp/2/x.uvl', 'one');
      await store.put('temp/2/x.uvl', 'two');
      assert.equal(await text(store, 'temp/2/x.uvl'), 'two');
      assert.equal(await store.putIfAbsent('temp/2/x.uvl', 'three'), false);
      assert.equal(await text(store, 'temp/2/x.uvl'), 'two');
      assert.equal(await store.putIfAbsent('temp/2/y.uvl', 'four'), true);
      assert.equal(await text(store, 'temp/2/y.uvl'), 'four');
    });

    it('copies, moves and deletes objects and prefixes', async () => {
      await store.put('temp/3/m.uvl', 'features\n    M');
      await store.copy('temp/3/m.uvl', 'user_3/dataset_1/m.uvl');
      assert.equal(await text(store, 'temp/3/m.uvl'), 'features\n    M');
      assert.equal(await text(store, 'user_3/dataset_1/m.uvl'), 'features\n    M');
      await store.move('temp/3/m.uvl', 'temp/3/.claim-1/m.uvl');
      assert.equal(await store.stat('temp/3/m.uvl'), undefined);
      assert.equal(await text(store, 'temp/3/.claim-1/m.uvl'), 'features\n    M');
      await store.delete('temp/3/.claim-1/m.uvl');
      await store.delete('temp/3/.claim-1/m.uvl');
      assert.deepEqual(await store.list('temp/3/'), []);
      await store.put('user_3/dataset_1/n.uvl', 'n');
      await store.put('user_3/dataset_10/o.uvl', 'o');
      await store.deletePrefix('user_3/dataset_1/');
      assert.deepEqual((await store.list('user_3/')).map((o) => o.key), ['user_3/dataset_10/o.uvl']);
      await assert.rejects(() => store.deletePrefix(''), /whole store/);
      await assert.rejects(() => store.deletePrefix('user_3'), StorageKeyError);
    });

    it('refuses keys that could leave the store', async () => {
      for (const key of ['../x.uvl', '/etc/passwd', 'a//b.uvl', 'a/./b.uvl', 'a\\b.uvl', 'a/\u0000.uvl', '']) {
        await assert.rejects(() => store.put(key, 'x'), StorageKeyError, JSON.stringify(key));
        await assert.rejects(() => store.stat(key), StorageKeyError, JSON.stringify(key));
      }
    });

    it('streams a large object in and out unchanged and gives it as a local file', async () => {
      const size = 12 * 1024 * 1024 + 123;
      const chunk = randomBytes(1024 * 1024);
      const expected = createHash('sha256');
      function* parts() {
        let left = size;
        while (left > 0) {
          const part = chunk.subarray(0, Math.min(left, chunk.length));
          expected.update(part);
          left -= part.length;
          yield part;
        }
      }
      const put = await store.put('user_4/dataset_1/big.uvl', Readable.from(parts()));
      assert.equal(put.size, size);
      const got = await store.get('user_4/dataset_1/big.uvl');
      assert.equal(got?.size, size);
      const actual = createHash('sha256');
      for await (const part of got!.body) actual.update(part as Buffer);
      assert.equal(actual.digest('hex'), expected.digest('hex'));
      let seen = '';
      const length = await store.withLocalFile('user_4/dataset_1/big.uvl', async (path) => {
        seen = path;
        return readFileSync(path).length;
      });
      assert.equal(length, size);
      if (store.kind === 's3') assert.ok(!existsSync(seen), 'the temporary download is removed');
      await assert.rejects(() => store.withLocalFile('user_4/dataset_1/none.uvl', async () => 0), /No stored object/);
    });

    it('places objects under their final keys before the commit and removes them on abort', async () => {
      await store.put('temp/5/.claim-a/p.uvl', 'features\n    P');
      await store.put('temp/5/.claim-a/q.uvl', 'features\n    Q');
      const kept = placeObjects(store, 'user_5/dataset_1/');
      await kept.stage([{ sourceKey: 'temp/5/.claim-a/p.uvl', name: 'p.uvl' }]);
      assert.equal(await text(store, 'user_5/dataset_1/p.uvl'), 'features\n    P', 'in place before the rows commit');
      await kept.commit();
      await kept.abort();
      assert.equal(await text(store, 'user_5/dataset_1/p.uvl'), 'features\n    P', 'an abort after the commit removes nothing');
      const failed = placeObjects(store, 'user_5/dataset_2/');
      await failed.stage([{ sourceKey: 'temp/5/.claim-a/q.uvl', name: 'q.uvl' }]);
      await assert.rejects(() => failed.stage([{ sourceKey: 'temp/5/.claim-a/none.uvl', name: 'r.uvl' }]));
      await failed.abort();
      assert.deepEqual(await store.list('user_5/dataset_2/'), []);
      const conflict = placeObjects(store, 'user_5/dataset_1/');
      await assert.rejects(() => conflict.stage([{ sourceKey: 'temp/5/.claim-a/q.uvl', name: 'p.uvl' }]), /exists already/);
      await conflict.abort();
      assert.equal(await text(store, 'user_5/dataset_1/p.uvl'), 'features\n    P', 'a conflicting placement leaves the existing object');
    });
  });
}

describe('storage configuration', () => {
  it('reads STORAGE_URL and the S3 variables, and keeps the uploads folder by default', () => {
    assert.equal(loadConfig({}).storage, undefined);
    assert.equal(loadConfig({ STORAGE_URL: 'local' }).storage, undefined);
    const config = loadConfig({ STORAGE_URL: 's3://hub-files/instances/a/', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_REGION: 'eu-west-1', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' });
    assert.deepEqual(config.storage, { bucket: 'hub-files', prefix: 'instances/a', endpoint: 'http://127.0.0.1:9000', region: 'eu-west-1', accessKeyId: 'k', secretAccessKey: 's' });
    assert.equal(createFileStore(loadConfig({ WORKING_DIR: '/srv/hub' })).location, '/srv/hub/uploads');
    assert.equal(createFileStore(config).location, 's3://hub-files/instances/a');
    for (const bad of ['s3://', 'http://bucket', 's3://B', 's3://bucket/../x']) {
      assert.throws(() => loadConfig({ STORAGE_URL: bad }), /STORAGE_URL/, bad);
    }
    assert.throws(() => loadConfig({ STORAGE_URL: 's3://bucket', S3_ENDPOINT: 'localhost:9000' }), /S3_ENDPOINT/);
  });
});

describe('storage selection in the hub', () => {
  it('gives the modules the S3 store when STORAGE_URL names a bucket', async () => {
    const { createModuleContext } = await import('../modules.ts');
    const config = loadConfig({ STORAGE_URL: 's3://hub-files/a', S3_ENDPOINT: 'http://127.0.0.1:9' });
    const ctx = createModuleContext(config, undefined as never, undefined as never, []);
    assert.equal(ctx.store.kind, 's3');
    assert.equal(ctx.store.location, 's3://hub-files/a');
  });
});
