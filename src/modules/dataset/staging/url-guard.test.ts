// The import from a URL in production (extensions section 13): no request to an address that is
// not public, checked after resolution and on every redirect, IMPORT_ALLOW_HOSTS the exceptions.
// A local server of the test records every request, so a refusal is shown to have sent nothing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { guardedLookup, isPublicAddress } from './url-guard.ts';
import { fetchLimited, parseImportUrl, UrlImportError, type FetchLimits } from './url-fetch.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { newUser } from '../../../../test/support/accounts.ts';
import { bearer, createToken } from '../../../../test/support/api.ts';

const MODEL = 'namespace Phone\n\nfeatures\n    Phone\n';

async function startTarget(): Promise<{ server: Server; port: number; asked: string[] }> {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    asked.push(`${req.headers.host} ${req.url}`);
    const port = (server.address() as AddressInfo).port;
    if (req.url === '/to-loopback') return res.writeHead(302, { location: `http://127.0.0.1:${port}/phone.uvl` }).end();
    if (req.url === '/to-ipv6-loopback') return res.writeHead(302, { location: `http://[::1]:${port}/phone.uvl` }).end();
    res.end(MODEL);
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  return { server, port: (server.address() as AddressInfo).port, asked };
}

async function refusal(promise: Promise<unknown>): Promise<UrlImportError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof UrlImportError, String(error));
    return error;
  }
  assert.fail('the fetch was expected to be refused');
}

describe('import from a URL: the production address guard', () => {
  let target: Awaited<ReturnType<typeof startTarget>>;
  const limits = (allowHosts: string[] = []): FetchLimits => ({ publicOnly: true, allowHosts, maxBytes: 100_000, timeoutMs: 5000 });

  before(async () => { target = await startTarget(); });
  after(async () => {
    target.server.closeAllConnections();
    await new Promise((resolve) => target.server.close(resolve));
  });

  it('tells public addresses from loopback, private, link-local, unique local and mapped ones', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '2a00:1450:4001:82a::200e']) assert.equal(isPublicAddress(address), true, address);
    for (const address of [
      '127.0.0.1', '127.255.0.9', '10.0.0.1', '172.16.5.4', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
      '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', '::ffff:127.0.0.1', '::ffff:7f00:1',
      '::ffff:10.0.0.1', '64:ff9b::7f00:1', 'not-an-address',
    ]) assert.equal(isPublicAddress(address), false, address);
  });

  it('refuses a name whose resolution gives a loopback address (the lookup the connection uses)', async () => {
    const lookup = guardedLookup('localhost', limits())!;
    const error = await new Promise<Error | null>((resolve) => lookup('localhost', { all: true }, (err) => resolve(err)));
    assert.match(String(error?.message), /not public/);
    assert.equal(guardedLookup('localhost', limits(['localhost'])), undefined, 'an allowed host is not guarded');
  });

  it('sends no request to loopback, private or mapped addresses, given by address or by name', async () => {
    for (const url of [
      `http://127.0.0.1:${target.port}/phone.uvl`, `http://[::1]:${target.port}/phone.uvl`, `http://[::ffff:127.0.0.1]:${target.port}/phone.uvl`,
      `http://localhost:${target.port}/phone.uvl`, `http://0.0.0.0:${target.port}/phone.uvl`,
      // Other spellings of 127.0.0.1, which the URL parser turns into the dotted form.
      `http://2130706433:${target.port}/phone.uvl`, `http://0x7f.0.0.1:${target.port}/phone.uvl`, `http://0177.0.0.1:${target.port}/phone.uvl`, 'http://169.254.169.254/latest/meta-data/', 'http://10.1.2.3/a.uvl',
    ]) {
      const error = await refusal(fetchLimited(parseImportUrl(url), limits()));
      assert.equal(error.kind, 'refused_address', `${url}: ${error.message}`);
    }
    assert.deepEqual(target.asked, []);
  });

  it('fetches an allowed host, but refuses its redirect to loopback', async () => {
    const fetched = await fetchLimited(parseImportUrl(`http://localhost:${target.port}/phone.uvl`), limits(['localhost']));
    assert.equal(fetched.bytes.toString(), MODEL);
    target.asked.length = 0;
    for (const path of ['/to-loopback', '/to-ipv6-loopback']) {
      const error = await refusal(fetchLimited(parseImportUrl(`http://localhost:${target.port}${path}`), limits(['localhost'])));
      assert.equal(error.kind, 'refused_address', error.message);
    }
    assert.deepEqual(target.asked.map((a) => a.split(' ')[1]), ['/to-loopback', '/to-ipv6-loopback'], 'only the allowed host was asked');
  });

  describe('through the API of a production hub', () => {
    let hub: TestServer;
    before(async () => { hub = await startTestServer({ env: { FLASK_ENV: 'production', SECRET_KEY: 'test-secret', ANALYSIS_WORKERS: '0', IMPORT_ALLOW_HOSTS: 'LocalHost' } }); });
    after(async () => hub?.close());

    it('answers 400 refused_address for a loopback URL and sends it nothing; IMPORT_ALLOW_HOSTS lets its host through, not its redirect to loopback', async () => {
      const { client } = await newUser(hub, 'Prod');
      const token = await createToken(client, ['read', 'write']);
      const created = await bearer(hub.baseUrl, token, 'POST', '/api/v1/datasets', { name: 'Guarded' });
      assert.equal(created.status, 201, JSON.stringify(created.json));
      target.asked.length = 0;
      for (const url of [`http://127.0.0.1:${target.port}/phone.uvl`, `http://[::1]:${target.port}/phone.uvl`]) {
        const res = await bearer(hub.baseUrl, token, 'POST', `/api/v1/datasets/${created.json.id}/files/import`, { url });
        assert.equal(res.status, 400, JSON.stringify(res.json));
        assert.equal(res.json.kind, 'refused_address');
      }
      const staged = await client.post('/dataset/file/import', { json: { url: `http://127.0.0.1:${target.port}/phone.uvl` } });
      assert.equal(staged.status, 400);
      assert.equal(staged.json.kind, 'refused_address');
      assert.deepEqual(target.asked, []);

      const allowed = await bearer(hub.baseUrl, token, 'POST', `/api/v1/datasets/${created.json.id}/files/import`, { url: `http://localhost:${target.port}/phone.uvl` });
      assert.equal(allowed.status, 201, JSON.stringify(allowed.json));
      const redirected = await bearer(hub.baseUrl, token, 'POST', `/api/v1/datasets/${created.json.id}/files/import`, { url: `http://localhost:${target.port}/to-loopback` });
      assert.equal(redirected.status, 400);
      assert.equal(redirected.json.kind, 'refused_address');
      assert.deepEqual((target.asked as string[]).map((a) => a.split(' ')[1]), ['/phone.uvl', '/to-loopback'], 'the loopback target of the redirect was never asked');
    });
  });
});
