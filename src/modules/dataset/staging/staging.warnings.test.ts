// Issue 25, items 1 and 2 on the hub's side: the staging answer's warnings, one error for a file
// that is not text, error lists cut to 20 with the rest counted, and checks remembered so that
// the upload page does not check a staged file again on each visit.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { newUser, stage } from '../dataset.test-support.ts';
import { MAX_LISTED, StagedChecks } from './staged-checks.ts';

const MISSING_REFERENCE = 'features\n  A\n    optional\n      B\nconstraints\n  C | D\n';
/** The first bytes of a PNG: binary, with NUL bytes. */
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0xff, 0xfe, 0x00, 0x10]);
const MANY_ERRORS = 'features\n  A\n' + '    ) ( ]\n'.repeat(100);

/** The staged files the upload page carries for its script (`data-staged`). */
function stagedOnPage(html: string): { filename: string; errors: string[]; errors_more: number; warnings: string[] }[] {
  const match = /data-staged="([^"]*)"/.exec(html);
  assert.ok(match, 'the upload page carries its staged files');
  const json = match[1]!.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return JSON.parse(json);
}

describe('staged checks', () => {
  it('checks the same bytes once', async () => {
    const checks = new StagedChecks();
    const first = await checks.check(Buffer.from(MANY_ERRORS), 'test');
    assert.equal(await checks.check(Buffer.from(MANY_ERRORS), 'test'), first);
    assert.notEqual(await checks.check(Buffer.from(MISSING_REFERENCE), 'test'), first);
  });
});

for (const dialect of testDialects()) {
  describe(`staging warnings and long error lists [${dialect.name}]`, () => {
    let server: TestServer;
    before(async () => { server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true }); });
    after(async () => { await server?.close(); });

    it('stages a constraint naming a non-feature as valid, with a warning', async () => {
      const { client } = await newUser(server, 'Warned');
      const res = await stage(client, 'missingreference.uvl', MISSING_REFERENCE);
      assert.equal(res.status, 200);
      assert.equal(res.json.valid, true);
      assert.deepEqual(res.json.errors, []);
      assert.deepEqual(res.json.warnings, ['Line 6:2 - `C` is not a feature: the constraint is left out of the analysis']);
      const page = await client.get('/dataset/upload');
      assert.deepEqual(stagedOnPage(page.text)[0]!.warnings, res.json.warnings);
    });

    it('gives a file that is not UTF-8 text one error', async () => {
      const { client } = await newUser(server, 'Binary');
      const res = await stage(client, 'picture.uvl', PNG);
      assert.equal(res.status, 200);
      assert.equal(res.json.valid, false);
      assert.deepEqual(res.json.errors, ['Line 1:0 - not UTF-8 text']);
      assert.equal(res.json.errors_more, 0);
    });

    it('lists at most 20 errors and counts the rest, in the answer and on the upload page', async () => {
      const { client } = await newUser(server, 'Broken');
      const res = await stage(client, 'broken.uvl', MANY_ERRORS);
      assert.equal(res.json.valid, false);
      assert.equal(res.json.errors.length, MAX_LISTED);
      assert.equal(res.json.errors_more, 100 - MAX_LISTED);
      const [listed] = stagedOnPage((await client.get('/dataset/upload')).text);
      assert.equal(listed!.errors.length, MAX_LISTED);
      assert.equal(listed!.errors_more, 100 - MAX_LISTED);
    });
  });
}
