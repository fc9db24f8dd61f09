// `hub remote import` (extensions section 13) against a real hub on an ephemeral port, run as a
// child process as a CI job would: the hub fetches a model served by the test into a new dataset
// (printing its id) or into a given one, publishes with --publish, and refusals exit 1 with the reason.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { newUser } from '../../test/support/accounts.ts';
import { CAR_UVL, PHONE_UVL, bearer, createToken } from '../../test/support/api.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function hub(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  return new Promise((done) => {
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
    execFile(process.execPath, [join(root, 'bin/hub.mjs'), 'remote', 'import', ...args], { env: childEnv }, (error, out, err) => {
      done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out, err });
    });
  });
}

describe('hub remote import', () => {
  let server: TestServer;
  let source: Server;
  let origin = '';
  let env: Record<string, string>;
  before(async () => {
    server = await startTestServer({ env: { ANALYSIS_WORKERS: '0' } });
    source = createServer((req, res) => (req.url === '/phone.uvl' ? res.end(PHONE_UVL) : req.url === '/car.uvl' ? res.end(CAR_UVL) : res.writeHead(404).end()));
    await new Promise<void>((r) => source.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
    const { client } = await newUser(server, 'Remote');
    env = { HUB_URL: server.baseUrl, HUB_TOKEN: await createToken(client, ['read', 'write']) };
  });
  after(async () => {
    await server?.close();
    await new Promise((r) => source?.close(r));
  });

  it('imports into a new dataset and prints its id, then into that dataset, then publishes with --publish', async () => {
    const first = await hub([`${origin}/phone.uvl`, '--title', 'Imported by CI'], env);
    assert.equal(first.code, 0, first.err);
    const id = Number(first.out.trim());
    assert.ok(id > 0, first.out);
    assert.match(first.err, /Added phone\.uvl/);
    const second = await hub([`${origin}/car.uvl`, '--dataset', String(id), '--publish'], env);
    assert.equal(second.code, 0, second.err);
    assert.match(second.out.trim(), /^10\.\d+\/\S+$/);
    const dataset = await bearer(server.baseUrl, env.HUB_TOKEN!, 'GET', `/api/v1/datasets/${id}`);
    assert.deepEqual(dataset.json.files.map((f: { file_name: string }) => f.file_name).sort(), ['car.uvl', 'phone.uvl']);
  });

  it('exits 1 with the reason for a URL without a model, a bad dataset id and a missing token', async () => {
    const missing = await hub([`${origin}/nothing.uvl`, '--title', 'Nothing'], env);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /hub remote import: the hub did not import .* \(400: The server answered 404/);
    const bad = await hub([`${origin}/phone.uvl`, '--dataset', 'abc'], env);
    assert.equal(bad.code, 1);
    assert.match(bad.err, /--dataset "abc" is not a dataset id/);
    const noToken = await hub([`${origin}/phone.uvl`], { HUB_URL: server.baseUrl, HUB_TOKEN: '' });
    assert.equal(noToken.code, 1);
    assert.match(noToken.err, /no token/);
  });
});
