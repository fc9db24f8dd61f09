// Analysis in the hub (issue 9, extensions section 1): models are analysed in the background
// after upload, the API answers the engine's exact result, the dataset JSON carries each model's
// summary, and POST /explore filters by model characteristics; on every dialect.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { shippedModulesWithout } from '../../../test/support/modules.ts';
import { TestClient } from '../../../test/support/client.ts';
import { BIG_COUNT, BIG_UVL, DEAD_UVL, FREE_UVL, HARD_UVL, VOID_UVL, fetchJson, uploadDataset, waitForAnalyses } from './analysis.test-support.ts';

/**
 * The environment that points another instance at this server's S3 bucket (empty on the uploads
 * folder, which the shared working folder already gives): a file one instance stores must be
 * there for the other's analysis worker.
 */
function sameBucket(server: TestServer): Record<string, string> {
  const storage = server.hub.ctx.config.storage;
  if (!storage) return {};
  const env: Record<string, string | undefined> = {
    STORAGE_URL: `s3://${storage.bucket}${storage.prefix ? `/${storage.prefix}` : ''}`,
    S3_ENDPOINT: storage.endpoint, S3_REGION: storage.region,
    S3_ACCESS_KEY_ID: storage.accessKeyId, S3_SECRET_ACCESS_KEY: storage.secretAccessKey,
  };
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

for (const dialect of testDialects()) {
  describe(`analysis in the hub [${dialect.name}]`, () => {
    let server: TestServer;
    const ids = { kestrel: 0, heron: 0, typed: 0 };
    const files: Record<string, number> = {};
    let seededFiles: number[] = [];

    const explore = async (body: unknown) => fetchJson(`${server.baseUrl}/explore`, {
      method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' },
    });
    // The seeded datasets are there too: unless a test gives its own words, only this test's datasets are searched.
    const found = async (body: Record<string, unknown>): Promise<number[]> => {
      const res = await explore({ query: 'analysistest', ...body });
      assert.equal(res.status, 200, JSON.stringify(res.json));
      return res.json.map((d: { id: number }) => d.id).sort((a: number, b: number) => a - b);
    };
    const sorted = (...list: number[]) => [...list].sort((a, b) => a - b);

    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true });
      seededFiles = (await server.hub.db.selectFrom('file').select('id').execute()).map((f) => Number(f.id));
      const client = new TestClient(server.baseUrl);
      await client.login('user1@example.com', '1234');
      await client.get('/dataset/upload');
      ids.kestrel = (await uploadDataset(client, 'Kestrel collection', [['dead.uvl', DEAD_UVL], ['void.uvl', VOID_UVL], ['free.uvl', FREE_UVL]])).dataset_id;
      // The same content as free.uvl under another name: one analysis serves both files.
      ids.heron = (await uploadDataset(client, 'Heron collection', [['printer.uvl', FREE_UVL]])).dataset_id;
      ids.typed = (await uploadDataset(client, 'Kestrel typed lines', [['big.uvl', BIG_UVL]])).dataset_id;
      for (const id of Object.values(ids)) {
        const dataset = await fetchJson(`${server.baseUrl}/api/v1/datasets/${id}`);
        for (const f of dataset.json.files) files[f.file_name] = f.file_id;
      }
      await waitForAnalyses(server, Object.values(files));
    });
    after(async () => server?.close());

    it('answers the exact result of the planted dead feature, with its explanations', async () => {
      const res = await fetchJson(`${server.baseUrl}/api/v1/files/${files['dead.uvl']}/analysis`);
      assert.equal(res.status, 200);
      const a = res.json;
      assert.equal(a.file_id, files['dead.uvl']);
      assert.match(a.sha256, /^[0-9a-f]{64}$/);
      assert.equal(a.status, 'done');
      assert.equal(a.valid, true);
      assert.equal(a.satisfiable, true);
      assert.equal(a.configurations, '1');
      assert.equal(a.configurations_status, 'exact');
      assert.deepEqual(a.core, ['Car', 'Diésel Motor', 'Engine']);
      assert.deepEqual(a.dead, ['Turbo']);
      assert.deepEqual(a.false_optional, ['Diésel Motor']);
      assert.deepEqual(a.explanations, {
        void: [],
        dead: { Turbo: ['Line 10: "Diésel Motor" => !Turbo', 'Line 11: "Diésel Motor"'] },
        false_optional: { 'Diésel Motor': ['Line 11: "Diésel Motor"'] },
      });
      assert.equal(a.metrics.features, 4);
      assert.equal(a.metrics.constraints, 2);
    });

    it('answers the void model with the explanation of the void and empty lists', async () => {
      const a = (await fetchJson(`${server.baseUrl}/api/v1/files/${files['void.uvl']}/analysis`)).json;
      assert.equal(a.status, 'done');
      assert.equal(a.satisfiable, false);
      assert.equal(a.configurations, '0');
      assert.deepEqual([a.core, a.dead, a.false_optional, a.variant, a.atomic_sets], [[], [], [], [], []]);
      assert.deepEqual(a.explanations.void, ['Line 9: A => B', 'Line 10: !B']);
    });

    it('answers the constraint-free model, analysed once for two identical files', async () => {
      const free = (await fetchJson(`${server.baseUrl}/api/v1/files/${files['free.uvl']}/analysis`)).json;
      const printer = (await fetchJson(`${server.baseUrl}/api/v1/files/${files['printer.uvl']}/analysis`)).json;
      assert.equal(free.configurations, '6');
      assert.deepEqual(free.core, ['Printer']);
      assert.deepEqual([free.dead, free.false_optional], [[], []]);
      assert.deepEqual(free.variant, ['Duplex', 'Inkjet', 'Laser', 'Stapler']);
      assert.equal(free.metrics.constraints, 0);
      assert.equal(printer.sha256, free.sha256);
      assert.deepEqual({ ...printer, file_id: 0 }, { ...free, file_id: 0 });
      const rows = await server.hub.db.selectFrom('model_analysis').select('id').where('sha256', '=', free.sha256).execute();
      assert.equal(rows.length, 1);
    });

    it('gives a large count exactly, and marks ignored constraints', async () => {
      const big = (await fetchJson(`${server.baseUrl}/api/v1/files/${files['big.uvl']}/analysis`)).json;
      assert.equal(big.configurations, BIG_COUNT);
      assert.equal(big.boolean_only, false);
      assert.equal(big.ignored_constraints, 1);
      assert.equal(big.metrics.language_level, 'type');
    });

    it('answers 404 for an unknown file, a bad id, and a file of a dataset the caller may not see', async () => {
      assert.equal((await fetchJson(`${server.baseUrl}/api/v1/files/999999/analysis`)).status, 404);
      const bad = await fetchJson(`${server.baseUrl}/api/v1/files/abc/analysis`);
      assert.deepEqual([bad.status, typeof bad.json.message], [404, 'string']);
      // An unsynchronized dataset (its deposit failed), uploaded through a second instance.
      const failing = await startTestServer({
        databaseUrl: server.database.url, workingDir: server.workingDir,
        env: { ...sameBucket(server), ZENODO_ACCESS_TOKEN: 'token', ZENODO_API_URL: 'http://127.0.0.1:9/api', ANALYSIS_WORKERS: '0' },
      });
      try {
        // Every test S3 server has a bucket of the same name: the endpoint tells them apart.
        assert.deepEqual([failing.hub.ctx.store.location, failing.hub.ctx.config.storage?.endpoint], [server.hub.ctx.store.location, server.hub.ctx.config.storage?.endpoint], 'both instances keep their files in one place');
        const owner = new TestClient(failing.baseUrl);
        await owner.login('user2@example.com', '1234');
        await owner.get('/dataset/upload');
        const hidden = await uploadDataset(owner, 'Private osprey', [['osprey.uvl', DEAD_UVL.replaceAll('Turbo', 'Osprey')]]);
        assert.equal(hidden.status, 'partial');
        const file = (await owner.get(`/api/v1/datasets/${hidden.dataset_id}`)).json.files[0].file_id;
        assert.equal((await fetchJson(`${server.baseUrl}/api/v1/files/${file}/analysis`)).status, 404, 'anonymous');
        const other = new TestClient(server.baseUrl);
        await other.login('user1@example.com', '1234');
        assert.equal((await other.get(`/api/v1/files/${file}/analysis`)).status, 404, 'another user');
        const mine = await waitForAnalyses(server, [file], owner);
        assert.deepEqual(mine.get(file).dead, ['Osprey']);
      } finally {
        await failing.close();
      }
    });

    it('puts each model summary in the dataset JSON of the REST API', async () => {
      const dataset = (await fetchJson(`${server.baseUrl}/api/v1/datasets/${ids.kestrel}`)).json;
      assert.deepEqual(dataset.models, [
        { file_id: files['dead.uvl'], name: 'dead.uvl', status: 'done', features: 4, constraints: 2, configurations: '1', satisfiable: true },
        { file_id: files['void.uvl'], name: 'void.uvl', status: 'done', features: 3, constraints: 2, configurations: '0', satisfiable: false },
        { file_id: files['free.uvl'], name: 'free.uvl', status: 'done', features: 5, constraints: 0, configurations: '6', satisfiable: true },
      ]);
      const list = (await fetchJson(`${server.baseUrl}/api/v1/datasets/`)).json;
      const typed = list.items.find((d: { dataset_id: number }) => d.dataset_id === ids.typed);
      assert.deepEqual(typed.models, [{ file_id: files['big.uvl'], name: 'big.uvl', status: 'done', features: 102, constraints: 2, configurations: BIG_COUNT, satisfiable: true }]);
    });

    it('filters by each field of the models object', async () => {
      const { kestrel: k, heron: h, typed: t } = ids;
      assert.deepEqual(await found({ models: { features: { min: 5 }, constraints: { max: 0 } }, query: 'kestrel heron' }), sorted(k, h));
      assert.deepEqual(await found({ models: { features: { max: 4 } } }), [k]);
      assert.deepEqual(await found({ models: { features: { min: 100, max: 102 } } }), [t]);
      assert.deepEqual(await found({ models: { constraints: { min: 2 } }, query: 'kestrel heron' }), sorted(k, t));
      assert.deepEqual(await found({ models: { depth: { min: 2 } } }), sorted(k, h));
      assert.deepEqual(await found({ models: { depth: { max: 1 } }, query: 'kestrel heron' }), sorted(k, t));
      assert.deepEqual(await found({ models: { satisfiable: false } }), [k]);
      assert.deepEqual(await found({ models: { has_dead: true } }), [k]);
      assert.deepEqual(await found({ models: { has_dead: false }, query: 'kestrel heron' }), sorted(k, h, t));
      assert.deepEqual(await found({ models: { language_level: 'type' } }), [t]);
      assert.deepEqual(await found({ models: { language_level: 'arithmetic' } }), []);
      assert.deepEqual(await found({ models: { language_level: 'boolean' }, query: 'kestrel heron' }), sorted(k, h));
    });

    it('compares counts exactly, as decimal strings or powers of ten', async () => {
      const { kestrel: k, heron: h, typed: t } = ids;
      assert.deepEqual(await found({ models: { configurations: { min: '1e30' } } }), [t]);
      assert.deepEqual(await found({ models: { configurations: { min: BIG_COUNT, max: BIG_COUNT } } }), [t]);
      assert.deepEqual(await found({ models: { configurations: { min: (BigInt(BIG_COUNT) + 1n).toString() } } }), []);
      assert.deepEqual(await found({ models: { configurations: { max: (BigInt(BIG_COUNT) - 1n).toString() } }, query: 'kestrel heron' }), sorted(k, h));
      assert.deepEqual(await found({ models: { configurations: { min: '6', max: '0006' } } }), sorted(k, h));
      assert.deepEqual(await found({ models: { configurations: { min: '7', max: '1e30' } } }), []);
      assert.deepEqual(await found({ models: { configurations: { max: '0' } } }), [k]);
    });

    it('finds feature names accent- and case-insensitively, as substrings', async () => {
      const { kestrel: k, heron: h, typed: t } = ids;
      assert.deepEqual(await found({ models: { feature: 'diesel' } }), [k]);
      assert.deepEqual(await found({ models: { feature: 'DIÉSEL mot' } }), [k]);
      assert.deepEqual(await found({ models: { feature: 'tapl' } }), sorted(k, h));
      assert.deepEqual(await found({ models: { feature: 'f100' } }), [t]);
      assert.deepEqual(await found({ models: { feature: 'f1' } }), [t], 'a name shorter than a trigram');
      assert.deepEqual(await found({ models: { feature: 'rLa' } }), [], 'no match across two names (printer|laser)');
      assert.deepEqual(await found({ models: { feature: 'zebra' } }), []);
    });

    it('needs one model to satisfy every field, and combines with the text query', async () => {
      const { kestrel: k, heron: h } = ids;
      assert.deepEqual(await found({ models: { satisfiable: false, features: { min: 4 } } }), [], 'the void model has 3 features');
      assert.deepEqual(await found({ models: { has_dead: true, constraints: { min: 2 }, feature: 'turbo' } }), [k]);
      assert.deepEqual(await found({ query: 'heron', models: { feature: 'stapler' } }), [h]);
      assert.deepEqual(await found({ query: 'heron', models: { satisfiable: false } }), []);
      assert.deepEqual(await found({ query: 'kestrel', models: { language_level: 'boolean' } }), [k]);
      const res = await explore({ query: 'kestrel', models: { has_dead: true } });
      assert.deepEqual(res.json[0].models, [{ file_id: files['dead.uvl'], name: 'dead.uvl', features: 4, constraints: 2, configurations: '1', satisfiable: true }]);
      const all = await explore({ query: 'heron' });
      assert.deepEqual(all.json[0].models, [{ file_id: files['printer.uvl'], name: 'printer.uvl', features: 5, constraints: 0, configurations: '6', satisfiable: true }]);
      assert.deepEqual(await found({ query: 'heron', models: {} }), [h], 'an empty models object filters nothing');
    });

    it('refuses bad filter values with 400 and a message', async () => {
      for (const models of [
        5, 'x', [], { features: 5 }, { features: { min: 'a' } }, { features: { min: -1 } }, { features: { min: 1.5 } },
        { depth: { min: 3, max: 2 } }, { configurations: { min: 1000 } }, { configurations: { min: 'abc' } },
        { configurations: { min: '1e31', max: '1e30' } }, { satisfiable: 'yes' }, { has_dead: 1 },
        { language_level: 'quantum' }, { feature: 5 }, { colour: 'red' }, { features: { minimum: 1 } },
      ]) {
        const res = await explore({ models });
        assert.equal(res.status, 400, JSON.stringify(models));
        assert.equal(typeof res.json.message, 'string');
        assert.doesNotMatch(JSON.stringify(res.json), /at .*\.ts:\d+/);
        assert.doesNotMatch(res.json.message, /models\.|\.min|\.max/, 'in the words of the form, not the JSON path');
      }
      // The explore form's labels and bounds, as a person reads them beside the fields.
      const said = async (models: unknown) => (await explore({ models })).json.message as string;
      assert.match(await said({ configurations: { min: 'abc' } }), /^Configurations at least must be a decimal number such as 1000/);
      assert.match(await said({ depth: { min: 3, max: 2 } }), /^Tree depth: the min is above the max/);
      assert.match(await said({ features: { max: -1 } }), /^Features at most must be a whole number/);
      assert.match(await said({ has_dead: 1 }), /^Dead features must be yes/);
    });

    it('analyses every seeded model', async () => {
      const results = await waitForAnalyses(server, seededFiles);
      assert.ok(results.size >= 4);
      for (const [id, a] of results) assert.ok(a.status === 'done' || a.status === 'partial', `file ${id}: ${a.status} ${a.error ?? ''}`);
    });
  });
}

describe('analysis disabled', () => {
  it('leaves datasets, the REST API and explore working, without summaries or model filters', async () => {
    const server = await startTestServer({ modules: shippedModulesWithout('analysis'), seed: true });
    try {
      const client = new TestClient(server.baseUrl);
      await client.login('user1@example.com', '1234');
      await client.get('/dataset/upload');
      const { status, dataset_id: id } = await uploadDataset(client, 'Unanalysed collection', [['dead.uvl', DEAD_UVL]]);
      assert.equal(status, 'ok');
      const dataset = await fetchJson(`${server.baseUrl}/api/v1/datasets/${id}`);
      assert.equal(dataset.status, 200);
      assert.equal('models' in dataset.json, false);
      const file = dataset.json.files[0].file_id;
      assert.equal((await fetchJson(`${server.baseUrl}/api/v1/files/${file}/analysis`)).status, 404);
      const post = (body: unknown) => fetchJson(`${server.baseUrl}/explore`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
      const plain = await post({ query: 'unanalysed' });
      assert.deepEqual(plain.json.map((d: { id: number }) => d.id), [id]);
      assert.equal('models' in plain.json[0], false);
      const filtered = await post({ query: 'unanalysed', models: { satisfiable: true } });
      assert.equal(filtered.status, 400);
      assert.match(filtered.json.message, /analysis module/);
      assert.equal((await client.get('/explore')).status, 200);
      assert.doesNotMatch((await client.get('/explore')).text, /id="model-filters"/);
    } finally {
      await server.close();
    }
  });
});

describe('a hub stopped during an analysis', () => {
  it('gives its claim back, so that the next instance takes the model again at once', async () => {
    // The keeper analyses nothing; the worker instance claims the hard model and is stopped while counting.
    const keeper = await startTestServer({ seed: true, env: { ANALYSIS_WORKERS: '0' } });
    let worker: TestServer | undefined;
    try {
      const client = new TestClient(keeper.baseUrl);
      await client.login('user1@example.com', '1234');
      await client.get('/dataset/upload');
      assert.equal((await uploadDataset(client, 'Hard collection', [['hard.uvl', HARD_UVL]])).status, 'ok');
      const sha256 = createHash('sha256').update(HARD_UVL).digest('hex');
      const row = () => keeper.hub.db.selectFrom('model_analysis').select(['status', 'claimed_by']).where('sha256', '=', sha256).executeTakeFirst();
      // Its database and store are closed by the app, as in production.
      worker = await startTestServer({ databaseUrl: keeper.database.url, workingDir: keeper.workingDir, env: { ...sameBucket(keeper), ANALYSIS_WORKERS: '1' }, hubOwnsDatabase: true });
      // Until the worker claims it; a model counted before the stop would fail here rather than hang.
      let claimed = await row();
      while (claimed === undefined || claimed.status === 'pending') {
        await new Promise((resolve) => setTimeout(resolve, 50));
        claimed = await row();
      }
      assert.equal(claimed.status, 'running', 'the hard model is still being counted when the worker stops');
      await worker.close();
      worker = undefined;
      // Before the fix the database closed before the runner stopped, and the claim stayed 'running'.
      assert.deepEqual(await row(), { status: 'pending', claimed_by: null });
    } finally {
      await worker?.close();
      await keeper.close();
    }
  });
});
