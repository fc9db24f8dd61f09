// Issue 25 item 8: the comparison page of two versions of automotive2_4 (~18,600 features) and
// the DOI page's source pop-up, timed once cold and once warm. Run: npx tsx bench/everyday2-large.bench.ts
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer } from '../test/support/server.ts';
import { launchBrowser } from '../test/browser/support.ts';
import { newUser, stage, uploadForm } from '../src/modules/dataset/dataset.test-support.ts';

const corpus = process.env.UVL_CORPUS ?? '/work/shared/uvl-corpus';
const text = readFileSync(join(corpus, 'real/Feature_Models/Automotive/Automotive02/automotive2_4.uvl'), 'utf8');
const changed = text.replace(/\nconstraints\n/, '\nconstraints\n    "BenchAdded" | !"BenchAdded"\n').replace(/^features\n(\s+)(\S.*)\n/m, (all) => all);

const server = await startTestServer({ env: { ANALYSIS_WORKERS: '0', ...(process.env.COMPARE_WAIT_MS ? { COMPARE_WAIT_MS: process.env.COMPARE_WAIT_MS } : {}) } });
try {
  const { client } = await newUser(server, 'Bench');
  await stage(client, 'auto.uvl', text);
  const v1 = await client.post('/dataset/upload', { form: uploadForm(['auto.uvl'], { title: 'Automotive' }) });
  await client.post(`/dataset/${v1.json.dataset_id}/new-version`, { form: {} });
  await client.post('/dataset/file/delete', { json: { file: 'auto.uvl' } });
  await stage(client, 'auto.uvl', changed);
  const v2 = await client.post('/dataset/upload', { form: uploadForm(['auto.uvl'], { title: 'Automotive', version_of: String(v1.json.dataset_id) }) });
  for (const round of ['cold', 'warm']) {
    const t = performance.now();
    const res = await client.get(`/dataset/${v2.json.dataset_id}/compare/${v1.json.dataset_id}/`);
    console.log(`compare page (${round}): ${(performance.now() - t).toFixed(0)} ms, status ${res.status}`);
  }
  const fileId = Number(/\/file\/download\/(\d+)/.exec((await client.get(`/doi/${v1.json.doi}/`)).text)![1]);
  for (const round of ['first', 'second']) {
    const t = performance.now();
    await client.get(`/file/view/${fileId}`);
    console.log(`/file/view answer (${round}): ${(performance.now() - t).toFixed(0)} ms`);
  }
  const browser = await launchBrowser();
  const page = await browser.newPage({ reducedMotion: 'reduce' });
  await page.goto(`${server.baseUrl}/doi/${v1.json.doi}/`);
  for (const round of ['first', 'second']) {
    const t = performance.now();
    await page.locator('.js-view-file').first().click();
    await page.waitForFunction(() => (document.querySelector('#file-source code')?.textContent ?? '').length > 100000);
    console.log(`source pop-up (${round}): ${(performance.now() - t).toFixed(0)} ms`);
    await page.reload();
  }
  await browser.close();
} finally {
  await server.close();
}
