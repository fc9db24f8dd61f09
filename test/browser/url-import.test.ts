// Import from a URL on the upload page in Chromium (extensions section 13): the URL field stages the
// models of a repository archive served by the test, each shown as a staged model; a URL that
// holds none says so and stages nothing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ZipArchive } from 'archiver';
import { browserSkipReason, loggedInPage, useBrowserServer } from './support.ts';
import { PHONE_UVL } from '../support/api.ts';

const skip = browserSkipReason();

async function zipOf(entries: { name: string; body: string }[]): Promise<Buffer> {
  const archive = new ZipArchive({ zlib: { level: 6 } });
  const chunks: Buffer[] = [];
  archive.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => archive.on('end', () => resolve()));
  for (const e of entries) archive.append(e.body, { name: e.name });
  await archive.finalize();
  await done;
  return Buffer.concat(chunks);
}

describe('import from a URL on the upload page', { skip }, () => {
  const journey = useBrowserServer({ seed: true });
  let source: Server;
  let origin = '';
  before(async () => {
    const archive = await zipOf([{ name: 'repo-main/phone.uvl', body: PHONE_UVL }, { name: 'repo-main/pad.uvl', body: PHONE_UVL.replace(/Phone/g, 'Pad') }, { name: 'repo-main/README.md', body: '#' }]);
    source = createServer((req, res) => (req.url === '/main.zip' ? res.end(archive) : res.writeHead(200).end('no model here')));
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
  });
  after(async () => new Promise((resolve) => source.close(resolve)));

  it('stages the models of an archive and shows them; says when a URL holds none', async () => {
    const page = await loggedInPage(journey.browser, journey.server);
    await page.goto(`${journey.server.baseUrl}/dataset/upload`);
    await page.fill('#import-url', `${origin}/main.zip`);
    await page.click('#import-url-button');
    await page.waitForSelector('.model-entry[data-staged="pad.uvl"]');
    assert.deepEqual((await page.locator('.model-entry[data-staged]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.staged))).sort(), ['pad.uvl', 'phone.uvl']);
    assert.match(await page.textContent('#import-url-status') ?? '', /2 files staged/);
    await page.fill('#import-url', `${origin}/notes.txt`);
    await page.press('#import-url', 'Enter');
    await page.waitForSelector('#import-url-status.text-danger');
    assert.match(await page.textContent('#import-url-status') ?? '', /No model file/);
    // The field itself says it was refused, the reason (its aria-describedby) read out with it.
    assert.equal(await page.getAttribute('#import-url', 'aria-invalid'), 'true');
    assert.match(await page.getAttribute('#import-url', 'class') ?? '', /\bis-invalid\b/);
    assert.equal(await page.getAttribute('#import-url', 'aria-describedby'), 'import-url-status');
    assert.equal(await page.locator('.model-entry[data-staged]').count(), 2);
    await page.context().close();
  });
});
