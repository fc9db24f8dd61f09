// A staged model is converted and checked once, kept by the SHA-256 of its bytes (extensions
// section 10): visits of the upload page and saving the dataset read the remembered report and
// check instead of converting a large FeatureIDE original again (9-14 s a visit for 25 MB).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { newUser, stage, uploadForm } from '../dataset.test-support.ts';

const FIXTURES = join(import.meta.dirname, '../../../../packages/uvl/src/formats/fixtures');

describe('staged models converted and checked once', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ seed: false });
  });
  after(async () => { await server?.close(); });
  const made = () => server.hub.ctx.services.dataset.stagedWorkDone();

  it('reads a staged original and checks a staged model once, whatever the visits of the upload page and the save', async () => {
    const { client } = await newUser(server);
    const before = made();
    const staged = await stage(client, 'car.xml', readFileSync(join(FIXTURES, 'car.featureide.xml')));
    assert.equal(staged.status, 200);
    assert.equal(staged.json.format, 'featureide');
    assert.ok(staged.json.losses.length > 0);
    assert.deepEqual(made(), { checks: before.checks + 1, conversions: before.conversions + 1, fullChecks: before.fullChecks });
    for (let visit = 0; visit < 3; visit++) {
      const page = await client.get('/dataset/upload');
      assert.equal(page.status, 200);
      assert.match(page.text, /car\.uvl/);
    }
    assert.deepEqual(made(), { checks: before.checks + 1, conversions: before.conversions + 1, fullChecks: before.fullChecks }, 'no visit converts or checks again');
    const saved = await client.post('/dataset/upload', { form: uploadForm([staged.json.filename]) });
    assert.equal(saved.status, 200, saved.text);
    // Extensions section 10: the save reads the check made at staging too (it queued it again before).
    assert.deepEqual(made(), { checks: before.checks + 1, conversions: before.conversions + 1, fullChecks: before.fullChecks }, 'the save reads the remembered report and check');

    // The same bytes staged by someone else: nothing read again; other bytes are.
    const other = await newUser(server, 'Other');
    await stage(other.client, 'car.xml', readFileSync(join(FIXTURES, 'car.featureide.xml')));
    assert.deepEqual(made(), { checks: before.checks + 1, conversions: before.conversions + 1, fullChecks: before.fullChecks });
    await stage(other.client, 'shop.xml', readFileSync(join(FIXTURES, 'shop.extended.xml')));
    assert.deepEqual(made(), { checks: before.checks + 2, conversions: before.conversions + 2, fullChecks: before.fullChecks });
  });
});

describe('staged models checked off the serving thread', () => {
  let server: TestServer;
  before(async () => {
    // No analysis: the only heavy jobs are the staging's and the upload's.
    server = await startTestServer({ seed: false, env: { ANALYSIS_WORKERS: '0' } });
  });
  after(async () => { await server?.close(); });

  it('checks a staged UVL model as a job of the scheduler, once: the upload reads that check', async () => {
    const { client } = await newUser(server, 'Checker');
    const scheduler = server.hub.ctx.scheduler;
    const started = scheduler.started;
    const staged = await stage(client, 'checked.uvl', Buffer.from('features\n    Checked\n        optional\n            Part\n'));
    assert.equal(staged.status, 200, JSON.stringify(staged.json));
    assert.equal(staged.json.valid, true);
    // Before, the check parsed the model on the serving thread: no job.
    assert.equal(scheduler.started, started + 1, 'the staging check is one job');
    assert.equal((await client.get('/dataset/upload')).status, 200);
    assert.equal(scheduler.started, started + 1, 'the upload page reads the remembered check');
    const saved = await client.post('/dataset/upload', { form: uploadForm([staged.json.filename]) });
    assert.equal(saved.status, 200, saved.text);
    assert.equal(scheduler.started, started + 1, 'the upload reads the staging\'s check (extensions section 10: it queued it again before)');
  });
});
