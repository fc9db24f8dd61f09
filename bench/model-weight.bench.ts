// `npm run bench:model-weight` (issue 37, item 1): what the published automotive2_4 model page
// (18 616 features) costs a visitor in Chromium, in a hub started in this process (fresh seeded
// SQLite, no analysis workers). Three visits, each until the configurator is ready (its first
// answer shows the remaining count):
// - "first visit, cold hub": a new browser (empty cache) right after publishing; nothing of the
//   model is parsed or compiled yet in any worker;
// - "first visit": another new browser, the hub having served the model before;
// - "warm visit": that browser opens the page again (its HTTP cache kept);
// - "first visit, restarted hub": a new browser on a second hub started on the same database and
//   file store (its workers hold nothing: they parse the model and, where the hub stores compiled
//   forms, load the form instead of compiling it).
// For each: bytes over the wire (Chromium's encoded lengths, headers included) and decoded, the
// time until the tree is drawn and until the configurator is ready; then the answers of a few
// decisions (encoded and decoded size, time). Prints figures, asserts nothing.
import type { Browser, CDPSession, Page } from 'playwright-core';
import { findCorpus } from '../packages/uvl/src/corpus.support.ts';
import { startTestServer } from '../test/support/server.ts';
import { storeModel } from '../src/modules/model/model.test-support.ts';
import { launchBrowser } from '../test/browser/support.ts';

const LARGEST = 'real/Feature_Models/Automotive/Automotive02/automotive2_4.uvl';
/** Ten levels down (test/browser/largest-model.ts): its siblings are open. */
const DEEP_FEATURE = 'I_2387228489__F_D23121922727';
const DECISIONS = Number(process.env.BENCH_RUNS ?? 5);
/** A first step waits for the compile on the hub of main before item 1: generous, never a measure. */
const READY_MS = 300_000;
const corpus = findCorpus();
if (!corpus) {
  console.error('UVL corpus not found (set UVL_CORPUS)');
  process.exit(1);
}

interface Transfer { url: string; encoded: number; decoded: number; cached: boolean }

/** Every request's bytes as Chromium's network layer counts them (encodedDataLength: on the wire, headers included). */
async function watchNetwork(page: Page): Promise<{ transfers: Map<string, Transfer>; cdp: CDPSession }> {
  const cdp = await page.context().newCDPSession(page);
  const transfers = new Map<string, Transfer>();
  cdp.on('Network.requestWillBeSent', (e) => transfers.set(e.requestId, { url: e.request.url, encoded: 0, decoded: 0, cached: false }));
  cdp.on('Network.requestServedFromCache', (e) => { const t = transfers.get(e.requestId); if (t) t.cached = true; });
  cdp.on('Network.dataReceived', (e) => { const t = transfers.get(e.requestId); if (t) t.decoded += e.dataLength; });
  cdp.on('Network.loadingFinished', (e) => { const t = transfers.get(e.requestId); if (t) t.encoded = e.encodedDataLength; });
  await cdp.send('Network.enable');
  return { transfers, cdp };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const isReady = () => /configurations? remaining$/.test(document.getElementById('cfg-remaining')?.textContent ?? '');

async function visit(page: Page, url: string, label: string): Promise<void> {
  const { transfers, cdp } = await watchNetwork(page);
  const opened = Date.now();
  await page.goto(url);
  await page.locator('#cfg-tree > li').waitFor({ timeout: READY_MS });
  const tree = Date.now() - opened;
  await page.waitForFunction(isReady, undefined, { timeout: READY_MS, polling: 20 });
  const ready = Date.now() - opened;
  // Requests still in flight when the configurator became ready are counted when they end.
  await page.waitForLoadState('networkidle').catch(() => {});
  await cdp.detach();
  const all = [...transfers.values()];
  const encoded = all.reduce((n, t) => n + t.encoded, 0);
  const decoded = all.reduce((n, t) => n + t.decoded, 0);
  console.log(`${label.padEnd(24)} ${kb(encoded).padStart(10)} transferred (${kb(decoded)} decoded, ${all.length} requests, ${all.filter((t) => t.cached).length} from cache)  tree drawn ${tree} ms  configurator ready ${ready} ms`);
  for (const t of all.sort((a, b) => b.encoded - a.encoded).slice(0, 8)) {
    console.log(`    ${kb(t.encoded).padStart(10)} (${kb(t.decoded).padStart(10)} decoded) ${new URL(t.url).pathname}`);
  }
}

/** Decides on open features drawn on the page, one at a time: each answer's size and time. */
async function decisions(page: Page): Promise<void> {
  // The first levels drawn hold no open feature: the search opens the path to a deep one.
  await page.fill('#cfg-search', DEEP_FEATURE.slice(-12).toLowerCase());
  await page.press('#cfg-search', 'Enter');
  await page.locator(`#cfg-tree li[data-feature="${DEEP_FEATURE}"]`).waitFor();
  const { transfers, cdp } = await watchNetwork(page);
  for (let i = 0; i < DECISIONS; i++) {
    const name = await page.$$eval('#cfg-tree li[data-feature]', (lis) => lis.map((li) => li as HTMLElement)
      .find((li) => li.querySelector(':scope > .cfg-row > .cfg-state')!.textContent === 'open')?.dataset.feature);
    if (!name) {
      console.log('no open feature drawn');
      break;
    }
    const started = Date.now();
    const answered = page.waitForResponse((r) => r.url().endsWith('/configure'));
    await page.click(`#cfg-tree li[data-feature="${name}"] > .cfg-row button[data-act="${i % 2 ? 'deselect' : 'select'}"]`);
    await answered;
    await page.waitForFunction((n) => !['open', undefined].includes(document.querySelector(`#cfg-tree li[data-feature="${n}"] > .cfg-row > .cfg-state`)?.textContent ?? undefined) && document.getElementById('configurator')?.getAttribute('aria-busy') === 'false', name, { timeout: READY_MS, polling: 20 });
    const time = Date.now() - started;
    await page.waitForTimeout(50);
    const step = [...transfers.values()].filter((t) => t.url.endsWith('/configure')).at(-1)!;
    console.log(`decision ${i + 1}: ${i % 2 ? 'deselect' : 'select'} ${name}  answer ${kb(step.encoded)} transferred (${kb(step.decoded)} decoded)  ${time} ms click to shown`);
  }
  await cdp.detach();
}

const server = await startTestServer({ seed: true, env: { ANALYSIS_WORKERS: '0', LOG_LEVEL: 'warn' } });
let browser: Browser | undefined;
try {
  const { fileId } = await storeModel(server, { content: corpus.read(LARGEST), name: 'automotive2_4.uvl' });
  const url = `${server.baseUrl}/model/${fileId}/`;
  browser = await launchBrowser();
  console.log(`automotive2_4 model page (${LARGEST}): bytes until the configurator is ready (count shown)`);
  const cold = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await visit(await cold.newPage(), url, 'first visit, cold hub');
  await cold.close();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await visit(await context.newPage(), url, 'first visit');
  const page = await context.newPage();
  await visit(page, url, 'warm visit');
  await decisions(page);
  await context.close();
  const again = await startTestServer({ databaseUrl: server.database.url, workingDir: server.workingDir, env: { ANALYSIS_WORKERS: '0', LOG_LEVEL: 'warn' } });
  try {
    const fresh = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await visit(await fresh.newPage(), `${again.baseUrl}/model/${fileId}/`, 'first visit, restarted hub');
    await fresh.close();
    // Where the hub stores compiled forms (issue 37, item 1): how its workers got theirs.
    const forms = (again.hub.ctx.services.configurator as { formsHere?: () => { loaded: number; compiled: number } }).formsHere?.();
    console.log(forms ? `    restarted hub: compiled forms loaded from the store ${forms.loaded}, compiled ${forms.compiled}` : '    restarted hub: stores no compiled forms');
  } finally {
    await again.close();
  }
} finally {
  await browser?.close();
  await server.close();
}
