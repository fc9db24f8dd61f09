// `hub remote publish` run as a CI job would run it, against a real hub on an ephemeral port.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testDialects } from '../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { startFakeZenodo, type FakeZenodo } from '../../test/support/fake-zenodo.ts';
import { newUser } from '../../test/support/accounts.ts';
import { BROKEN_UVL, CAR_UVL, PHONE_UVL, createToken } from '../../test/support/api.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dir = mkdtempSync(join(tmpdir(), 'hub-remote-'));
after(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'phone.uvl'), PHONE_UVL);
writeFileSync(join(dir, 'car.uvl'), CAR_UVL);
writeFileSync(join(dir, 'bad.uvl'), BROKEN_UVL);
// Issue 27: a FeatureIDE model, converted by the hub, and one that does not convert.
writeFileSync(join(dir, 'car.xml'), readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../packages/uvl/src/formats/fixtures/car.featureide.xml')));
writeFileSync(join(dir, 'broken.xml'), '<featureModel>\n<struct>\n<and name="A">\n</struct>\n</featureModel>\n');

/** Runs the hub executable without blocking this process, whose event loop serves the hub under test. */
function hub(args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  return new Promise((done) => {
    const childEnv = { ...process.env, ...env };
    if (!('HUB_URL' in env)) delete childEnv.HUB_URL;
    if (!('HUB_TOKEN' in env)) delete childEnv.HUB_TOKEN;
    execFile(process.execPath, [join(root, 'bin/hub.mjs'), 'remote', 'publish', ...args], { cwd: dir, env: childEnv }, (error, out, err) => {
      done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out, err });
    });
  });
}

/** An address where nothing listens: a port that was free a moment ago. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

for (const dialect of testDialects()) {
  describe(`hub remote publish [${dialect.name}]`, () => {
    let server: TestServer;
    let zenodo: FakeZenodo;
    let write: string;
    before(async () => {
      zenodo = await startFakeZenodo();
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, env: { ZENODO_API_URL: zenodo.url, ZENODO_ACCESS_TOKEN: zenodo.token } });
      const { client } = await newUser(server, 'Pipeline');
      write = await createToken(client, ['write']);
    });
    after(async () => { await server?.close(); await zenodo?.close(); });

    it('creates, fills and publishes a dataset and prints its DOI (flags, then HUB_URL and HUB_TOKEN)', async () => {
      zenodo.reset();
      const r = await hub(['--url', server.baseUrl, '--token', write, '--title', 'From CI', '--description', 'Models of a pipeline', '--tags', 'ci,uvl',
        '--author', 'Doe, Jane;University of Seville;0000-0002-1825-0097', '--author', 'Roe, Rick', 'phone.uvl', 'car.uvl']);
      assert.equal(r.code, 0, r.err);
      const doi = r.out.trim();
      assert.match(doi, /^10\.\d+\/\S+$/, 'stdout is the DOI alone');
      assert.match(r.err, /Added phone\.uvl/);
      assert.match(r.err, /Published: http:\/\/.+\/doi\//);
      const row = await server.hub.db.selectFrom('ds_meta_data').select(['id', 'title', 'description', 'tags']).where('dataset_doi', '=', doi).executeTakeFirstOrThrow();
      assert.deepEqual([row.title, row.description, row.tags], ['From CI', 'Models of a pipeline', 'ci, uvl']);
      const authors = await server.hub.db.selectFrom('author').select(['name', 'affiliation', 'orcid']).where('ds_meta_data_id', '=', row.id).orderBy('position').execute();
      assert.deepEqual(authors, [
        { name: 'Doe, Jane', affiliation: 'University of Seville', orcid: '0000-0002-1825-0097' },
        { name: 'Roe, Rick', affiliation: null, orcid: null },
      ]);
      const viaEnv = await hub(['--title', 'From the environment', 'phone.uvl'], { HUB_URL: server.baseUrl, HUB_TOKEN: write });
      assert.equal(viaEnv.code, 0, viaEnv.err);
      assert.match(viaEnv.out.trim(), /^10\./);
    });

    it('publishes a FeatureIDE model converted by the hub, printing its loss report; refuses one that does not convert with its line', async () => {
      zenodo.reset();
      const r = await hub(['--url', server.baseUrl, '--token', write, '--title', 'Converted in CI', 'car.xml']);
      assert.equal(r.code, 0, r.err);
      assert.match(r.err, /Added car\.xml \(file \d+\)/);
      assert.match(r.err, /converted from featureide to car\.uvl: 4 loss\(es\):/);
      assert.match(r.err, /- feature `Maps\.v2` renamed to `Maps_v2`/);
      const refused = await hub(['--url', server.baseUrl, '--token', write, '--title', 'Broken', 'broken.xml']);
      assert.equal(refused.code, 1);
      assert.match(refused.err, /broken\.xml was refused \(400: .*FeatureIDE/);
      assert.match(refused.err, /Line 4:\d+ - not well-formed XML/);
    });

    it('says clearly what failed: unreachable hub, bad token, read-only token, invalid model, deposit failure', async () => {
      const unreachable = await hub(['--url', `http://127.0.0.1:${await closedPort()}`, '--token', write, '--title', 'T', 'phone.uvl']);
      assert.equal(unreachable.code, 1);
      assert.match(unreachable.err, /cannot reach the hub at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
      assert.equal(unreachable.out, '');

      const badToken = await hub(['--url', server.baseUrl, '--token', 'hub_0000000000000000_nope', '--title', 'T', 'phone.uvl']);
      assert.equal(badToken.code, 1);
      assert.match(badToken.err, /refused the token \(401: The token is not valid\.\)/);

      const { client } = await newUser(server);
      const read = await createToken(client, ['read']);
      const readOnly = await hub(['--url', server.baseUrl, '--token', read, '--title', 'T', 'phone.uvl']);
      assert.equal(readOnly.code, 1);
      assert.match(readOnly.err, /write scope/);

      const before = Number((await server.hub.db.selectFrom('data_set').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      const invalid = await hub(['--url', server.baseUrl, '--token', write, '--title', 'Broken', 'phone.uvl', 'bad.uvl']);
      assert.equal(invalid.code, 1);
      assert.match(invalid.err, /bad\.uvl was refused \(400: bad\.uvl is not a valid UVL model\.\)\n {2}Line 3:4 - /);
      assert.match(invalid.err, /the draft dataset was removed/);
      const after = Number((await server.hub.db.selectFrom('data_set').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      assert.equal(after, before, 'no draft is left behind');

      const missing = await hub(['--url', server.baseUrl, '--token', write, '--title', 'T', 'nothere.uvl']);
      assert.equal(missing.code, 1);
      assert.match(missing.err, /cannot read nothere\.uvl: no such file/);

      const noUrl = await hub(['--token', write, '--title', 'T', 'phone.uvl']);
      assert.equal(noUrl.code, 1);
      assert.match(noUrl.err, /give --url or set HUB_URL/);

      zenodo.failOn('publish', 503);
      const deposit = await hub(['--url', server.baseUrl, '--token', write, '--title', 'Deposit down', 'phone.uvl']);
      zenodo.reset();
      assert.equal(deposit.code, 1);
      assert.match(deposit.err, /the deposit failed: .*could not be published/);
      const id = /\/dataset\/unsynchronized\/(\d+)\//.exec(deposit.err)?.[1];
      assert.ok(id, deposit.err);
      assert.ok(deposit.err.includes(`${server.baseUrl}/dataset/unsynchronized/${id}/`));
      const kept = await server.hub.db.selectFrom('data_set').innerJoin('ds_meta_data as md', 'md.id', 'data_set.ds_meta_data_id')
        .select(['md.dataset_doi', 'md.title']).where('data_set.id', '=', Number(id)).executeTakeFirstOrThrow();
      assert.deepEqual(kept, { dataset_doi: null, title: 'Deposit down' });
    });
  });
}
