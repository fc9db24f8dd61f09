// The largest corpus model (automotive2_4, 18 616 features, 22 307 source lines) stored in a test
// server, with Chromium, for the journeys on large models; skipped without a browser or corpus.
import { after, before } from 'node:test';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import { preparedPage, storeModel } from '../../src/modules/model/model.test-support.ts';
import { TestClient } from '../support/client.ts';
import { corpusSkipReason, findCorpus } from '../../packages/uvl/src/corpus.support.ts';
import { browserSkipReason, launchBrowser } from './support.ts';

export const LARGEST = 'real/Feature_Models/Automotive/Automotive02/automotive2_4.uvl';
/** A feature on line 12 000, ten levels down: neither drawn at first nor near the top. */
export const DEEP_FEATURE = 'I_2387228489__F_D23121922727';

const corpus = findCorpus();
export const largestModelSkip = browserSkipReason() || (corpus ? false : corpusSkipReason);

/** Registers the suite's hooks; read `server`, `browser` and `fileId` from the returned object in the tests. */
export function useLargestModel(): { readonly server: TestServer; readonly browser: Browser; readonly fileId: number } {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  let fileId = 0;
  before(async () => {
    server = await startTestServer({ seed: true, env: { ANALYSIS_WORKERS: '0' } });
    browser = await launchBrowser();
    ({ fileId } = await storeModel(server, { content: corpus!.read(LARGEST), name: 'automotive2_4.uvl' }));
    // A large model's page says it is being prepared until a worker has parsed and drawn it (the
    // model module's model-page.jobs.ts): prepared once here, the journeys load it whole.
    await preparedPage(new TestClient(server.baseUrl), `/model/${fileId}/`);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
  return { get server() { return server!; }, get browser() { return browser!; }, get fileId() { return fileId; } };
}
