// Issue 26, races between simultaneous requests on one dataset: one deposit however many
// publishes race (the deposit claim, a conditional UPDATE), one file per name however many
// uploads race (the dataset_file_name key), the 200-models limit of the API, also raced, and no
// change of a dataset while a publish of it runs (the deposit reads what the record will hold).
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../../test/support/databases.ts';
import type { TestServer } from '../../../../test/support/server.ts';
import { useHubWithFakeZenodo, type FakeZenodo } from '../../../../test/support/fake-zenodo.ts';
import { newUser } from '../../../../test/support/accounts.ts';
import { storedEntries } from '../../../../test/support/stored.ts';
import { PHONE_UVL, apiDatasetWithModel, bearer, createToken, uvlForm } from '../../../../test/support/api.ts';
import { MAX_FEATURE_MODELS } from '../upload-form.ts';

const RACERS = 4;

for (const dialect of testDialects()) {
  describe(`simultaneous writes on one dataset [${dialect.name}]`, () => {
    const hubs = useHubWithFakeZenodo({ databaseBaseUrl: dialect.baseUrl, seed: true });
    let server: TestServer;
    let zenodo: FakeZenodo;
    before(() => ({ server, zenodo } = hubs));

    /** A new person's write token and an unsynchronized dataset of theirs with one model. */
    async function datasetWithOneModel(): Promise<{ token: string; id: number; userId: number; client: Awaited<ReturnType<typeof newUser>>['client'] }> {
      const { client, userId } = await newUser(server, 'Racer');
      const token = await createToken(client, ['read', 'write']);
      const { id } = await apiDatasetWithModel(server.baseUrl, token, { name: 'Raced', description: 'Published by racing scripts' });
      return { token, id, userId, client };
    }

    const doiOf = async (id: number) => (await server.hub.db.selectFrom('data_set').innerJoin('ds_meta_data as md', 'md.id', 'data_set.ds_meta_data_id')
      .select(['md.dataset_doi', 'md.deposit_claimed_at']).where('data_set.id', '=', id).executeTakeFirstOrThrow());

    it('simultaneous publishes over the API and the page make one deposit: one ok with the DOI, the others 409', async () => {
      zenodo.reset();
      const before = new Set(zenodo.depositions.keys());
      const { token, id, client } = await datasetWithOneModel();
      await client.get('/dataset/list');
      const answers = await Promise.all([
        ...Array.from({ length: RACERS }, () => bearer(server.baseUrl, token, 'POST', `/api/v1/datasets/${id}/publish`)),
        client.post(`/dataset/${id}/publish`).then((r) => ({ status: r.status, json: r.json })),
      ]);
      const ok = answers.filter((a) => a.status === 200);
      assert.equal(ok.length, 1, JSON.stringify(answers.map((a) => [a.status, a.json])));
      assert.equal(ok[0]!.json.status, 'ok');
      for (const refused of answers.filter((a) => a.status !== 200)) {
        assert.equal(refused.status, 409, JSON.stringify(refused.json));
        assert.match(refused.json.message, /under way|already published/);
      }
      const made = [...zenodo.depositions.values()].filter((dep) => !before.has(dep.id));
      const published = made.filter((dep) => dep.published);
      assert.equal(made.length, 1, 'one deposition was made');
      assert.equal(published.length, 1);
      const row = await doiOf(id);
      assert.equal(row.dataset_doi, ok[0]!.json.doi);
      assert.equal(row.dataset_doi, published[0]!.doi);
      assert.equal(row.deposit_claimed_at, null, 'the claim was given back');
    });

    it('a deposit claim left by a process that died is taken over once stale', async () => {
      zenodo.reset();
      const { token, id } = await datasetWithOneModel();
      const depositionsBefore = zenodo.depositions.size;
      const meta = await server.hub.db.selectFrom('data_set').select('ds_meta_data_id').where('id', '=', id).executeTakeFirstOrThrow();
      const claim = (ago: number) => server.hub.db.updateTable('ds_meta_data')
        .set({ deposit_claimed_at: new Date(Date.now() - ago).toISOString() }).where('id', '=', meta.ds_meta_data_id).execute();
      await claim(60 * 1000);
      const held = await bearer(server.baseUrl, token, 'POST', `/api/v1/datasets/${id}/publish`);
      assert.equal(held.status, 409, 'a fresh claim is another publish under way');
      assert.match(held.json.message, /under way/);
      assert.equal(zenodo.depositions.size, depositionsBefore, 'no deposition was made');
      await claim(2 * 60 * 60 * 1000);
      const taken = await bearer(server.baseUrl, token, 'POST', `/api/v1/datasets/${id}/publish`);
      assert.equal(taken.status, 200, JSON.stringify(taken.json));
      assert.equal((await doiOf(id)).dataset_doi, taken.json.doi);
    });

    it('simultaneous uploads of one name keep one file: one 201, the others the duplicate 409, nothing left behind', async () => {
      const { token, id, userId } = await datasetWithOneModel();
      const answers = await Promise.all(Array.from({ length: RACERS }, (_, i) =>
        bearer(server.baseUrl, token, 'POST', `/api/v1/datasets/${id}/files`, uvlForm('same.uvl', `${PHONE_UVL}// racer ${i}\n`))));
      const created = answers.filter((a) => a.status === 201);
      assert.equal(created.length, 1, JSON.stringify(answers.map((a) => [a.status, a.json])));
      for (const refused of answers.filter((a) => a.status !== 201)) {
        assert.equal(refused.status, 409, JSON.stringify(refused.json));
        assert.match(refused.json.message, /already has a file named same\.uvl/);
      }
      const files = (await bearer(server.baseUrl, token, 'GET', `/api/v1/datasets/${id}`)).json.files.map((f: { file_name: string }) => f.file_name).sort();
      assert.deepEqual(files, ['phone.uvl', 'same.uvl']);
      const prefix = server.hub.ctx.services.hubfile.datasetPrefix(userId, id);
      assert.deepEqual(await storedEntries(server, prefix), ['phone.uvl', 'same.uvl']);
      assert.deepEqual(await storedEntries(server, `temp/.api/${userId}/`), [], 'no staged copy is left');
      const kept = await server.hub.ctx.services.hubfile.getFile(created[0]!.json.file_id);
      assert.equal(await server.hub.ctx.services.hubfile.readText(kept!), `${PHONE_UVL}// racer ${answers.indexOf(created[0]!)}\n`, 'the stored file is the winner\'s');
      const metrics = await server.hub.db.selectFrom('data_set').innerJoin('ds_meta_data as md', 'md.id', 'data_set.ds_meta_data_id')
        .innerJoin('ds_metrics as mt', 'mt.id', 'md.ds_metrics_id').select('mt.number_of_models').where('data_set.id', '=', id).executeTakeFirstOrThrow();
      assert.equal(Number(metrics.number_of_models), 2);
    });

    it(`the API keeps at most ${MAX_FEATURE_MODELS} models in a dataset: the next is 409, nothing kept`, async () => {
      const { token, id, userId } = await datasetWithOneModel();
      // The limit reads the dataset's model count, kept with every file (other tests check the
      // count); set here to one below the limit rather than uploading 198 more models.
      const metricsId = (await server.hub.db.selectFrom('data_set').innerJoin('ds_meta_data as md', 'md.id', 'data_set.ds_meta_data_id')
        .select('md.ds_metrics_id').where('data_set.id', '=', id).executeTakeFirstOrThrow()).ds_metrics_id!;
      await server.hub.db.updateTable('ds_metrics').set({ number_of_models: MAX_FEATURE_MODELS - 1 }).where('id', '=', metricsId).execute();
      const last = await bearer(server.baseUrl, token, 'POST', `/api/v1/datasets/${id}/files`, uvlForm('last.uvl', PHONE_UVL));
      assert.equal(last.status, 201, `model ${MAX_FEATURE_MODELS} is taken`);
      const over = await bearer(server.baseUrl, token, 'POST', `/api/v1/datasets/${id}/files`, uvlForm('one-too-many.uvl', PHONE_UVL));
      assert.equal(over.status, 409);
      assert.equal(over.json.message, `A dataset holds at most ${MAX_FEATURE_MODELS} models.`);
      const files = (await bearer(server.baseUrl, token, 'GET', `/api/v1/datasets/${id}`)).json.files.map((f: { file_name: string }) => f.file_name);
      assert.deepEqual(files.sort(), ['last.uvl', 'phone.uvl']);
      const prefix = server.hub.ctx.services.hubfile.datasetPrefix(userId, id);
      assert.deepEqual(await storedEntries(server, prefix), ['last.uvl', 'phone.uvl']);
      assert.deepEqual(await storedEntries(server, `temp/.api/${userId}/`), [], 'the refused file is not kept staged');
    });

    it(`simultaneous additions at the edge of the ${MAX_FEATURE_MODELS}-models limit: one is taken, the others 409, nothing else kept`, async () => {
      const { token, id, userId } = await datasetWithOneModel();
      const metricsId = (await server.hub.db.selectFrom('data_set').innerJoin('ds_meta_data as md', 'md.id', 'data_set.ds_meta_data_id')
        .select('md.ds_metrics_id').where('data_set.id', '=', id).executeTakeFirstOrThrow()).ds_metrics_id!;
      await server.hub.db.updateTable('ds_metrics').set({ number_of_models: MAX_FEATURE_MODELS - 1 }).where('id', '=', metricsId).execute();
      const answers = await Promise.all(Array.from({ length: RACERS }, (_, i) =>
        bearer(server.baseUrl, token, 'POST', `/api/v1/datasets/${id}/files`, uvlForm(`edge-${i}.uvl`, PHONE_UVL))));
      assert.deepEqual(answers.map((a) => a.status).sort(), [201, ...Array(RACERS - 1).fill(409)], JSON.stringify(answers.map((a) => a.json)));
      const taken = answers.find((a) => a.status === 201)!.json.file_name as string;
      const files = (await bearer(server.baseUrl, token, 'GET', `/api/v1/datasets/${id}`)).json.files.map((f: { file_name: string }) => f.file_name);
      assert.deepEqual(files.sort(), [taken, 'phone.uvl'].sort());
      const count = await server.hub.db.selectFrom('ds_metrics').select('number_of_models').where('id', '=', metricsId).executeTakeFirstOrThrow();
      assert.equal(Number(count.number_of_models), MAX_FEATURE_MODELS);
      const prefix = server.hub.ctx.services.hubfile.datasetPrefix(userId, id);
      assert.deepEqual(await storedEntries(server, prefix), [taken, 'phone.uvl'].sort());
    });

    it('while a publish of the dataset runs, its files and metadata stay as the deposit reads them: 409, nothing changed; a dead claim does not stop them', async () => {
      const { token, id, userId } = await datasetWithOneModel();
      const metaId = (await server.hub.db.selectFrom('data_set').select('ds_meta_data_id').where('id', '=', id).executeTakeFirstOrThrow()).ds_meta_data_id;
      const claim = (at: string | null) => server.hub.db.updateTable('ds_meta_data').set({ deposit_claimed_at: at }).where('id', '=', metaId).execute();
      const fileId = (await bearer(server.baseUrl, token, 'GET', `/api/v1/datasets/${id}`)).json.files[0].file_id as number;
      await claim(new Date().toISOString());
      const answers = [
        await bearer(server.baseUrl, token, 'POST', `/api/v1/datasets/${id}/files`, uvlForm('during.uvl', PHONE_UVL)),
        await bearer(server.baseUrl, token, 'DELETE', `/api/v1/datasets/${id}/files/${fileId}`),
        await bearer(server.baseUrl, token, 'PUT', `/api/v1/datasets/${id}`, { name: 'Renamed during the publish' }),
      ];
      for (const answer of answers) {
        assert.equal(answer.status, 409, JSON.stringify(answer.json));
        assert.match(answer.json.message, /A publish of this dataset is under way/);
      }
      const during = (await bearer(server.baseUrl, token, 'GET', `/api/v1/datasets/${id}`)).json;
      assert.deepEqual([during.name, during.files.map((f: { file_name: string }) => f.file_name)], ['Raced', ['phone.uvl']]);
      const prefix = server.hub.ctx.services.hubfile.datasetPrefix(userId, id);
      assert.deepEqual(await storedEntries(server, prefix), ['phone.uvl']);
      // A claim past its stale time is a dead process's: changes go on (and clear it).
      await claim(new Date(Date.now() - 2 * 60 * 60 * 1000).toISOString());
      assert.equal((await bearer(server.baseUrl, token, 'POST', `/api/v1/datasets/${id}/files`, uvlForm('after.uvl', PHONE_UVL))).status, 201);
      assert.equal((await doiOf(id)).deposit_claimed_at, null);
      assert.equal((await bearer(server.baseUrl, token, 'PUT', `/api/v1/datasets/${id}`, { name: 'Renamed after' })).status, 200);
      assert.equal((await bearer(server.baseUrl, token, 'DELETE', `/api/v1/datasets/${id}/files/${fileId}`)).status, 204);
    });
  });
}
