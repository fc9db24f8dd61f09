// Statistics over HTTP on every dialect (extensions section 8): exact figures for a known set of
// datasets (two published, one not), the JSON and CSV downloads, the page and its refresh when
// a dataset is saved; a dataset counted in the month of its publication.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { shippedModulesWithout } from '../../../test/support/modules.ts';
import { TestClient } from '../../../test/support/client.ts';
import { newUser } from '../../../test/support/accounts.ts';

// Five features, depth 2, no constraints, 6 configurations.
const SIX_WAYS = 'features\n    Phone\n        alternative\n            Android\n            Ios\n        optional\n            Camera\n                optional\n                    Flash\n';
// Four features, two constraints, Bell dead.
const WITH_DEAD = 'features\n    Bike\n        mandatory\n            Frame\n        optional\n            Bell\n            Light\n\nconstraints\n    Light => !Bell\n    Light\n';
// Three features, two constraints, no valid configuration.
const VOID = 'features\n    Box\n        mandatory\n            Lid\n        optional\n            Lock\n\nconstraints\n    Lid => Lock\n    !Lock\n';
const HUNDRED_AND_ONE = `features\n    Big\n        optional\n${Array.from({ length: 100 }, (_, i) => `            B${i}\n`).join('')}`;
const TWO_FEATURES = 'features\n    R\n        optional\n            X\n';
const SIXTEEN_WAYS = 'features\n    S\n        optional\n            P\n            Q\n            T\n            U\n';
const NINE_FEATURES = `features\n    N\n        optional\n${Array.from({ length: 8 }, (_, i) => `            O${i}\n`).join('')}`;

const currentMonth = () => new Date().toISOString().slice(0, 7);

for (const dialect of testDialects()) {
  describe(`statistics [${dialect.name}]`, () => {
    let server: TestServer;
    let folder: string;
    let userId: number;
    let saveDataset: (title: string, models: [string, string][], extra: { doi?: string | null; createdAt?: string }) => Promise<number>;

    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl });
      folder = mkdtempSync(join(tmpdir(), 'hub-statistics-'));
      userId = (await newUser(server, 'Stat')).userId;
      const ctx = server.hub.ctx;
      saveDataset = async (title, models, extra) => {
        const files = models.map(([name, text]) => {
          writeFileSync(join(folder, name), text);
          return { path: join(folder, name), meta: { name, title: name, description: '', publicationType: 'none', publicationDoi: null, tags: '', version: '2.0', authors: [] } };
        });
        const metadata = { title, description: 'statistics test', publicationType: 'none', publicationDoi: null, tags: '', license: 'CC-BY-4.0', authors: [{ name: 'Stat, Ana', affiliation: null, orcid: null }] };
        return ctx.services.dataset.createFromFiles(userId, metadata as never, files as never, extra);
      };
      const first = await saveDataset('Stats one', [['six.uvl', SIX_WAYS], ['dead.uvl', WITH_DEAD]], { doi: '10.9999/stats.1', createdAt: '2025-01-15T10:00:00.000Z' });
      const second = await saveDataset('Stats two', [['void.uvl', VOID], ['two.uvl', TWO_FEATURES], ['sixteen.uvl', SIXTEEN_WAYS]], { doi: '10.9999/stats.2', createdAt: '2025-03-02T10:00:00.000Z' });
      // Unpublished: its 101-feature model must count nowhere.
      await saveDataset('Stats draft', [['big.uvl', HUNDRED_AND_ONE]], { doi: null, createdAt: '2025-03-05T10:00:00.000Z' });
      await ctx.services.analysis.drain();
      for (const cookie of ['a', 'b', 'c']) await ctx.services.dataset.recordView(first, null, `stat-view-${cookie}`);
      await ctx.services.dataset.recordDownload(second, null, 'stat-download');
    });
    after(async () => {
      await server?.close();
      if (folder) rmSync(folder, { recursive: true, force: true });
    });

    it('answers exact figures for the published datasets (GET /api/v1/statistics)', async () => {
      const res = await new TestClient(server.baseUrl).get('/api/v1/statistics');
      assert.equal(res.status, 200);
      const stats = res.json;
      // features 5, 4, 3, 2, 5; constraints 0, 2, 2, 0, 0; depth 2, 1, 1, 1, 1; configurations 6, 1, 0, 2, 16.
      assert.deepEqual(
        { datasets: stats.datasets, models: stats.models, analysed_models: stats.analysed_models, views: stats.views, downloads: stats.downloads },
        { datasets: 2, models: 5, analysed_models: 5, views: 3, downloads: 1 },
      );
      assert.deepEqual(stats.features, { min: 2, q1: 3, median: 4, q3: 5, max: 5 });
      assert.deepEqual(stats.constraints, { min: 0, q1: 0, median: 0, q3: 2, max: 2 });
      assert.deepEqual(stats.depth, { min: 1, q1: 1, median: 1, q3: 1, max: 2 });
      assert.deepEqual(stats.configuration_digits, { min: 1, q1: 1, median: 1, q3: 1, max: 2 });
      assert.deepEqual(stats.language_levels, { boolean: 5 });
      assert.equal(stats.with_dead, 1);
      assert.equal(stats.void, 1);
      assert.deepEqual(stats.histograms.features, [
        { from: 2, to: 2, count: 1 }, { from: 3, to: 3, count: 1 }, { from: 4, to: 4, count: 1 }, { from: 5, to: 5, count: 2 },
      ]);
      const months = Object.fromEntries(stats.monthly.map((m: { month: string }) => [m.month, m]));
      assert.deepEqual(months['2025-01'], { month: '2025-01', datasets: 1, views: 0, downloads: 0 });
      assert.deepEqual(months['2025-03'], { month: '2025-03', datasets: 1, views: 0, downloads: 0 });
      assert.deepEqual(months[currentMonth()], { month: currentMonth(), datasets: 0, views: 3, downloads: 1 });
    });

    it('offers the same figures as JSON and CSV downloads', async () => {
      const client = new TestClient(server.baseUrl);
      const api = (await client.get('/api/v1/statistics')).json;
      const json = await client.get('/statistics/statistics.json');
      assert.equal(json.status, 200);
      assert.equal(json.headers.get('content-disposition'), 'attachment; filename="hub-statistics.json"');
      // Built for each request on a hub this small: the same figures, each with its own time.
      const { generated_at: _downloadTime, ...downloaded } = JSON.parse(json.text);
      const { generated_at: _apiTime, ...answered } = api;
      assert.deepEqual(downloaded, answered);
      const csv = await client.get('/statistics/statistics.csv');
      assert.equal(csv.status, 200);
      assert.match(csv.headers.get('content-type')!, /^text\/csv/);
      const lines = csv.text.trim().split('\r\n');
      assert.equal(lines[0], 'section,key,value');
      for (const line of ['hub,datasets,2', 'hub,models,5', 'features,median,4', 'constraints,q3,2', 'language_levels,boolean,5', 'hub,with_dead,1', 'hub,void,1', 'histogram:features,5,2', 'monthly:datasets,2025-03,1']) {
        assert.ok(lines.includes(line), `${line} in the CSV`);
      }
    });

    it('shows the page to anyone, with plots, tables and a navigation entry', async () => {
      const page = await new TestClient(server.baseUrl).get('/statistics');
      assert.equal(page.status, 200);
      assert.match(page.text, /<a[^>]*href="\/statistics"/);
      assert.match(page.text, /<td class="text-end">4<\/td>/);
      for (const id of ['plot-features', 'plot-constraints', 'plot-depth', 'plot-configuration_digits', 'plot-monthly-views']) {
        assert.match(page.text, new RegExp(`id="${id}"[\\s\\S]*?<svg [^>]*role="img"`), id);
      }
      assert.match(page.text, /aria-label="Histogram of features: minimum 2, first quartile 3, median 4, third quartile 5, maximum 5"/);
      assert.match(page.text, /id="figure-datasets">2</);
    });

    it('answers current figures right after a dataset is saved or analysed, and counts a view once its short keep is over', async () => {
      const client = new TestClient(server.baseUrl);
      assert.equal((await client.get('/api/v1/statistics')).json.features.max, 5);
      await saveDataset('Stats three', [['nine.uvl', NINE_FEATURES]], { doi: '10.9999/stats.3', createdAt: '2025-03-09T10:00:00.000Z' });
      // The first request after the change already counts it (its rebuild is quick, so it is waited for).
      const saved = (await client.get('/api/v1/statistics')).json;
      assert.equal(saved.datasets, 3);
      assert.equal(saved.models, 6);
      const page = await new TestClient(server.baseUrl).get('/doi/10.9999/stats.3/');
      assert.equal(page.status, 200);
      // A view moves no event: it is counted once the figures' short keep (20 times their build) is over.
      let views = saved.views;
      for (let tries = 0; tries < 100 && views === saved.views; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        views = (await client.get('/api/v1/statistics')).json.views;
      }
      assert.equal(views, saved.views + 1, 'the view just made is counted within seconds');
      await server.hub.ctx.services.analysis.drain();
      const analysed = (await client.get('/api/v1/statistics')).json;
      assert.equal(analysed.analysed_models, 6);
      assert.equal(analysed.features.max, 9);
    });

    it('counts a dataset in the month it was published, not the month its draft was made (page, API, downloads)', async () => {
      const client = new TestClient(server.baseUrl);
      const ctx = server.hub.ctx;
      // A draft of February 2025 given its DOI now (the built-in fake deposit).
      const late = await saveDataset('Stats late', [['late.uvl', TWO_FEATURES]], { doi: null, createdAt: '2025-02-20T10:00:00.000Z' });
      const published = await ctx.services.dataset.publish(late, userId);
      assert.equal(published.status, 'ok', JSON.stringify(published));
      await client.get('/api/v1/statistics');
      await ctx.services.statistics.settled();
      const stats = (await client.get('/api/v1/statistics')).json;
      assert.equal(stats.datasets, 4);
      const months = Object.fromEntries(stats.monthly.map((m: { month: string }) => [m.month, m]));
      assert.equal(months['2025-02'], undefined, 'nothing happened in February 2025');
      // Views this month: the three recorded in before() and the DOI page viewed by the test before this one.
      assert.deepEqual(months[currentMonth()], { month: currentMonth(), datasets: 1, views: 4, downloads: 1 });
      assert.deepEqual(JSON.parse((await client.get('/statistics/statistics.json')).text).monthly, stats.monthly);
      const csv = (await client.get('/statistics/statistics.csv')).text.trim().split('\r\n');
      assert.ok(csv.includes(`monthly:datasets,${currentMonth()},1`), 'published this month in the CSV');
      assert.ok(!csv.some((line) => line.startsWith('monthly:datasets,2025-02,')), 'February 2025 not in the CSV');
      const page = (await client.get('/statistics')).text;
      assert.match(page, new RegExp(`<tr><td>${currentMonth()}</td><td class="text-end">1</td>`));
      assert.doesNotMatch(page, /<tr><td>2025-02<\/td>/);
    });
  });
}

describe('statistics without the analysis module', () => {
  it('shows the hub in figures and no models', async () => {
    const server = await startTestServer({ modules: shippedModulesWithout('analysis'), seed: true });
    try {
      const client = new TestClient(server.baseUrl);
      const stats = (await client.get('/api/v1/statistics')).json;
      assert.equal(stats.datasets, 4);
      assert.equal(stats.models, 0);
      assert.deepEqual(stats.features, { min: null, q1: null, median: null, q3: null, max: null });
      assert.equal((await client.get('/statistics')).status, 200);
    } finally {
      await server.close();
    }
  });
});
