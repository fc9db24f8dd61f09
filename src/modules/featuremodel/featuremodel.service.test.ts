// The featuremodel service of the contract, on every dialect: creation with ordered authors,
// the views the dataset pages and search results read (batched: a fixed number of queries
// whatever the number of datasets), the owning dataset, deletion with files and records.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { insertDatasetRow, userIdByEmail } from '../../../test/support/fixtures.ts';
import { nowIso } from '../../core/db/database.ts';
import { createModuleContext } from '../../core/modules.ts';
import type { NewFeatureModel } from './index.ts';

/** Counts the statements sent to the database. */
class QueryCounter implements KyselyPlugin {
  count = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.count += 1;
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

const meta = (over: Partial<NewFeatureModel> = {}): NewFeatureModel => ({
  uvl_filename: 'model.uvl', title: 'A model', description: 'Its description', publication_type: 'article',
  publication_doi: '10.1000/xyz', tags: 'alpha, beta', uvl_version: '2.0',
  authors: [{ name: 'Doe, Jane', affiliation: 'Uni', orcid: '0000-0001-2345-6789' }, { name: 'Roe, Rick', affiliation: null, orcid: null }],
  ...over,
});

for (const dialect of testDialects()) {
  describe(`featuremodel service [${dialect.name}]`, () => {
    let server: TestServer;
    let userId: number;
    const services = () => server.hub.ctx.services;
    const newDataset = (doi: string | null = null) => insertDatasetRow(server.hub.db, userId, { title: 'Featuremodel fixture', doi, createdAt: nowIso() });

    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true });
      userId = await userIdByEmail(server.hub.db, 'user1@example.com');
    });
    after(async () => server?.close());

    it('creates a feature model with its metadata and authors in order, inside the caller\'s transaction', async () => {
      const datasetId = await newDataset();
      const fmId = await server.hub.db.transaction().execute(async (trx) => {
        const id = await services().featuremodel.createFeatureModel(trx, datasetId, meta());
        await services().hubfile.createFile(trx, id, { name: 'model.uvl', checksum: 'c'.repeat(32), size: 2048 });
        return id;
      });
      const list = await services().featuremodel.listByDataset(datasetId);
      assert.equal(list.length, 1);
      const [fm] = list;
      assert.equal(fm!.id, fmId);
      assert.equal(fm!.datasetId, datasetId);
      assert.deepEqual(fm!.meta, {
        uvl_filename: 'model.uvl', title: 'A model', description: 'Its description', publication_type: 'article',
        publicationTypeLabel: 'Journal Article', publication_doi: '10.1000/xyz', tags: ['alpha', 'beta'], uvl_version: '2.0',
      });
      assert.deepEqual(fm!.authors, meta().authors);
      assert.equal(fm!.files.length, 1);
      assert.deepEqual({ ...fm!.files[0]!, id: 0 }, { id: 0, name: 'model.uvl', size: 2048, sizeHuman: '2.00 KB', checksum: 'c'.repeat(32), featureModelId: fmId, original: null, lossGroups: [], lossesOpen: true });
    });

    it('rolls back with the caller\'s transaction', async () => {
      const datasetId = await newDataset();
      await assert.rejects(server.hub.db.transaction().execute(async (trx) => {
        await services().featuremodel.createFeatureModel(trx, datasetId, meta());
        throw new Error('upload failed later');
      }), /upload failed later/);
      assert.deepEqual(await services().featuremodel.listByDataset(datasetId), []);
    });

    it('lists many datasets with a fixed number of queries, every dataset present, models in creation order', async () => {
      const datasets: number[] = [];
      for (let d = 0; d < 6; d++) {
        const datasetId = await newDataset(`10.9999/fm.${d}`);
        datasets.push(datasetId);
        for (let m = 0; m < 3; m++) {
          const fmId = await services().featuremodel.createFeatureModel(server.hub.db, datasetId, meta({ title: `d${d} m${m}`, tags: null, authors: [{ name: `Author ${m}`, affiliation: null, orcid: null }] }));
          await services().hubfile.createFile(server.hub.db, fmId, { name: `m${m}.uvl`, checksum: 'a'.repeat(32), size: 10 + m });
        }
      }
      const empty = await newDataset();
      const counter = new QueryCounter();
      const counted = createModuleContext(server.hub.ctx.config, server.hub.db.withPlugin(counter), server.hub.app.log, server.hub.modules);

      const one = await counted.services.featuremodel.listByDatasets([datasets[0]!]);
      const queriesForOne = counter.count;
      counter.count = 0;
      const all = await counted.services.featuremodel.listByDatasets([...datasets, empty]);
      assert.equal(counter.count, queriesForOne, 'no query per dataset or per model');
      assert.equal(queriesForOne, 3, 'models with metadata, authors, files');

      assert.equal(one.get(datasets[0]!)!.length, 3);
      assert.deepEqual(all.get(empty), [], 'a dataset without models is present, empty');
      for (const [d, datasetId] of datasets.entries()) {
        const models = all.get(datasetId)!;
        assert.deepEqual(models.map((m) => m.meta.title), [`d${d} m0`, `d${d} m1`, `d${d} m2`]);
        assert.deepEqual(models.map((m) => m.authors.map((a) => a.name)), [['Author 0'], ['Author 1'], ['Author 2']]);
        assert.deepEqual(models.map((m) => m.files.map((f) => f.name)), [['m0.uvl'], ['m1.uvl'], ['m2.uvl']]);
        assert.deepEqual(models[0]!.meta.tags, [], 'null tags are an empty list');
      }
      counter.count = 0;
      assert.equal((await counted.services.featuremodel.listByDatasets([])).size, 0);
      assert.equal(counter.count, 0, 'nothing asked, nothing queried');
    });

    it('resolves the owning dataset through the dataset service', async () => {
      const datasetId = await newDataset('10.9999/fm.ref');
      const fmId = await services().featuremodel.createFeatureModel(server.hub.db, datasetId, meta());
      assert.deepEqual(await services().featuremodel.getDatasetRef(fmId), { datasetId, userId, doi: '10.9999/fm.ref' });
      assert.equal(await services().featuremodel.getDatasetRef(987654), undefined);
    });

    it('deletes a dataset\'s feature models with metadata, authors, files and file records, and nothing else', async () => {
      const keep = await newDataset();
      const keptFm = await services().featuremodel.createFeatureModel(server.hub.db, keep, meta());
      const keptFile = await services().hubfile.createFile(server.hub.db, keptFm, { name: 'keep.uvl', checksum: 'k'.repeat(32), size: 1 });
      const gone = await newDataset();
      const fmIds: number[] = [];
      const fileIds: number[] = [];
      for (let m = 0; m < 2; m++) {
        const fmId = await services().featuremodel.createFeatureModel(server.hub.db, gone, meta());
        fmIds.push(fmId);
        fileIds.push(await services().hubfile.createFile(server.hub.db, fmId, { name: `g${m}.uvl`, checksum: 'g'.repeat(32), size: 1 }));
      }
      for (const fileId of [...fileIds, keptFile]) {
        await services().hubfile.recordView(fileId, null, 'cookie-0001');
        await services().hubfile.recordDownload(fileId, userId, 'cookie-0001');
      }
      const metaIds = (await server.hub.db.selectFrom('feature_model').select('fm_meta_data_id').where('data_set_id', '=', gone).execute()).map((r) => r.fm_meta_data_id);
      const modelsBefore = await services().featuremodel.countAll();

      await server.hub.db.transaction().execute((trx) => services().featuremodel.deleteByDataset(trx, gone));

      const db = server.hub.db;
      assert.deepEqual(await services().featuremodel.listByDataset(gone), []);
      assert.equal(await services().featuremodel.countAll(), modelsBefore - 2);
      assert.equal((await db.selectFrom('fm_meta_data').select('id').where('id', 'in', metaIds).execute()).length, 0);
      assert.equal((await db.selectFrom('author').select('id').where('fm_meta_data_id', 'in', metaIds).execute()).length, 0);
      assert.equal((await db.selectFrom('file').select('id').where('id', 'in', fileIds).execute()).length, 0);
      assert.equal((await db.selectFrom('file_view_record').select('id').where('file_id', 'in', fileIds).execute()).length, 0);
      assert.equal((await db.selectFrom('file_download_record').select('id').where('file_id', 'in', fileIds).execute()).length, 0);
      assert.equal((await services().featuremodel.listByDataset(keep))[0]!.files[0]!.id, keptFile, 'the other dataset is untouched');
      assert.deepEqual(await services().hubfile.countsForFile(keptFile), { views: 1, downloads: 1 });
      await server.hub.db.transaction().execute((trx) => services().featuremodel.deleteByDataset(trx, gone));
    });

    it('counts every feature model', async () => {
      const before = await services().featuremodel.countAll();
      const datasetId = await newDataset();
      await services().featuremodel.createFeatureModel(server.hub.db, datasetId, meta());
      assert.equal(await services().featuremodel.countAll(), before + 1);
      assert.equal(await services().featuremodel.hasData(), true);
    });
  });
}
