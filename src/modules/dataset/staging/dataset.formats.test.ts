// Models in other formats on upload (issue 27, extensions section 7): FeatureIDE XML, SPLOT SXFM
// and Glencoe JSON converted to UVL when staged, the original kept beside the model (download,
// zip, file metadata), the loss report in the staging answer and on the pages, bad files refused
// with line-numbered errors and nothing kept; the same through the API.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testDialects } from '../../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { bearer, createToken } from '../../../../test/support/api.ts';
import { storedEntries, storedText } from '../../../../test/support/stored.ts';
import { readModelFile } from '../../../../packages/uvl/src/index.ts';
import { download, newUser, stage, unzip, uploadForm } from '../dataset.test-support.ts';
import { SANDWICH, SANDWICH_PARTS } from '../../../../test/support/sandwich.ts';

const FIXTURES = join(import.meta.dirname, '../../../../packages/uvl/src/formats/fixtures');
const fixture = (name: string) => readFileSync(join(FIXTURES, name));


/** Each format, under the name it is uploaded with, and the format the hub must see. */
const UPLOADS = [
  { file: 'car.featureide.xml', as: 'car.xml', format: 'featureide' },
  { file: 'shop.extended.xml', as: 'shop.xml', format: 'featureide' },
  { file: 'phone.sxfm', as: 'phone.sxfm', format: 'sxfm' },
  { file: 'phone.sxfm', as: 'splot.xml', format: 'sxfm' },
  { file: 'editor.glencoe.json', as: 'editor.json', format: 'glencoe' },
] as const;

const BAD_FEATUREIDE = '<?xml version="1.0"?>\n<featureModel>\n<struct>\n<and name="A">\n</struct>\n</featureModel>\n';
const BAD_GLENCOE = '{"id": "x",\n "features": [}\n';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

for (const dialect of testDialects()) {
  describe(`models in other formats on upload [${dialect.name}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: false });
    });
    after(async () => { await server?.close(); });

    const stagingFolder = (userId: number) => `temp/${userId}/`;
    const everythingStaged = async (userId: number) => (await server.hub.ctx.store.list(stagingFolder(userId))).map((o) => o.key.slice(stagingFolder(userId).length)).sort();

    it('stages each format as <stem>.uvl with its original, format and loss report; the page saves both and shows the losses', async () => {
      const { client, userId } = await newUser(server);
      for (const upload of UPLOADS) {
        const bytes = fixture(upload.file);
        const expected = readModelFile(upload.file, bytes);
        const res = await stage(client, upload.as, bytes);
        assert.equal(res.status, 200, `${upload.as}: ${JSON.stringify(res.json)}`);
        const stem = upload.as.replace(/\.[^.]+$/, '');
        assert.equal(res.json.filename, `${stem}.uvl`);
        assert.equal(res.json.valid, true, upload.as);
        assert.equal(res.json.format, upload.format);
        assert.equal(res.json.original, upload.as);
        assert.deepEqual(res.json.losses, expected.losses);
        assert.equal(await storedText(server, `${stagingFolder(userId)}${stem}.uvl`), expected.uvl, 'the staged model is the converted UVL');
      }
      assert.deepEqual(await storedEntries(server, stagingFolder(userId)), ['.originals', 'car.uvl', 'editor.uvl', 'phone.uvl', 'shop.uvl', 'splot.uvl']);
      // The page opened again lists the staged files with their loss reports.
      const page = await client.get('/dataset/upload');
      assert.match(page.text, /car\.xml/);

      const names = UPLOADS.map((u) => `${u.as.replace(/\.[^.]+$/, '')}.uvl`);
      const saved = await client.post('/dataset/upload', { form: uploadForm(names) });
      assert.equal(saved.status, 200, JSON.stringify(saved.json));
      const datasetId = saved.json.dataset_id as number;
      assert.deepEqual(await everythingStaged(userId), [], 'the staged models and originals are gone once saved');

      const rows = await server.hub.db.selectFrom('file').innerJoin('feature_model', 'feature_model.id', 'file.feature_model_id')
        .select(['file.id', 'file.name', 'file.original_name', 'file.original_format', 'file.original_size', 'file.original_sha256', 'file.conversion_losses'])
        .where('feature_model.data_set_id', '=', datasetId).orderBy('file.id').execute();
      assert.equal(rows.length, UPLOADS.length);
      const prefix = server.hub.ctx.services.hubfile.datasetPrefix(userId, datasetId);
      for (const [i, upload] of UPLOADS.entries()) {
        const row = rows[i]!;
        const bytes = fixture(upload.file);
        assert.equal(row.original_name, upload.as);
        assert.equal(row.original_format, upload.format);
        assert.equal(Number(row.original_size), bytes.length);
        assert.equal(row.original_sha256, sha256(bytes));
        assert.deepEqual(JSON.parse(row.conversion_losses!), readModelFile(upload.file, bytes).losses);
        assert.equal(await storedText(server, `${prefix}${row.name}`), readModelFile(upload.file, bytes).uvl);
        const original = await download(client, `/file/original/${row.id}`);
        assert.equal(original.status, 200);
        assert.ok(original.bytes.equals(bytes), `${upload.as}: the original is downloadable with the same bytes`);
        assert.match(original.headers.get('content-disposition') ?? '', new RegExp(upload.as.replace('.', '\\.')));
      }

      const zip = await download(client, `/dataset/download/${datasetId}`);
      assert.equal(zip.status, 200);
      const entries = await unzip(zip.bytes);
      for (const upload of UPLOADS) {
        const stem = upload.as.replace(/\.[^.]+$/, '');
        assert.equal(entries.get(`dataset_${datasetId}/${upload.as}`), fixture(upload.file).toString('utf8'), `${upload.as} in the zip`);
        assert.ok(entries.has(`dataset_${datasetId}/${stem}.uvl`));
      }

      // The DOI page row and the model page list the loss report.
      const doiPath = new URL(saved.json.url).pathname;
      const doiPage = await client.get(doiPath.endsWith('/') ? doiPath : `${doiPath}/`);
      assert.equal(doiPage.status, 200);
      const carLosses = readModelFile('car.xml', fixture('car.featureide.xml')).losses;
      assert.match(doiPage.text, /Converted to UVL from FeatureIDE XML/);
      assert.ok(doiPage.text.includes(`/file/original/${rows[0]!.id}`));
      assert.ok(doiPage.text.includes('feature `Maps.v2` renamed to `Maps_v2`'), 'a loss of car.xml on the DOI page');
      const modelPage = await client.get(`/model/${rows[0]!.id}/`);
      assert.equal(modelPage.status, 200);
      assert.match(modelPage.text, new RegExp(`${carLosses.length} things could not be carried over`));
      assert.ok(modelPage.text.includes('&lt;comments&gt; dropped'), 'a loss of car.xml on the model page');
      assert.match(modelPage.text, /\/modeltool\/download\/featureide\//);
    });

    it('groups a long loss report by kind with counts, collapsed, after the facts on the model page (Sandwich from FeatureIDE: 24 lines before)', async () => {
      const { client } = await newUser(server);
      await stage(client, 'sandwich.xml', SANDWICH);
      const saved = await client.post('/dataset/upload', { form: uploadForm(['sandwich.uvl']) });
      assert.equal(saved.status, 200, JSON.stringify(saved.json));
      const { id } = await server.hub.db.selectFrom('file').innerJoin('feature_model', 'feature_model.id', 'file.feature_model_id')
        .select(['file.id']).where('feature_model.data_set_id', '=', saved.json.dataset_id).executeTakeFirstOrThrow();
      const page = (await client.get(`/model/${id}/`)).text;
      const facts = page.indexOf('id="fact-label"');
      const report = page.indexOf('id="conversion"');
      assert.ok(facts > 0 && report > facts, 'the loss report comes after the facts');
      assert.ok(page.indexOf('conversion-report') > facts, 'and nowhere above them');
      const section = page.slice(report, page.indexOf('</section>', report));
      assert.match(section, /<details class="conversion-losses-details">\s*<summary class="losses-summary">24 things could not be carried over \(3 kinds\)<\/summary>/, 'collapsed');
      const kinds = [...section.matchAll(/<li class="loss-kind" data-count="(\d+)">([\s\S]*?)<\/li>/g)].map((m) => [m[1], m[2]!.replace(/<[^>]+>/g, '')]);
      assert.deepEqual(kinds, [
        ['8', `8 × unit \`kcal\` of attribute \`Calories\` of \`…\` dropped: UVL attributes have no unit: ${SANDWICH_PARTS.join(', ')}`],
        ['8', `8 × unit \`EUR\` of attribute \`Price\` of \`…\` dropped: UVL attributes have no unit: ${SANDWICH_PARTS.join(', ')}`],
        ['8', `8 × attribute \`Calories\` of \`…\` is configurable in FeatureIDE (set per configuration): kept with its value in the model: ${SANDWICH_PARTS.join(', ')}`],
      ]);
      // A short report stays open (car.xml: 4 losses), on the model page and the DOI page alike.
      await stage(client, 'car.xml', fixture('car.featureide.xml'));
      const car = await client.post('/dataset/upload', { form: uploadForm(['car.uvl']) });
      const doiPath = new URL(car.json.url).pathname;
      assert.match((await client.get(doiPath.endsWith('/') ? doiPath : `${doiPath}/`)).text, /<details class="conversion-losses-details" open>/);
      assert.match((await client.get(`/doi/${saved.json.doi}/`)).text, /<details class="conversion-losses-details">\s*<summary class="losses-summary">24 things/);
    });

    it('exports the model page as FeatureIDE XML (<stem>.xml) with its loss list, and reads back to the same model', async () => {
      const { client } = await newUser(server);
      await stage(client, 'roundtrip.json', fixture('editor.glencoe.json'));
      const saved = await client.post('/dataset/upload', { form: uploadForm(['roundtrip.uvl']) });
      assert.equal(saved.status, 200);
      const file = await server.hub.db.selectFrom('file').innerJoin('feature_model', 'feature_model.id', 'file.feature_model_id')
        .select(['file.id']).where('feature_model.data_set_id', '=', saved.json.dataset_id).executeTakeFirstOrThrow();
      const exported = await download(client, `/modeltool/download/featureide/${file.id}`);
      assert.equal(exported.status, 200);
      assert.match(exported.headers.get('content-disposition') ?? '', /roundtrip\.xml/);
      const back = readModelFile('roundtrip.xml', exported.bytes);
      assert.deepEqual(back.errors, []);
      assert.equal(back.format, 'featureide');
      const specified = await client.get(`/modeltool/to_featureide/${file.id}`);
      assert.equal(specified.status, 200);
      const modelPage = await client.get(`/model/${file.id}/`);
      assert.match(modelPage.text, /id="featureide-export"/);
      assert.match(modelPage.text, /FeatureIDE export: (nothing is lost|\d+ things? cannot be carried over)/);
    });

    it('stages a converted model under <stem> (n).uvl when <stem>.uvl is staged, its original under the same stem; removing it removes both', async () => {
      const { client, userId } = await newUser(server);
      assert.equal((await stage(client, 'car.xml', fixture('car.featureide.xml'))).json.filename, 'car.uvl');
      const second = await stage(client, 'car.xml', fixture('car.featureide.xml'));
      assert.equal(second.json.filename, 'car (1).uvl');
      assert.equal(second.json.original, 'car (1).xml');
      const removed = await client.post('/dataset/file/delete', { json: { file: 'car (1).uvl' } });
      assert.equal(removed.status, 200);
      assert.deepEqual(await everythingStaged(userId), ['.originals/car.uvl/car.xml', 'car.uvl']);
    });

    it('refuses a file that does not convert with its format\'s line-numbered errors, keeping nothing', async () => {
      const { client, userId } = await newUser(server);
      const cases = [
        { name: 'bad.xml', content: BAD_FEATUREIDE, format: /FeatureIDE/, line: /^Line 5:\d+ - / },
        { name: 'bad.json', content: BAD_GLENCOE, format: /Glencoe/, line: /^Line \d+:\d+ - not valid JSON/ },
        { name: 'bad.sxfm', content: '<feature_model name="x">\n<feature_tree>\n:m Orphan (_a)\n</feature_tree>\n</feature_model>\n', format: /SPLOT SXFM/, line: /^Line \d+:\d+ - / },
        { name: 'other.xml', content: '<?xml version="1.0"?>\n<project/>\n', format: /format the hub reads/, line: /^Line 2:0 - .*<project>/ },
        // The bad value named, not "the converted model does not parse as UVL".
        {
          name: 'negative.json', format: /Glencoe/, line: /^Line 3:\d+ - feature 'r' \(GENOR\) has min -5: a group's min must be a whole number, 0 or more$/,
          content: JSON.stringify({ features: { r: { name: 'Root', type: 'GENOR', min: -5, max: 2 }, a: { name: 'A' } }, tree: { id: 'r', children: [{ id: 'a' }] } }, null, 2),
        },
      ];
      for (const bad of cases) {
        const res = await stage(client, bad.name, bad.content);
        assert.equal(res.status, 400, bad.name);
        assert.match(res.json.message, bad.format, bad.name);
        assert.ok(res.json.errors.length > 0, bad.name);
        assert.match(res.json.errors[0], bad.line, `${bad.name}: ${res.json.errors[0]}`);
      }
      assert.deepEqual(await everythingStaged(userId), [], 'nothing is kept of a refused file');
    });

    it('the API takes the formats too: 201 with original and losses, the original downloadable, bad files 400 with errors, a taken name 409', async () => {
      const { client, userId } = await newUser(server);
      const token = await createToken(client, ['write']);
      const api = (method: string, path: string, body?: unknown) => bearer(server.baseUrl, token, method, path, body);
      const created = await api('POST', '/api/v1/datasets/', { name: 'Converted', description: 'From FeatureIDE' });
      assert.equal(created.status, 201);
      const id = created.json.id;
      const form = (name: string, content: Buffer | string) => {
        const data = new FormData();
        data.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), name);
        return data;
      };
      const bytes = fixture('shop.extended.xml');
      const added = await api('POST', `/api/v1/datasets/${id}/files`, form('shop.xml', bytes));
      assert.equal(added.status, 201, JSON.stringify(added.json));
      assert.equal(added.json.file_name, 'shop.uvl');
      assert.equal(added.json.original.name, 'shop.xml');
      assert.equal(added.json.original.format, 'featureide');
      assert.equal(added.json.original.size, bytes.length);
      assert.equal(added.json.original.sha256, sha256(bytes));
      assert.deepEqual(added.json.losses, readModelFile('shop.xml', bytes).losses);
      const read = await api('GET', `/api/v1/files/${added.json.file_id}`);
      assert.equal(read.status, 200);
      assert.deepEqual(read.json.losses, added.json.losses);
      const original = await download(client, `/file/original/${added.json.file_id}`);
      assert.ok(original.bytes.equals(bytes));

      const taken = await api('POST', `/api/v1/datasets/${id}/files`, form('shop.json', fixture('editor.glencoe.json')));
      assert.equal(taken.status, 409, 'the dataset holds shop.uvl already');
      const bad = await api('POST', `/api/v1/datasets/${id}/files`, form('bad.xml', BAD_FEATUREIDE));
      assert.equal(bad.status, 400);
      assert.match(bad.json.errors[0], /^Line 5:\d+ - /);
      assert.deepEqual(await storedEntries(server, `temp/.api/${userId}/`), [], 'nothing is left in the API\'s staging area');
      const prefix = server.hub.ctx.services.hubfile.datasetPrefix(userId, id);
      assert.deepEqual(await storedEntries(server, prefix), ['shop.uvl', 'shop.xml']);

      const removed = await api('DELETE', `/api/v1/datasets/${id}/files/${added.json.file_id}`);
      assert.equal(removed.status, 204);
      assert.deepEqual(await storedEntries(server, prefix), [], 'removing the model removes its original');
    });
  });
}
