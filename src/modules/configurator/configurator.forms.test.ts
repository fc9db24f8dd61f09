// Compiled forms stored by SHA-256 and loaded, not compiled again (issue 37, item 1): the first
// instance compiles a model of 1,501 features (the large lane: its first step answers by
// propagation while the compile runs) and stores the form under its SHA-256; a second instance
// on the same database and store loads it, so its first step is counted at once, its
// commonality is computed without a compile, and the counts agree. A form refused on load (bytes
// of another layout) is compiled again and replaced.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { storeModelFile } from '../../../test/support/fixtures.ts';
import { compiledFormKey } from './configurator.forms.ts';
import { generatedModel, waitForResult } from './configurator.test-support.ts';

const dialect = testDialects().find((d) => d.name === 'postgres') ?? testDialects()[0]!;
// Without constraints across groups: compiled in a fraction of a second.
const MODEL = generatedModel(300, false);
const SHA256 = createHash('sha256').update(MODEL, 'utf8').digest('hex');

describe(`compiled forms stored and loaded [${dialect.name}]`, () => {
  let a: TestServer;
  let b: TestServer | undefined;
  let fileId = 0;
  before(async () => {
    a = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { ANALYSIS_WORKERS: '0' } });
    ({ fileId } = await storeModelFile(a, { label: 'Model', content: MODEL, name: 'groups.uvl' }));
  });
  after(async () => {
    await b?.close();
    await a?.close();
  });

  const configure = async (server: TestServer, body: object = {}) => {
    const res = await fetch(`${server.baseUrl}/api/v1/files/${fileId}/configure`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 200);
    return res.json();
  };
  const formsOf = (server: TestServer) => server.hub.ctx.services.configurator.formsHere();
  /** Steps until one is counted (the compile in the background ends); a short poll, no fixed sleep. */
  async function counted(server: TestServer, body: object): Promise<any> {
    for (;;) {
      const answer = await configure(server, body);
      if (answer.remaining !== null) return answer;
      assert.equal(answer.remaining_status, 'counting');
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('compiles once, stores the form by SHA-256, and another instance loads it instead of compiling', async () => {
    const decisions = { selected: ['F3_1'], deselected: ['F7_2'] };
    const first = await counted(a, decisions);
    assert.deepEqual(formsOf(a), { loaded: 0, compiled: 1 }, 'the first instance compiled the model once');
    // Stored in the background after the reply: waited for by its key.
    while (!(await a.hub.ctx.store.stat(compiledFormKey(SHA256)))) await new Promise((r) => setTimeout(r, 50));

    b = await startTestServer({ databaseUrl: a.database.url, workingDir: a.workingDir, env: { ANALYSIS_WORKERS: '0' } });
    const step = await configure(b, decisions);
    assert.equal(step.remaining, first.remaining, 'the first step of the second instance is counted at once, with the same count');
    assert.equal(step.remaining_status, 'exact');
    const commonality = await waitForResult(`${b.baseUrl}/api/v1/files/${fileId}/commonality`);
    assert.ok(BigInt(commonality.configurations) > 0n);
    assert.equal(formsOf(b).compiled, 0, 'the second instance compiled nothing');
    assert.ok(formsOf(b).loaded >= 1, 'it loaded the stored form');
  });

  it('compiles again a stored form it cannot read, and replaces it', async () => {
    await a.hub.ctx.store.put(compiledFormKey(SHA256), Buffer.from('not a compiled form'));
    const c = await startTestServer({ databaseUrl: a.database.url, workingDir: a.workingDir, env: { ANALYSIS_WORKERS: '0' } });
    try {
      const answer = await counted(c, { selected: ['F1_0'], deselected: [] });
      assert.equal(answer.remaining_status, 'exact');
      assert.equal(formsOf(c).compiled, 1, 'compiled again');
      for (;;) {
        const stored = await c.hub.ctx.store.stat(compiledFormKey(SHA256));
        if (stored && stored.size > 100) break;
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await c.close();
    }
  });
});
