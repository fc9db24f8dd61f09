// A file deleted while its job waits for a worker: the worker asks for the model's text (it does
// not hold it), the file is gone, and the reply says so. Nothing is stored for the content: a
// failure stored under its SHA-256 would be answered for every other file with the same model
// (a published version beside the deleted draft) and never computed again.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { storeModelFile } from '../../../test/support/fixtures.ts';
import { createConfiguratorDeps } from './configurator.deps.ts';
import { answerOf, call } from './configurator.calls.ts';

const MODEL = 'features\n    Car\n        optional\n            Radio\n';

describe('a configurator job whose file is deleted before its text is read', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer({ seed: true }); });
  after(async () => { await server?.close(); });

  it('answers gone (a 404 for the request) rather than a failure of the model', async () => {
    const { fileId, key } = await storeModelFile(server, { label: 'Gone', content: MODEL, name: 'gone.uvl' });
    const file = await server.hub.ctx.services.hubfile.getFile(fileId);
    assert.ok(file);
    // The request found the file and knew its content (so the job goes without the text); then the draft was deleted.
    await server.hub.ctx.store.delete(key);
    const d = createConfiguratorDeps(server.hub.ctx);
    const reply = await call(d, { requester: 'test:gone', lane: 'small', flexible: true }, file, { sha256: 'e'.repeat(64), fileName: 'gone.uvl' }, { op: 'tree' });
    assert.equal(reply.kind, 'gone');
    assert.deepEqual(answerOf(reply), { kind: 'not-found' });
  });
});
