// The comparison page's script in a browser: with COMPARE_WAIT_MS=0 the page never waits for the
// analysis engine, so every edit class starts as "being decided" and the page's own script must
// fetch edit-classes.json and write the decided class in place.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { browserSkipReason, useBrowserServer } from './support.ts';
import { VALID_UVL, newUser, stage, uploadForm } from '../../src/modules/dataset/dataset.test-support.ts';

const skip = browserSkipReason();

describe('comparison page in Chromium', { skip }, () => {
  const env = useBrowserServer({ env: { COMPARE_WAIT_MS: '0' } });

  it('fills in an edit class that was still being decided when the page was built', async () => {
    const owner = await newUser(env.server);
    await stage(owner.client, 'phone.uvl', VALID_UVL);
    const first = await owner.client.post('/dataset/upload', { form: uploadForm(['phone.uvl'], { title: 'Compared phones' }) });
    assert.equal(first.json.status, 'ok', JSON.stringify(first.json));
    const v1 = first.json.dataset_id as number;
    assert.equal((await owner.client.post(`/dataset/${v1}/new-version`, { form: {} })).status, 302);
    await owner.client.get(`/dataset/upload?version_of=${v1}`);
    // The copied phone.uvl is replaced by a model with one more optional feature.
    await owner.client.post('/dataset/file/delete', { json: { file: 'phone.uvl' } });
    await stage(owner.client, 'phone.uvl', VALID_UVL.replace('            Camera\n', '            Camera\n            GPS\n'));
    const second = await owner.client.post('/dataset/upload', { form: uploadForm(['phone.uvl'], { title: 'Compared phones', version_of: String(v1) }) });
    assert.equal(second.json.status, 'ok', JSON.stringify(second.json));
    const v2 = second.json.dataset_id as number;

    const context = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    const response = await page.goto(`${env.server.baseUrl}/dataset/${v2}/compare/${v1}/`);
    assert.equal(response?.status(), 200);
    const html = await response!.text();
    assert.match(html, /id="edit-classes-pending"/, 'the page was built before the class was decided');
    assert.match(html, /data-edit-class="pending"/);
    const model = page.locator('.model-change[data-model="phone.uvl"]');
    await model.locator('.edit-class[data-edit-class="generalization"]').waitFor({ timeout: 60_000 });
    await page.locator('#edit-classes-pending', { hasText: 'Every edit class is decided.' }).waitFor();
    assert.deepEqual(problems, []);
    await context.close();
  });
});
