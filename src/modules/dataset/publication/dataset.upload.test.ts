// POST /dataset/upload over HTTP (specification, States; decisions section 4): validation,
// one transaction for rows and files, the default author, metrics, and the push to the deposit
// repository: the built-in fake, a Zenodo-speaking server, and its failures (partial).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testDialects } from '../../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { TestClient } from '../../../../test/support/client.ts';
import { storedEntries, storedText } from '../../../../test/support/stored.ts';
import { useHubWithFakeZenodo, type FakeZenodo } from '../../../../test/support/fake-zenodo.ts';
import { INVALID_UVL, VALID_UVL, count, modeltool, newUser, stage, uploadForm } from '../dataset.test-support.ts';
import { STALE_CLAIM_MS } from '../staging/staging.ts';

const SECOND_UVL = `features
    Car
        optional
            Radio
            Navigation
`;

const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const folderOf = (server: TestServer, userId: number, datasetId: number) => server.hub.ctx.services.hubfile.datasetPrefix(userId, datasetId);

for (const dialect of testDialects()) {
  describe(`dataset upload over HTTP [${dialect.name}]`, () => {
    let server: TestServer;
    const saved: number[] = [];
    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true });
      server.hub.ctx.events.on('dataset.saved', ({ datasetId }: { datasetId: number }) => { saved.push(datasetId); });
    });
    after(async () => { await server?.close(); });

    // Read through the store, so that the same checks hold on the uploads folder and on S3.
    const stagingListing = (userId: number) => storedEntries(server, `temp/${userId}/`);

    it('shows the upload form only to logged-in users', async () => {
      const anonymous = new TestClient(server.baseUrl);
      const page = await anonymous.get('/dataset/upload');
      assert.equal(page.status, 302);
      assert.equal(page.location, '/login?next=%2Fdataset%2Fupload');
      const post = await anonymous.post('/dataset/upload', { form: uploadForm(['a.uvl']), csrf: false });
      assert.equal(post.status, 302);
      assert.equal(post.location, '/login');
      const { client } = await newUser(server);
      const form = await client.get('/dataset/upload');
      assert.equal(form.status, 200);
      for (const name of ['title', 'desc', 'publication_type', 'publication_doi', 'tags']) assert.match(form.text, new RegExp(`name="${name}"`));
      for (const label of ['Journal Article', 'Data Management Plan', 'Taxonomic Treatment', 'Working Paper']) assert.match(form.text, new RegExp(`>${label}<`));
      assert.match(form.text, /id="drop-zone"/);
      assert.match(form.text, /type="file" id="file-input" accept="\.uvl,\.xml,\.sxfm,\.json" multiple/);
      assert.match(form.text, /<script src="\/dataset\/js\/upload\.js" defer><\/script>/);
      assert.doesNotMatch(form.text, /<script>(?!<\/script>)/, 'no inline script');
      const script = await client.get('/dataset/js/upload.js');
      assert.equal(script.status, 200);
      assert.match(script.text, /upload\.addEventListener\('progress'/);
    });

    it('refuses a submission without the CSRF token and saves nothing', async () => {
      const { client } = await newUser(server);
      await stage(client, 'a.uvl', VALID_UVL);
      const before = await count(server, 'data_set');
      const res = await client.post('/dataset/upload', { form: uploadForm(['a.uvl']), csrf: false });
      assert.equal(res.status, 400);
      assert.equal(await count(server, 'data_set'), before);
    });

    it('answers 400 {errors: {field: [...]}} for every invalid field, persists nothing and keeps the staged files', async () => {
      const { client, userId } = await newUser(server);
      await stage(client, 'a.uvl', VALID_UVL);
      const before = await Promise.all([count(server, 'data_set'), count(server, 'ds_meta_data'), count(server, 'author'), count(server, 'file')]);
      const res = await client.post('/dataset/upload', {
        form: {
          title: ' ', desc: '', publication_type: 'novel', publication_doi: 'not a doi', tags: 'x',
          'authors-0-name': 'Someone', 'authors-0-orcid': '1234-5678',
          'authors-1-affiliation': 'Nameless University',
          'feature_models-0-uvl_filename': 'a.uvl', 'feature_models-0-publication_type': 'bogus',
          'feature_models-0-publication_doi': 'doi?', 'feature_models-0-authors-0-name': 'Mo', 'feature_models-0-authors-0-orcid': 'x',
        },
      });
      assert.equal(res.status, 400);
      assert.deepEqual(Object.keys(res.json.errors).sort(), [
        'authors-0-orcid', 'authors-1-name', 'desc', 'feature_models-0-authors-0-orcid', 'feature_models-0-publication_doi',
        'feature_models-0-publication_type', 'publication_doi', 'publication_type', 'title',
      ]);
      for (const messages of Object.values(res.json.errors)) assert.ok(Array.isArray(messages) && messages.length > 0);
      assert.deepEqual(await Promise.all([count(server, 'data_set'), count(server, 'ds_meta_data'), count(server, 'author'), count(server, 'file')]), before);
      assert.deepEqual(await stagingListing(userId), ['a.uvl']);
    });

    it('refuses a NUL or other control character in any text field with a field error (PostgreSQL cannot store U+0000), not a 500', async () => {
      const { client, userId } = await newUser(server);
      await stage(client, 'a.uvl', VALID_UVL);
      const before = await count(server, 'data_set');
      const fields = {
        title: 'a\u0000b', desc: 'x\u0000y', tags: 't\u0000u', publication_doi: '10.1234/a\u0000b',
        'authors-0-name': 'N\u0000', 'authors-0-affiliation': 'A\u0007',
        'feature_models-0-title': 'T\u0000', 'feature_models-0-desc': 'D\u0000', 'feature_models-0-tags': 'g\u0000',
        'feature_models-0-version': 'v\u0000', 'feature_models-0-publication_doi': '10.1234/\u0000',
        'feature_models-0-authors-0-name': 'M\u0000', 'feature_models-0-authors-0-affiliation': 'B\u0000',
      };
      const res = await client.post('/dataset/upload', { form: uploadForm(['a.uvl'], fields) });
      assert.equal(res.status, 400);
      assert.deepEqual(Object.keys(res.json.errors).sort(), Object.keys(fields).sort());
      assert.equal(await count(server, 'data_set'), before);
      assert.deepEqual(await stagingListing(userId), ['a.uvl']);
      // Line breaks and tabs stay text in a description.
      const ok = await client.post('/dataset/upload', { form: uploadForm(['a.uvl'], { desc: 'line one\r\n\tline two', 'feature_models-0-desc': 'a\nb' }) });
      assert.equal(ok.status, 200, ok.text);
    });

    it('counts author names and affiliations in characters like the title (255 emoji fit, 256 do not)', async () => {
      const { client } = await newUser(server);
      await stage(client, 'emoji.uvl', VALID_UVL);
      const long = { 'authors-0-name': '😀'.repeat(256), 'authors-0-affiliation': '😀'.repeat(256), 'feature_models-0-authors-0-name': '😀'.repeat(256) };
      const refused = await client.post('/dataset/upload', { form: uploadForm(['emoji.uvl'], long) });
      assert.equal(refused.status, 400);
      assert.deepEqual(Object.keys(refused.json.errors).sort(), Object.keys(long).sort());
      const fits = { 'authors-0-name': '😀'.repeat(255), 'authors-0-affiliation': '😀'.repeat(255), 'feature_models-0-authors-0-name': '😀'.repeat(255) };
      const res = await client.post('/dataset/upload', { form: uploadForm(['emoji.uvl'], fits) });
      assert.equal(res.status, 200, res.text);
    });

    it('needs at least one feature model, at most 200, each staged by this user and listed once', async () => {
      const { client } = await newUser(server);
      const none = await client.post('/dataset/upload', { form: uploadForm([]) });
      assert.equal(none.status, 400);
      assert.ok(none.json.errors.feature_models);
      const many = await client.post('/dataset/upload', { form: uploadForm(Array.from({ length: 201 }, (_, i) => `m${i}.uvl`)) });
      assert.equal(many.status, 400);
      assert.match(many.json.errors.feature_models.join(' '), /200/);
      const other = await newUser(server, 'Other');
      await stage(other.client, 'theirs.uvl', VALID_UVL);
      const notStaged = await client.post('/dataset/upload', { form: uploadForm(['theirs.uvl']) });
      assert.equal(notStaged.status, 400);
      assert.ok(notStaged.json.errors['feature_models-0-uvl_filename']);
      const traversal = await client.post('/dataset/upload', { form: uploadForm([`../${other.userId}/theirs.uvl`]) });
      assert.equal(traversal.status, 400);
      await stage(client, 'twice.uvl', VALID_UVL);
      const twice = await client.post('/dataset/upload', { form: uploadForm(['twice.uvl', 'twice.uvl']) });
      assert.equal(twice.status, 400);
      assert.ok(twice.json.errors['feature_models-1-uvl_filename']);
    });

    it('refuses models with syntax errors: 400 with the errors of each file, nothing persisted', async () => {
      const { client, userId } = await newUser(server);
      await stage(client, 'good.uvl', VALID_UVL);
      await stage(client, 'bad.uvl', INVALID_UVL);
      const before = await count(server, 'data_set');
      const res = await client.post('/dataset/upload', { form: uploadForm(['good.uvl', 'bad.uvl']) });
      assert.equal(res.status, 400);
      assert.deepEqual(Object.keys(res.json.errors), ['feature_models-1-uvl_filename']);
      for (const error of res.json.errors['feature_models-1-uvl_filename']) assert.match(error, /bad\.uvl: Line \d+:\d+ - /);
      assert.equal(await count(server, 'data_set'), before);
      assert.deepEqual(await stagingListing(userId), ['bad.uvl', 'good.uvl']);
    });

    it('saves rows and files together, defaults the first author to the profile, pushes to the built-in fake', async () => {
      const { client, userId } = await newUser(server, 'Uploader');
      await stage(client, 'phone.uvl', VALID_UVL);
      await stage(client, 'phone.uvl', SECOND_UVL); // stored as "phone (1).uvl"
      saved.length = 0;
      const res = await client.post('/dataset/upload', {
        form: {
          ...uploadForm(['phone.uvl', 'phone (1).uvl']),
          title: 'Phones', desc: 'Two phone models', publication_type: 'article', publication_doi: '10.1000/paper.1',
          tags: ' mobile, , hardware ,',
          'feature_models-0-title': 'Phone', 'feature_models-0-desc': 'A phone', 'feature_models-0-tags': 'a,b',
          'feature_models-0-version': '2.0', 'feature_models-0-publication_type': 'thesis',
          'feature_models-0-authors-0-name': 'Model Author', 'feature_models-0-authors-0-orcid': '0000-0002-1825-009X',
        },
      });
      assert.equal(res.status, 200);
      const id = res.json.dataset_id;
      assert.deepEqual(res.json, { status: 'ok', dataset_id: id, doi: `10.1234/fakenodo.${id}`, url: `http://localhost:5000/doi/10.1234/fakenodo.${id}` });
      const db = server.hub.db;
      const row = await db.selectFrom('data_set').innerJoin('ds_meta_data', 'ds_meta_data.id', 'data_set.ds_meta_data_id')
        .innerJoin('ds_metrics', 'ds_metrics.id', 'ds_meta_data.ds_metrics_id').selectAll().where('data_set.id', '=', id).executeTakeFirstOrThrow();
      assert.equal(row.user_id, userId);
      assert.equal(row.title, 'Phones');
      assert.equal(row.publication_type, 'article');
      assert.equal(row.publication_doi, '10.1000/paper.1');
      assert.equal(row.tags, 'mobile, hardware', 'tags trimmed, empty ones dropped');
      assert.equal(row.dataset_doi, `10.1234/fakenodo.${id}`);
      assert.equal(Number(row.deposition_id), id);
      assert.equal(row.number_of_models, 2);
      const features = modeltool(server).countFeatures(VALID_UVL) + modeltool(server).countFeatures(SECOND_UVL);
      assert.equal(row.number_of_features, features);
      assert.ok(features > 0);
      const authors = await db.selectFrom('author').select(['name', 'affiliation', 'orcid']).where('ds_meta_data_id', '=', row.ds_meta_data_id).execute();
      assert.deepEqual(authors, [{ name: 'Tester, Uploader', affiliation: null, orcid: null }]);
      const fms = await db.selectFrom('feature_model').innerJoin('fm_meta_data', 'fm_meta_data.id', 'feature_model.fm_meta_data_id')
        .selectAll('fm_meta_data').where('data_set_id', '=', id).orderBy('feature_model.id').execute();
      assert.deepEqual(fms.map((f) => [f.uvl_filename, f.title, f.publication_type, f.tags, f.uvl_version]), [
        ['phone.uvl', 'Phone', 'thesis', 'a, b', '2.0'],
        ['phone (1).uvl', 'phone (1)', 'none', null, null],
      ]);
      const fmAuthors = await db.selectFrom('author').select(['name', 'orcid']).where('fm_meta_data_id', '=', fms[0]!.id).execute();
      assert.deepEqual(fmAuthors, [{ name: 'Model Author', orcid: '0000-0002-1825-009X' }]);
      const files = await db.selectFrom('file').innerJoin('feature_model', 'feature_model.id', 'file.feature_model_id')
        .select(['file.name', 'file.checksum', 'file.size']).where('feature_model.data_set_id', '=', id).orderBy('file.id').execute();
      assert.deepEqual(files.map((f) => [f.name, f.checksum, Number(f.size)]), [
        ['phone.uvl', md5(VALID_UVL), Buffer.byteLength(VALID_UVL)],
        ['phone (1).uvl', md5(SECOND_UVL), Buffer.byteLength(SECOND_UVL)],
      ]);
      const folder = folderOf(server, userId, id);
      assert.deepEqual(await storedEntries(server, folder), ['phone (1).uvl', 'phone.uvl'], 'final names only, no temporary copies');
      assert.equal(await storedText(server, `${folder}phone (1).uvl`), SECOND_UVL);
      // On the uploads folder the keys are the layout of the original: user_<id>/dataset_<id>/<name>.
      if (server.hub.ctx.store.kind === 'local') {
        assert.equal(readFileSync(join(server.workingDir, 'uploads', `user_${userId}`, `dataset_${id}`, 'phone (1).uvl'), 'utf8'), SECOND_UVL);
      }
      assert.deepEqual(await stagingListing(userId), [], 'the staged files are gone');
      assert.ok(saved.includes(id), 'dataset.saved was emitted');
      const page = await client.get(`/doi/10.1234/fakenodo.${id}/`);
      assert.equal(page.status, 200);
      assert.match(page.text, /Phones/);
      assert.doesNotMatch(page.text, /id="zenodo-url"/, 'the fake deposit has no record page to link');
    });

    it('takes the authors given, in order, instead of the profile', async () => {
      const { client } = await newUser(server);
      await stage(client, 'a.uvl', VALID_UVL);
      const res = await client.post('/dataset/upload', {
        form: {
          ...uploadForm(['a.uvl']),
          'authors-3-name': 'Second, Ann', 'authors-0-name': 'First, Bob', 'authors-0-affiliation': 'Lab', 'authors-0-orcid': '0000-0001-2345-6789',
          'authors-1-name': '', 'authors-1-affiliation': '', 'authors-1-orcid': '',
        },
      });
      assert.equal(res.status, 200);
      const metaId = (await server.hub.db.selectFrom('data_set').select('ds_meta_data_id').where('id', '=', res.json.dataset_id).executeTakeFirstOrThrow()).ds_meta_data_id;
      const authors = await server.hub.db.selectFrom('author').select(['name', 'affiliation', 'orcid']).where('ds_meta_data_id', '=', metaId).orderBy('position').execute();
      assert.deepEqual(authors, [
        { name: 'First, Bob', affiliation: 'Lab', orcid: '0000-0001-2345-6789' },
        { name: 'Second, Ann', affiliation: null, orcid: null },
      ]);
    });

    it('accepts the form as multipart too (CSRF in the header)', async () => {
      const { client } = await newUser(server);
      await stage(client, 'multi.uvl', VALID_UVL);
      const form = new FormData();
      for (const [k, v] of Object.entries(uploadForm(['multi.uvl'], { title: 'Multipart' }))) form.append(k, v);
      const res = await client.post('/dataset/upload', { body: form });
      assert.equal(res.status, 200);
      assert.equal(res.json.status, 'ok');
    });

    it('accepts a multipart form of over 1000 fields (three models, 100 authors each): the form\'s own limits apply, not the parser\'s default', async () => {
      const { client } = await newUser(server);
      const names = ['wide0.uvl', 'wide1.uvl', 'wide2.uvl'];
      for (const name of names) await stage(client, name, VALID_UVL);
      const fields = uploadForm(names, { title: 'Many authors' });
      for (let i = 0; i < 100; i++) {
        Object.assign(fields, { [`authors-${i}-name`]: `Author ${i}`, [`authors-${i}-affiliation`]: 'Lab', [`authors-${i}-orcid`]: '' });
        for (let j = 0; j < names.length; j++) {
          Object.assign(fields, { [`feature_models-${j}-authors-${i}-name`]: `Author ${i}`, [`feature_models-${j}-authors-${i}-affiliation`]: 'Lab', [`feature_models-${j}-authors-${i}-orcid`]: '' });
        }
      }
      assert.ok(Object.keys(fields).length > 1000);
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      const res = await client.post('/dataset/upload', { body: form });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.status, 'ok');
    });

    it('accepts the multipart form with the CSRF token as its field csrf_token; a wrong one is 400 and publishes nothing', async () => {
      const { client } = await newUser(server);
      await stage(client, 'fieldtoken.uvl', VALID_UVL);
      const post = (token: string) => {
        const form = new FormData();
        form.append('csrf_token', token);
        for (const [k, v] of Object.entries(uploadForm(['fieldtoken.uvl'], { title: 'Field token' }))) form.append(k, v);
        return client.post('/dataset/upload', { body: form, csrf: false });
      };
      const before = await count(server, 'data_set');
      assert.equal((await post('wrong')).status, 400);
      assert.equal(await count(server, 'data_set'), before);
      const res = await post(client.csrfToken!);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.status, 'ok');
    });

    it('gives staged files to one of several concurrent submits; the others get 400 naming them, nothing half-written', async () => {
      const { client, userId } = await newUser(server);
      await stage(client, 'first.uvl', VALID_UVL);
      await stage(client, 'second.uvl', SECOND_UVL);
      const before = await Promise.all([count(server, 'data_set'), count(server, 'feature_model'), count(server, 'file')]);
      // The same files, listed in both orders: whatever the order, one submit gets them all.
      const forms = [['first.uvl', 'second.uvl'], ['second.uvl', 'first.uvl'], ['first.uvl', 'second.uvl'], ['second.uvl', 'first.uvl']];
      const answers = await Promise.all(forms.map((files) => client.post('/dataset/upload', { form: uploadForm(files, { title: 'Submitted twice' }) })));
      const ok = answers.filter((r) => r.status === 200);
      assert.equal(ok.length, 1, `one submit wins: ${answers.map((r) => r.status).join(', ')}`);
      assert.equal(answers.filter((r) => r.status === 400).length, 3);
      answers.forEach((r, i) => {
        if (r.status !== 400) return;
        // The loser names the files the winner had already taken when it looked: at least the first taken.
        const fields = Object.keys(r.json.errors);
        const firstField = `feature_models-${forms[i]!.indexOf('first.uvl')}-uvl_filename`;
        assert.ok(fields.includes(firstField), fields.join(', '));
        assert.ok(fields.every((f) => ['feature_models-0-uvl_filename', 'feature_models-1-uvl_filename'].includes(f)), fields.join(', '));
        assert.match(r.json.errors[firstField][0], /first\.uvl is not in your staging area/);
      });
      const datasetId = ok[0]!.json.dataset_id;
      assert.deepEqual(await Promise.all([count(server, 'data_set'), count(server, 'feature_model'), count(server, 'file')]), [before[0]! + 1, before[1]! + 2, before[2]! + 2]);
      const names = await server.hub.db.selectFrom('file').innerJoin('feature_model', 'feature_model.id', 'file.feature_model_id')
        .select('file.name').where('feature_model.data_set_id', '=', datasetId).orderBy('file.name').execute();
      assert.deepEqual(names.map((n) => n.name), ['first.uvl', 'second.uvl']);
      assert.deepEqual(await storedEntries(server, folderOf(server, userId, datasetId)), ['first.uvl', 'second.uvl']);
      assert.equal(await storedText(server, `${folderOf(server, userId, datasetId)}second.uvl`), SECOND_UVL);
      assert.deepEqual(await stagingListing(userId), [], 'the files left the staging area, and no claim is left behind');
    });

    it('a claim row left by a crash blocks its files for a minute (STALE_CLAIM_MS) without a refresh, not longer', async () => {
      const { client, userId } = await newUser(server);
      await stage(client, 'held.uvl', VALID_UVL);
      const row = (claimedAt: Date) => ({ folder: `temp/${userId}/`, name: 'held.uvl', claim_id: 'crashed-upload', claimed_at: claimedAt.toISOString() });
      await server.hub.db.insertInto('staged_claim').values(row(new Date(Date.now() - STALE_CLAIM_MS / 4))).execute();
      const blocked = await client.post('/dataset/upload', { form: uploadForm(['held.uvl']) });
      assert.equal(blocked.status, 400, 'a recent claim still holds the file');
      assert.match(blocked.json.errors['feature_models-0-uvl_filename'][0], /held\.uvl is not in your staging area/);
      await server.hub.db.updateTable('staged_claim').set({ claimed_at: new Date(Date.now() - 2 * STALE_CLAIM_MS).toISOString() })
        .where('claim_id', '=', 'crashed-upload').execute();
      const saved = await client.post('/dataset/upload', { form: uploadForm(['held.uvl']) });
      assert.equal(saved.status, 200, saved.text.slice(0, 300));
      assert.equal((await server.hub.db.selectFrom('staged_claim').select('name').where('folder', '=', `temp/${userId}/`).execute()).length, 0, 'no claim row is left');
    });

    it('a process killed while it held a claim: the files come back, staging again and submitting works (issue 26)', async () => {
      const { client, userId } = await newUser(server);
      const folder = `temp/${userId}/`;
      // What a process killed in the middle of an upload leaves: the file parked in its claim
      // folder, dated when it was last alive, and the ledger's row. The person comes back two minutes later.
      const claimedAt = new Date(Date.now() - 2 * 60 * 1000).toISOString();
      await server.hub.ctx.store.put(`${folder}.claim-killed/parked.uvl`, VALID_UVL);
      await server.hub.ctx.store.put(`${folder}.claim-killed/.claimed-at`, claimedAt);
      await server.hub.db.insertInto('staged_claim').values({ folder, name: 'parked.uvl', claim_id: 'killed', claimed_at: claimedAt }).execute();
      // The person stages the file again and submits.
      await stage(client, 'parked.uvl', VALID_UVL);
      const saved = await client.post('/dataset/upload', { form: uploadForm(['parked.uvl']) });
      assert.equal(saved.status, 200, saved.text.slice(0, 300));
      assert.deepEqual(await stagingListing(userId), ['parked (1).uvl'], 'the parked copy is back in the staging area, no claim folder is left');
      assert.equal((await server.hub.db.selectFrom('staged_claim').select('name').where('folder', '=', folder).execute()).length, 0, 'no claim row is left');
    });

    it('a process killed after its dataset was saved, before it removed the claim: the claim is discarded, not put back; a saved row without its folder is freed (issue 26)', async () => {
      const { client, userId } = await newUser(server);
      const folder = `temp/${userId}/`;
      const claimedAt = new Date(Date.now() - 2 * 60 * 1000).toISOString();
      await server.hub.ctx.store.put(`${folder}.claim-saved/used.uvl`, VALID_UVL);
      await server.hub.ctx.store.put(`${folder}.claim-saved/.claimed-at`, claimedAt);
      await server.hub.db.insertInto('staged_claim').values([
        { folder, name: 'used.uvl', claim_id: 'saved', claimed_at: claimedAt, saved_at: claimedAt },
        // Killed while discarding: the folder went, the saved row stayed.
        { folder, name: 'gone.uvl', claim_id: 'half-discarded', claimed_at: claimedAt, saved_at: claimedAt },
      ]).execute();
      await client.get('/dataset/upload');
      assert.deepEqual(await stagingListing(userId), [], 'the used file is not offered again, no claim folder is left');
      assert.equal((await server.hub.db.selectFrom('staged_claim').select('name').where('folder', '=', folder).execute()).length, 0, 'no claim row is left');
      // The name is free again: staged and uploaded as usual.
      await stage(client, 'gone.uvl', VALID_UVL);
      const saved = await client.post('/dataset/upload', { form: uploadForm(['gone.uvl']) });
      assert.equal(saved.status, 200, saved.text.slice(0, 300));
    });

    it('puts the claimed files back when the submit is refused for a syntax error', async () => {
      const { client, userId } = await newUser(server);
      await stage(client, 'ok.uvl', VALID_UVL);
      await stage(client, 'broken.uvl', INVALID_UVL);
      const res = await client.post('/dataset/upload', { form: uploadForm(['ok.uvl', 'broken.uvl']) });
      assert.equal(res.status, 400);
      assert.deepEqual(await stagingListing(userId), ['broken.uvl', 'ok.uvl']);
      assert.equal(await storedText(server, `temp/${userId}/broken.uvl`), INVALID_UVL);
      const again = await client.post('/dataset/upload', { form: uploadForm(['ok.uvl']) });
      assert.equal(again.status, 200);
      assert.deepEqual(await stagingListing(userId), ['broken.uvl']);
    });

    it('leaves no rows and no files when the files cannot be placed', async () => {
      const { client, userId } = await newUser(server);
      await stage(client, 'a.uvl', VALID_UVL);
      // The store refuses every copy into the user's folder (a full disk, a bucket policy).
      const store = server.hub.ctx.store;
      const copy = store.copy;
      store.copy = async (from, to) => {
        if (to.startsWith(`user_${userId}/`)) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
        return copy.call(store, from, to);
      };
      const before = await Promise.all([count(server, 'data_set'), count(server, 'ds_meta_data'), count(server, 'feature_model'), count(server, 'file'), count(server, 'ds_metrics')]);
      const res = await client.post('/dataset/upload', { form: uploadForm(['a.uvl']) }).finally(() => { store.copy = copy; });
      assert.equal(res.status, 500);
      assert.equal(typeof res.json.error, 'string');
      assert.doesNotMatch(res.text, /ENOSPC|at .*\.ts/, 'no internals in the answer');
      assert.deepEqual(await storedEntries(server, `user_${userId}/`), [], 'no file was left');
      assert.deepEqual(await Promise.all([count(server, 'data_set'), count(server, 'ds_meta_data'), count(server, 'feature_model'), count(server, 'file'), count(server, 'ds_metrics')]), before);
      assert.deepEqual(await stagingListing(userId), ['a.uvl'], 'the staged file is kept for another try');
    });
  });

  describe(`dataset upload with a Zenodo-speaking deposit server [${dialect.name}]`, () => {
    const hubs = useHubWithFakeZenodo({ databaseBaseUrl: dialect.baseUrl, seed: true });
    let server: TestServer;
    let zenodo: FakeZenodo;
    before(() => ({ server, zenodo } = hubs));

    it('publishes through the Zenodo API: DOI and deposition id stored, record link on the DOI page', async () => {
      zenodo.reset();
      const { client } = await newUser(server);
      await stage(client, 'z.uvl', VALID_UVL);
      const res = await client.post('/dataset/upload', { form: uploadForm(['z.uvl'], { title: 'On Zenodo', tags: 'one, two' }) });
      assert.equal(res.status, 200);
      assert.equal(res.json.status, 'ok');
      const deposition = [...zenodo.depositions.values()].at(-1)!;
      assert.equal(res.json.doi, `10.5072/zenodo.${deposition.id}`);
      assert.equal(deposition.metadata!.title, 'On Zenodo');
      assert.deepEqual(deposition.metadata!.keywords, ['one', 'two', 'uvlhub']);
      assert.deepEqual(deposition.metadata!.creators, [{ name: 'Tester, Test' }]);
      assert.deepEqual([...deposition.files.keys()], ['z.uvl']);
      assert.equal(deposition.files.get('z.uvl')!.md5, md5(VALID_UVL));
      const meta = await server.hub.db.selectFrom('data_set').innerJoin('ds_meta_data', 'ds_meta_data.id', 'data_set.ds_meta_data_id')
        .select(['dataset_doi', 'deposition_id']).where('data_set.id', '=', res.json.dataset_id).executeTakeFirstOrThrow();
      assert.equal(meta.dataset_doi, res.json.doi);
      assert.equal(Number(meta.deposition_id), deposition.id);
      const page = await client.get(`/doi/${res.json.doi}/`);
      assert.match(page.text, new RegExp(`href="${new URL(zenodo.url).origin}/records/${deposition.id}"`));
    });

    for (const [step, status] of [['create', 500], ['upload', 413], ['metadata', 400], ['publish', 504]] as const) {
      it(`answers partial when Zenodo fails the ${step} step (${status}) and keeps the dataset, unsynchronized`, async () => {
        zenodo.reset();
        zenodo.failOn(step, status);
        const { client, userId } = await newUser(server);
        await stage(client, 'kept.uvl', VALID_UVL);
        const res = await client.post('/dataset/upload', { form: uploadForm(['kept.uvl'], { title: `Partial ${step}` }) });
        assert.equal(res.status, 200);
        assert.equal(res.json.status, 'partial');
        assert.equal(typeof res.json.message, 'string');
        assert.equal(typeof res.json.dataset_id, 'number');
        const id = res.json.dataset_id;
        const meta = await server.hub.db.selectFrom('data_set').innerJoin('ds_meta_data', 'ds_meta_data.id', 'data_set.ds_meta_data_id')
          .select(['dataset_doi', 'deposition_id']).where('data_set.id', '=', id).executeTakeFirstOrThrow();
        assert.equal(meta.dataset_doi, null);
        assert.equal(await storedText(server, `${folderOf(server, userId, id)}kept.uvl`), VALID_UVL, 'the file is kept');
        const page = await client.get(`/dataset/unsynchronized/${id}/`);
        assert.equal(page.status, 200);
        assert.match(page.text, new RegExp(`Partial ${step}`));
        assert.match(page.text, /could not be published/, 'the partial message is shown on the page');
        if (step !== 'create') {
          assert.ok(zenodo.requests.some((r) => r.method === 'DELETE'), 'the failed draft is discarded');
        }
        const other = await newUser(server, 'Stranger');
        assert.equal((await other.client.get(`/dataset/unsynchronized/${id}/`)).status, 404);
      });
    }
  });

  describe(`dataset upload when the deposit repository cannot be reached [${dialect.name}]`, () => {
    let server: TestServer;
    before(async () => {
      // A port that was just free: nothing listens there, so every connection is refused.
      const probe = createNetServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      const { port } = probe.address() as AddressInfo;
      await new Promise<void>((resolve) => probe.close(() => resolve()));
      server = await startTestServer({
        databaseBaseUrl: dialect.baseUrl, seed: true,
        env: { ZENODO_API_URL: `http://127.0.0.1:${port}/api`, ZENODO_ACCESS_TOKEN: 'token' },
      });
    });
    after(async () => { await server?.close(); });

    it('answers 200 partial with a readable message, keeps the dataset unsynchronized and the file in place', async () => {
      const { client, userId } = await newUser(server);
      await stage(client, 'offline.uvl', VALID_UVL);
      const res = await client.post('/dataset/upload', { form: uploadForm(['offline.uvl'], { title: 'Offline' }) });
      assert.equal(res.status, 200);
      assert.equal(res.json.status, 'partial');
      assert.deepEqual(Object.keys(res.json).sort(), ['dataset_id', 'message', 'status']);
      assert.match(res.json.message, /could not be reached/);
      assert.doesNotMatch(res.json.message, /\.\)|\.\.|ECONNREFUSED|at .*\.ts/, 'one full stop per sentence, no internals');
      const id = res.json.dataset_id;
      const meta = await server.hub.db.selectFrom('data_set').innerJoin('ds_meta_data', 'ds_meta_data.id', 'data_set.ds_meta_data_id')
        .select(['dataset_doi']).where('data_set.id', '=', id).executeTakeFirstOrThrow();
      assert.equal(meta.dataset_doi, null);
      assert.equal(await storedText(server, `${folderOf(server, userId, id)}offline.uvl`), VALID_UVL);
      assert.equal((await client.get(`/dataset/unsynchronized/${id}/`)).status, 200);
      const api = await client.get(`/api/v1/datasets/${id}`);
      assert.equal(api.json.doi, null);
    });
  });
}
