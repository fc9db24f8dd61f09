// Drafts (extensions section 9, issue 25 item 3): the upload page's "Save as draft" (`draft` =
// `1`) saves an unsynchronized dataset and deposits nothing; My datasets lists it as a draft with
// preview, edit, publish and delete; publishing deposits it, and a failed deposit keeps the draft.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../../test/support/databases.ts';
import { TestClient } from '../../../../test/support/client.ts';
import { useHubWithFakeZenodo } from '../../../../test/support/fake-zenodo.ts';
import { VALID_UVL, newUser, stage, uploadForm } from '../dataset.test-support.ts';

for (const dialect of testDialects()) {
  describe(`drafts [${dialect.name}]`, () => {
    const hubs = useHubWithFakeZenodo({ databaseBaseUrl: dialect.baseUrl, seed: true });

    async function saveDraft(client: TestClient, title: string): Promise<number> {
      const file = `${title.toLowerCase().replace(/\W+/g, '-')}.uvl`;
      assert.equal((await stage(client, file, VALID_UVL)).status, 200);
      const res = await client.post('/dataset/upload', { form: uploadForm([file], { title, draft: '1' }) });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.status, 'draft');
      assert.equal(res.json.url, `/dataset/unsynchronized/${res.json.dataset_id}/`);
      return res.json.dataset_id;
    }

    it('saves a draft without any deposit and lists it with preview, edit, publish and delete', async () => {
      hubs.zenodo.reset();
      const { client, userId } = await newUser(hubs.server, 'Drafting');
      const id = await saveDraft(client, 'My first draft');
      assert.deepEqual(hubs.zenodo.requests, [], 'nothing reached the deposit');
      const saved = await hubs.server.hub.ctx.services.dataset.getUnsynchronized(id, userId);
      assert.equal(saved?.doi, null);
      assert.equal(saved?.depositionId, null);

      const list = await client.get('/dataset/list');
      const row = new RegExp(`<tr>\\s*<td><a href="/dataset/unsynchronized/${id}/">My first draft</a>[\\s\\S]*?</tr>`).exec(list.text)?.[0];
      assert.ok(row, 'the draft is listed');
      assert.match(row, /class="badge text-bg-secondary dataset-draft">Draft</);
      assert.match(row, new RegExp(`href="/dataset/unsynchronized/${id}/\\?preview=1"`));
      assert.match(row, new RegExp(`href="/dataset/${id}/edit"`));
      assert.match(row, new RegExp(`action="/dataset/${id}/publish"[\\s\\S]*> Publish<span`));
      assert.match(row, new RegExp(`action="/dataset/${id}/delete"`));

      const preview = await client.get(`/dataset/unsynchronized/${id}/?preview=1`);
      assert.equal(preview.status, 200);
      assert.match(preview.text, /id="preview-notice"/);
      assert.match(preview.text, /id="dataset-title">My first draft</);
      assert.doesNotMatch(preview.text, /owner-actions/, 'the preview shows the page as others will see it');
      const stranger = await newUser(hubs.server, 'Curious');
      assert.equal((await stranger.client.get(`/dataset/unsynchronized/${id}/?preview=1`)).status, 404);
      assert.equal((await new TestClient(hubs.server.baseUrl).get(`/dataset/unsynchronized/${id}/`)).status, 302);
    });

    it('publishes a draft: only then is it deposited and given a DOI', async () => {
      hubs.zenodo.reset();
      const { client } = await newUser(hubs.server, 'Publisher');
      const id = await saveDraft(client, 'Ready draft');
      assert.equal(hubs.zenodo.requests.length, 0);
      const res = await client.post(`/dataset/${id}/publish`, { form: {} });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.status, 'ok');
      assert.ok(hubs.zenodo.requests.length > 0, 'published to the deposit');
      assert.equal((await client.get(`/doi/${res.json.doi}/`)).status, 200);
      assert.doesNotMatch((await client.get('/dataset/list')).text, /dataset-draft/);
    });

    it('keeps the draft when the deposit fails at publish, and publishes it on the next try', async () => {
      hubs.zenodo.reset();
      const { client, userId } = await newUser(hubs.server, 'Unlucky');
      const id = await saveDraft(client, 'Unlucky draft');
      hubs.zenodo.failOn('create', 500);
      const failed = await client.post(`/dataset/${id}/publish`, { form: {} });
      assert.equal(failed.status, 200, failed.text);
      assert.equal(failed.json.status, 'partial');
      assert.equal((await hubs.server.hub.ctx.services.dataset.getUnsynchronized(id, userId))?.doi, null);
      assert.match((await client.get('/dataset/list')).text, new RegExp(`action="/dataset/${id}/publish"`));
      hubs.zenodo.reset();
      const again = await client.post(`/dataset/${id}/publish`, { form: {} });
      assert.equal(again.json.status, 'ok');
    });

    it('deletes a draft with its files', async () => {
      const { client, userId } = await newUser(hubs.server, 'Tidy');
      const id = await saveDraft(client, 'Throwaway draft');
      const res = await client.post(`/dataset/${id}/delete`, { form: {} });
      assert.equal(res.status, 302);
      assert.equal(res.location, '/dataset/list');
      assert.equal(await hubs.server.hub.ctx.services.dataset.getUnsynchronized(id, userId), undefined);
      assert.doesNotMatch((await client.get('/dataset/list')).text, />Throwaway draft<\/a>/);
    });
  });
}
