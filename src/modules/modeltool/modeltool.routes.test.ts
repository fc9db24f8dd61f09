// The modeltool routes at HTTP level, on every dialect (specification, modeltool; decisions
// sections 6 and 7): check_uvl, valid and the three exports, their status codes and JSON
// shapes, attachment names, the temporary files (gone once the answer was sent, also when the
// visitor aborts), imports resolved inside the dataset folder only, and private datasets.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Every temporary folder this process makes goes here, so the test sees exactly the export
// folders of its own server (node --test runs each test file in its own process).
const privateTmp = mkdtempSync(join(tmpdir(), 'modeltool-test-'));
process.env.TMPDIR = privateTmp;

import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { insertDatasetRow, userIdByEmail } from '../../../test/support/fixtures.ts';
import { deleteStored, isStored, putStored } from '../../../test/support/stored.ts';
import { nowIso } from '../../core/db/database.ts';

const SHOP = [
  'namespace Shop',
  '',
  'features',
  '    Shop {Price 10}',
  '        mandatory',
  '            Catalogue',
  '        optional',
  '            Search',
  '        alternative',
  '            Card',
  '            "Cash on delivery"',
  '',
  'constraints',
  '    Search => Catalogue',
  '    !(Card & "Cash on delivery")',
  '    Shop.Price > 3',
  '',
].join('\n');
const SHOP_FEATURES = ['Shop', 'Catalogue', 'Search', 'Card', 'Cash on delivery'];
const BROKEN = 'features\n    Root\n        optional\n            A\n            B {\n';
const TAB_HINT = 'features\n\tA\n\t\toptional\n\t\t\tB\nconstraints\n\tA\n\t\tB\n';
const GHOST = 'features\n    Root\n        optional\n            A\nconstraints\n    A => Ghost\n';
const TARGETS = [
  ['glencoe', '_glencoe.txt'],
  ['splot', '_splot.txt'],
  ['cnf', '_cnf.txt'],
] as const;

const exportFolders = () => readdirSync(privateTmp).filter((name) => name.startsWith('hub-modeltool-'));

/**
 * The export folders once the server is done with them. The removal follows the end of the
 * answer on the server, which the client may see first; this waits for it (bounded, so a
 * folder that is never removed fails the test rather than hanging it).
 */
async function exportFoldersAfterCleanup(): Promise<string[]> {
  for (let i = 0; i < 500 && exportFolders().length > 0; i++) await new Promise((r) => setTimeout(r, 10));
  return exportFolders();
}

/** Balanced tags outside comments and the XML declaration: enough to tell that SXFM output is well-formed XML. */
function assertWellFormedXml(text: string): void {
  assert.match(text, /^<\?xml [^>]*\?>/);
  const body = text.replace(/^<\?xml [^>]*\?>/, '').replace(/<!--[\s\S]*?-->/g, '');
  const stack: string[] = [];
  for (const [, closing, name, selfClosing] of body.matchAll(/<(\/?)([A-Za-z_][\w.-]*)[^>]*?(\/?)>/g)) {
    if (selfClosing) continue;
    if (closing) assert.equal(stack.pop(), name, `</${name}> closes the open element`);
    else stack.push(name!);
  }
  assert.deepEqual(stack, [], 'every element is closed');
  assert.doesNotMatch(body.replace(/<[^>]*>/g, ''), /[<>]|&(?!amp;|lt;|gt;|quot;|apos;)/, 'text is escaped');
}

let fixtureCount = 0;

/** A dataset with one feature model per file, the files stored under the prefix the hubfile service gives. */
async function storeDataset(server: TestServer, files: Record<string, string>, options: { owner?: string; synchronized?: boolean } = {}) {
  const { db, ctx } = server.hub;
  const userId = await userIdByEmail(db, options.owner ?? 'user1@example.com');
  fixtureCount += 1;
  const doi = options.synchronized === false ? null : `10.9999/modeltool.${fixtureCount}`;
  const datasetId = await insertDatasetRow(db, userId, { title: `Modeltool fixture ${fixtureCount}`, doi, createdAt: nowIso() });
  const prefix = ctx.services.hubfile.datasetPrefix(userId, datasetId);
  const ids: Record<string, number> = {};
  for (const [name, text] of Object.entries(files)) {
    const fmId = await ctx.services.featuremodel.createFeatureModel(db, datasetId, {
      uvl_filename: name, title: name, description: '', publication_type: 'none', publication_doi: null, tags: null, uvl_version: null, authors: [],
    });
    ids[name] = await ctx.services.hubfile.createFile(db, fmId, { name, checksum: createHash('md5').update(text).digest('hex'), size: Buffer.byteLength(text) });
    await putStored(server, `${prefix}${name}`, text);
  }
  return { datasetId, prefix, ids };
}

for (const dialect of testDialects()) {
  describe(`modeltool routes [${dialect.name}]`, () => {
    let server: TestServer;
    let shop: number;
    let broken: number;
    let tabbed: number;
    let ghost: number;
    let missing: number;
    const client = () => new TestClient(server.baseUrl);

    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true });
      const stored = await storeDataset(server, { 'shop.uvl': SHOP, 'broken.uvl': BROKEN, 'tabbed.uvl': TAB_HINT, 'ghost.uvl': GHOST, 'gone.uvl': SHOP });
      ({ 'shop.uvl': shop, 'broken.uvl': broken, 'tabbed.uvl': tabbed, 'ghost.uvl': ghost, 'gone.uvl': missing } = stored.ids as Record<string, number>);
      assert.ok(await isStored(server, `${stored.prefix}gone.uvl`));
      await deleteStored(server, `${stored.prefix}gone.uvl`);
    });
    after(async () => {
      await server?.close();
      assert.deepEqual(exportFolders(), [], 'no export folder survives the server');
    });

    it('parses and converts in a worker of the scheduler, per requester: a 5th heavy job is 429 with Retry-After', async () => {
      const scheduler = server.hub.ctx.scheduler;
      const started = scheduler.started;
      const exported = await fetch(`${server.baseUrl}/modeltool/to_glencoe/${shop}`);
      assert.equal(exported.status, 200);
      await exported.arrayBuffer();
      assert.ok(scheduler.started > started, 'the parse and conversion ran as a job of the scheduler');
      // Four jobs of the client at 203.0.113.8 (behind the loopback proxy) held on a gate.
      const gateKind = {
        name: 'test-gate',
        options: { script: new URL('../../core/scheduler/scheduler.test-support.ts', import.meta.url), crash: { error: (e: Error) => e.message, exit: (c: number) => `exit ${c}`, overrun: () => 'overran' } },
      };
      const shared = new Int32Array(new SharedArrayBuffer(8));
      const held = [1, 2, 3, 4].map((id) => scheduler.submit(gateKind, { requester: 'address:203.0.113.8', lane: 'large', job: { id, shared, gate: 0 }, hardLimitMs: 120_000 }));
      const refused = await fetch(`${server.baseUrl}/modeltool/to_glencoe/${shop}`, { headers: { 'x-forwarded-for': '203.0.113.8' } });
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      assert.match((await refused.json()).message, /at most 4/);
      const other = await fetch(`${server.baseUrl}/modeltool/check_uvl/${shop}`, { headers: { 'x-forwarded-for': '198.51.100.8' } });
      assert.equal(other.status, 200);
      await other.arrayBuffer();
      Atomics.store(shared, 1, 1);
      Atomics.notify(shared, 1);
      await Promise.all(held);
    });

    describe('GET /modeltool/check_uvl/<id>', () => {
      it('answers 200 "Valid Model" with no warnings for a valid model, anonymously', async () => {
        const res = await client().get(`/modeltool/check_uvl/${shop}`);
        assert.equal(res.status, 200);
        assert.deepEqual(res.json, { message: 'Valid Model', warnings: [] });
      });

      it('answers 200 with the tab-hint warnings when they are the only findings', async () => {
        const res = await client().get(`/modeltool/check_uvl/${tabbed}`);
        assert.equal(res.status, 200);
        assert.equal(res.json.message, 'Valid Model');
        assert.equal(res.json.warnings.length, 1);
        assert.match(res.json.warnings[0], /^Line 7:2 - .*tab hint/);
      });

      it('answers 400 with every syntax error as "Line <l>:<c> - <message>"', async () => {
        const res = await client().get(`/modeltool/check_uvl/${broken}`);
        assert.equal(res.status, 400);
        assert.deepEqual(Object.keys(res.json).sort(), ['errors', 'warnings']);
        assert.ok(res.json.errors.length >= 1);
        for (const error of res.json.errors) assert.match(error, /^Line \d+:\d+ - \S/);
        assert.deepEqual(res.json.warnings, []);
      });

      it('answers 500 {"error"} for an unknown id, naming it (the route does not check existence)', async () => {
        const res = await client().get('/modeltool/check_uvl/987654');
        assert.equal(res.status, 500);
        assert.deepEqual(Object.keys(res.json), ['error']);
        assert.match(res.json.error, /987654/);
        const huge = await client().get('/modeltool/check_uvl/99999999999');
        assert.equal(huge.status, 500);
        assert.match(huge.json.error, /99999999999/);
      });

      it('answers 500 {"error"} when the disk file is missing', async () => {
        const res = await client().get(`/modeltool/check_uvl/${missing}`);
        assert.equal(res.status, 500);
        assert.match(res.json.error, /missing from disk/);
      });
    });

    describe('GET /modeltool/valid/<id>', () => {
      it('answers 200 {"success", "file_id"} from the validation', async () => {
        assert.deepEqual((await client().get(`/modeltool/valid/${shop}`)).json, { success: true, file_id: shop });
        assert.deepEqual((await client().get(`/modeltool/valid/${tabbed}`)).json, { success: true, file_id: tabbed });
        const invalid = await client().get(`/modeltool/valid/${broken}`);
        assert.equal(invalid.status, 200);
        assert.deepEqual(invalid.json, { success: false, file_id: broken });
      });

      it('hubfileExists tells stored files from unknown ids, and hides private files from visitors', async () => {
        const modeltool = server.hub.ctx.services.modeltool;
        assert.equal(await modeltool.hubfileExists(shop), true);
        assert.equal(await modeltool.hubfileExists(missing), true, 'the row exists even though the disk file does not');
        assert.equal(await modeltool.hubfileExists(987654), false);
        const hidden = await storeDataset(server, { 'hidden.uvl': SHOP }, { owner: 'user2@example.com', synchronized: false });
        const ownerId = await userIdByEmail(server.hub.db, 'user2@example.com');
        assert.equal(await modeltool.hubfileExists(hidden.ids['hidden.uvl']!, { viewerId: null }), false);
        assert.equal(await modeltool.hubfileExists(hidden.ids['hidden.uvl']!, { viewerId: ownerId }), true);
        assert.equal(await modeltool.hubfileExists(hidden.ids['hidden.uvl']!), true, 'another module sees every file');
      });

      it('answers 404 {"error"} for an unknown id, 500 when the disk file is missing', async () => {
        const unknown = await client().get('/modeltool/valid/987654');
        assert.equal(unknown.status, 404);
        assert.deepEqual(Object.keys(unknown.json), ['error']);
        assert.match(unknown.json.error, /987654/);
        const gone = await client().get(`/modeltool/valid/${missing}`);
        assert.equal(gone.status, 500);
        assert.match(gone.json.error, /missing from disk/);
      });
    });

    describe('GET /modeltool/to_<target>/<id>', () => {
      for (const [target, suffix] of TARGETS) {
        it(`to_${target}: an attachment named <stored name>${suffix}, and its temporary file is gone afterwards`, async () => {
          const res = await client().get(`/modeltool/to_${target}/${shop}`);
          assert.equal(res.status, 200, res.text);
          assert.match(res.headers.get('content-disposition') ?? '', new RegExp(`^attachment; filename="shop\\.uvl${suffix.replace('.', '\\.')}"`));
          assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
          assert.ok(res.text.length > 0);
          assert.deepEqual(await exportFoldersAfterCleanup(), [], 'the temporary folder was removed');
        });
      }

      for (const [target, name, type] of [['glencoe', 'shop.json', 'application/json'], ['splot', 'shop.xml', 'application/xml'], ['cnf', 'shop.dimacs', 'text/plain']] as const) {
        it(`the model page's download of ${target}: the same content as ${name}, typed ${type}`, async () => {
          const usual = await client().get(`/modeltool/download/${target}/${shop}`);
          assert.equal(usual.status, 200, usual.text);
          assert.match(usual.headers.get('content-disposition') ?? '', new RegExp(`^attachment; filename="${name.replace('.', '\\.')}"`));
          assert.match(usual.headers.get('content-type') ?? '', new RegExp(`^${type}`));
          assert.equal(usual.text, (await client().get(`/modeltool/to_${target}/${shop}`)).text);
          assert.equal((await client().get(`/modeltool/download/${target}/987654`)).status, 404);
          assert.deepEqual(await exportFoldersAfterCleanup(), [], 'the temporary folder was removed');
        });
      }

      it('to_cnf is DIMACS: the header, one "c <n> <name>" line per feature, the clauses, the left-out equation noted', async () => {
        const res = await client().get(`/modeltool/to_cnf/${shop}`);
        const lines = res.text.split('\n');
        const header = /^p cnf (\d+) (\d+)$/.exec(lines[0]!);
        assert.ok(header, lines[0]);
        const names = new Map(lines.flatMap((l) => { const m = /^c (\d+) (.+)$/.exec(l); return m ? [[m[2]!, Number(m[1])] as const] : []; }));
        for (const feature of SHOP_FEATURES) assert.ok(names.has(feature), `c line for ${feature}`);
        assert.deepEqual([...names.values()].sort((a, b) => a - b), [1, 2, 3, 4, 5]);
        assert.ok(lines.some((l) => /^c left out.*Shop\.Price > 3/.test(l)), 'the equation is listed as left out');
        const clauses = lines.filter((l) => !l.startsWith('c ') && !l.startsWith('p '));
        assert.equal(clauses.length, Number(header[2]));
        for (const clause of clauses) {
          assert.match(clause, /^(-?\d+ )+0$/);
          for (const literal of clause.split(' ').slice(0, -1)) assert.ok(Math.abs(Number(literal)) <= Number(header[1]));
        }
      });

      it('to_glencoe is JSON with every feature, the tree and the Boolean constraints', async () => {
        const res = await client().get(`/modeltool/to_glencoe/${shop}`);
        const model = JSON.parse(res.text);
        // Glencoe ids are flamapy's secure names: a space becomes _.
        assert.deepEqual(Object.keys(model.features).sort(), SHOP_FEATURES.map((f) => f.replace(/[^A-Za-z0-9_]/g, '_')).sort());
        assert.equal(model.tree.id, 'Shop');
        assert.equal(Object.keys(model.constraints).length, 2, 'the two Boolean constraints');
        assert.match(JSON.stringify(model), /Shop\.Price > 3/, 'the equation left out is noted');
      });

      it('to_splot is well-formed SXFM XML with the feature tree and the constraints', async () => {
        const res = await client().get(`/modeltool/to_splot/${shop}`);
        assertWellFormedXml(res.text);
        assert.match(res.text, /<feature_model name="Shop">/);
        assert.match(res.text, /:r Shop/);
        assert.match(res.text, /:g \[1,1\]/);
        assert.match(res.text, /C1: ~Search or Catalogue/);
        assert.match(res.text, /<!--[^>]*Shop\.Price > 3/);
      });

      it('answers 404 {"error"} naming an unknown id, and 404 for ids that are not integers', async () => {
        for (const [target] of TARGETS) {
          const res = await client().get(`/modeltool/to_${target}/987654`);
          assert.equal(res.status, 404);
          assert.deepEqual(Object.keys(res.json), ['error']);
          assert.match(res.json.error, /987654/);
          for (const id of ['abc', '-1', '1.5', '0']) {
            const bad = await client().get(`/modeltool/to_${target}/${id}`);
            assert.equal(bad.status, 404, `${target} ${id}`);
            assert.equal(typeof bad.json, 'object');
          }
        }
        assert.equal((await client().get('/modeltool/to_pdf/1')).status, 404, 'no route for an unknown target');
        assert.equal((await client().get('/modeltool/valid/abc')).status, 404);
        assert.equal((await client().get('/modeltool/check_uvl/abc')).status, 404);
        assert.deepEqual(exportFolders(), []);
      });

      it('answers 500 {"error"} stating the UVL file is missing from disk', async () => {
        for (const [target] of TARGETS) {
          const res = await client().get(`/modeltool/to_${target}/${missing}`);
          assert.equal(res.status, 500);
          assert.deepEqual(Object.keys(res.json), ['error']);
          assert.match(res.json.error, /UVL file .* missing from disk/);
        }
        assert.deepEqual(exportFolders(), []);
      });

      it('answers 400 with the syntax errors for a model that has them, and converts nothing', async () => {
        for (const [target] of TARGETS) {
          const res = await client().get(`/modeltool/to_${target}/${broken}`);
          assert.equal(res.status, 400);
          assert.match(res.json.error, /syntax errors/);
          assert.ok(res.json.errors.length >= 1);
          for (const error of res.json.errors) assert.match(error, /^Line \d+:\d+ - /);
        }
        assert.deepEqual(exportFolders(), []);
      });

      it('answers 400 {"error"} naming the feature when a constraint names one the model does not have', async () => {
        assert.equal((await client().get(`/modeltool/check_uvl/${ghost}`)).status, 200, 'the syntax is valid');
        for (const [target] of TARGETS) {
          const res = await client().get(`/modeltool/to_${target}/${ghost}`);
          assert.equal(res.status, 400);
          assert.deepEqual(Object.keys(res.json), ['error']);
          assert.match(res.json.error, /Ghost/);
        }
        assert.deepEqual(exportFolders(), []);
      });

      it('removes the temporary file when the visitor aborts during the download', async () => {
        // About 10 000 features in 200 small groups: megabytes of Glencoe JSON, far more than the socket buffers hold.
        const groups = Array.from({ length: 200 }, (_, g) => [`            Group${g}`, '                optional',
          ...Array.from({ length: 50 }, (_, i) => `                    Feature${g}_${i}`)].join('\n')).join('\n');
        const big = await storeDataset(server, { 'big.uvl': `features\n    Root\n        optional\n${groups}\n` });
        const controller = new AbortController();
        const res = await fetch(`${server.baseUrl}/modeltool/to_glencoe/${big.ids['big.uvl']}`, { signal: controller.signal });
        assert.equal(res.status, 200);
        assert.ok(Number(res.headers.get('content-length') ?? Infinity) > 0);
        const reader = res.body!.getReader();
        const first = await reader.read();
        assert.equal(first.done, false, 'the download had started');
        controller.abort();
        await reader.cancel().catch(() => {});
        assert.deepEqual(await exportFoldersAfterCleanup(), []);
      });
    });

    describe('the seeded models', () => {
      it('all twelve check valid, count as valid, and export to the three formats', async () => {
        const seeded = await server.hub.db.selectFrom('file').innerJoin('feature_model', 'feature_model.id', 'file.feature_model_id')
          .innerJoin('data_set', 'data_set.id', 'feature_model.data_set_id').innerJoin('ds_meta_data', 'ds_meta_data.id', 'data_set.ds_meta_data_id')
          .select(['file.id', 'file.name']).where('ds_meta_data.dataset_doi', 'like', '10.1234/dataset%').orderBy('file.id').execute();
        assert.equal(seeded.length, 12, 'four seeded datasets of three models');
        for (const { id, name } of seeded) {
          const check = await client().get(`/modeltool/check_uvl/${id}`);
          assert.equal(check.status, 200, `${name}: ${check.text}`);
          assert.deepEqual((await client().get(`/modeltool/valid/${id}`)).json, { success: true, file_id: id });
          const glencoe = await client().get(`/modeltool/to_glencoe/${id}`);
          assert.equal(glencoe.status, 200, `${name}: ${glencoe.text}`);
          assert.ok(Object.keys(JSON.parse(glencoe.text).features).length > 0);
          const splot = await client().get(`/modeltool/to_splot/${id}`);
          assert.equal(splot.status, 200, `${name}: ${splot.text}`);
          assertWellFormedXml(splot.text);
          const cnf = await client().get(`/modeltool/to_cnf/${id}`);
          assert.equal(cnf.status, 200, `${name}: ${cnf.text}`);
          assert.match(cnf.text, /^p cnf \d+ \d+\n/);
          assert.match(cnf.headers.get('content-disposition') ?? '', new RegExp(`filename="${name.replace(/[.]/g, '\\.')}_cnf\\.txt"`));
          const view = await client().get(`/file/view/${id}`);
          assert.equal(view.status, 200);
          assert.equal(server.hub.ctx.services.modeltool.countFeatures(view.json.content), (cnf.text.match(/^c \d+ (?!left out|variables)/gm) ?? []).length, `${name}: one CNF variable line per feature`);
        }
        assert.deepEqual(await exportFoldersAfterCleanup(), []);
      });
    });

    describe('imports', () => {
      it('resolves an imported model among the files of the same dataset', async () => {
        const main = 'imports\n    sub as s\nfeatures\n    Root\n        optional\n            s.Sub\n';
        const stored = await storeDataset(server, { 'main.uvl': main, 'sub.uvl': 'features\n    Sub\n        optional\n            Extra\n' });
        const check = await client().get(`/modeltool/check_uvl/${stored.ids['main.uvl']}`);
        assert.deepEqual(check.json, { message: 'Valid Model', warnings: [] });
        const cnf = await client().get(`/modeltool/to_cnf/${stored.ids['main.uvl']}`);
        assert.match(cnf.text, /^c \d+ s\.Extra$/m, 'the imported subtree is part of the export');
      });

      it('does not look outside the dataset folder: a model of another dataset is not found', async () => {
        await storeDataset(server, { 'elsewhere.uvl': 'features\n    Elsewhere\n        optional\n            Hidden\n' });
        const stored = await storeDataset(server, { 'lonely.uvl': 'imports\n    elsewhere\nfeatures\n    Root\n        optional\n            elsewhere.Elsewhere\n' });
        const check = await client().get(`/modeltool/check_uvl/${stored.ids['lonely.uvl']}`);
        assert.equal(check.status, 200);
        assert.equal(check.json.warnings.length, 1);
        assert.match(check.json.warnings[0], /^Line 2:4 - .*elsewhere/);
        const cnf = await client().get(`/modeltool/to_cnf/${stored.ids['lonely.uvl']}`);
        assert.match(cnf.text, /^c \d+ elsewhere\.Elsewhere$/m, 'the reference stays one leaf');
        assert.doesNotMatch(cnf.text, /Hidden/, 'the other dataset\'s model was not read');
      });

      it('survives import cycles and self-imports', async () => {
        const stored = await storeDataset(server, {
          'a.uvl': 'imports\n    b\nfeatures\n    A\n        optional\n            b.B\n',
          'b.uvl': 'imports\n    a\nfeatures\n    B\n        optional\n            a.A\n',
          'self.uvl': 'imports\n    self\nfeatures\n    Self\n',
        });
        assert.equal((await client().get(`/modeltool/check_uvl/${stored.ids['a.uvl']}`)).status, 200);
        assert.equal((await client().get(`/modeltool/to_cnf/${stored.ids['a.uvl']}`)).status, 200);
        const self = await client().get(`/modeltool/check_uvl/${stored.ids['self.uvl']}`);
        assert.equal(self.status, 200);
        assert.match(self.json.warnings[0], /^Line 2:4 - import cycle/);
      });
    });

    describe('files of an unsynchronized dataset', () => {
      it('are checked and exported for their owner only', async () => {
        const stored = await storeDataset(server, { 'private.uvl': SHOP }, { owner: 'user2@example.com', synchronized: false });
        const id = stored.ids['private.uvl']!;
        assert.equal((await client().get(`/modeltool/check_uvl/${id}`)).status, 500);
        assert.equal((await client().get(`/modeltool/valid/${id}`)).status, 404);
        assert.equal((await client().get(`/modeltool/to_cnf/${id}`)).status, 404);
        const stranger = client();
        await stranger.login('user1@example.com', '1234');
        assert.equal((await stranger.get(`/modeltool/to_glencoe/${id}`)).status, 404);
        const owner = client();
        await owner.login('user2@example.com', '1234');
        assert.equal((await owner.get(`/modeltool/check_uvl/${id}`)).status, 200);
        assert.deepEqual((await owner.get(`/modeltool/valid/${id}`)).json, { success: true, file_id: id });
        assert.equal((await owner.get(`/modeltool/to_cnf/${id}`)).status, 200);
        assert.deepEqual(await exportFoldersAfterCleanup(), []);
      });
    });
  });
}

process.on('exit', () => rmSync(privateTmp, { recursive: true, force: true }));
