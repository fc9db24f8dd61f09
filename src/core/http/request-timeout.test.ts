// A request must arrive within REQUEST_TIMEOUT_MS (extensions section 10: one requester never
// stalls everybody else). Fastify turns Node's limit off, so a client that dripped a body one byte
// at a time, or sent none after its headers, kept its connection open for ever. The limit is about
// the server's sockets, not the database: SQLite alone.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';

const LIMIT_MS = 1500;

/** Sends `head` on a new connection, then one byte every `dripMs` while the socket stays open; answers what came back and when. */
function slowRequest(port: number, head: string, dripMs: number | undefined, giveUpMs: number)
  : Promise<{ text: string; closedAfterMs: number | undefined }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket: Socket = connect(port, '127.0.0.1');
    let text = '';
    let drip: NodeJS.Timeout | undefined;
    const finish = (closed: boolean) => {
      clearInterval(drip);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ text, closedAfterMs: closed ? Date.now() - started : undefined });
    };
    const giveUp = setTimeout(() => finish(false), giveUpMs);
    socket.on('connect', () => {
      socket.write(head);
      if (dripMs !== undefined) drip = setInterval(() => { if (socket.writable) socket.write(' '); }, dripMs);
    });
    socket.on('data', (chunk) => { text += chunk.toString('latin1'); });
    socket.on('close', () => finish(true));
    socket.on('error', () => {});
  });
}

describe('requests that take too long to arrive', () => {
  let server: TestServer;
  let port: number;
  before(async () => {
    server = await startTestServer({ env: { REQUEST_TIMEOUT_MS: String(LIMIT_MS) } });
    port = Number(new URL(server.baseUrl).port);
  });
  after(async () => { await server?.close(); });

  it('closes a body dripped one byte at a time once REQUEST_TIMEOUT_MS has passed: 408, the page or {"message"}', async () => {
    const form = await slowRequest(port, 'POST /explore HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n', 200, LIMIT_MS * 6);
    assert.notEqual(form.closedAfterMs, undefined, 'the connection was closed by the hub');
    assert.ok(form.closedAfterMs! >= LIMIT_MS - 100, `not before the limit (${form.closedAfterMs} ms)`);
    assert.match(form.text, /^HTTP\/1\.1 408 /);
    assert.match(form.text, /The request took too long to arrive/);
    const api = await slowRequest(port, 'POST /api/v1/search HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{', 200, LIMIT_MS * 6);
    assert.notEqual(api.closedAfterMs, undefined);
    assert.match(api.text, /^HTTP\/1\.1 408 /);
    assert.match(api.text, /\{"message":"The request took too long to arrive\."\}/);
  });

  it('closes a request whose body never comes after its headers', async () => {
    const idle = await slowRequest(port, 'POST /explore HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n', undefined, LIMIT_MS * 6);
    assert.notEqual(idle.closedAfterMs, undefined, 'the connection was closed by the hub');
    assert.match(idle.text, /^HTTP\/1\.1 408 /);
  });

  it('leaves requests that arrive in time alone, and the hub answers others meanwhile', async () => {
    const pending = slowRequest(port, 'POST /explore HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n', 200, LIMIT_MS * 6);
    const client = new TestClient(server.baseUrl);
    assert.equal((await client.get('/')).status, 200);
    const search = await client.post('/explore', { json: { query: '' }, csrf: false });
    assert.equal(search.status, 200);
    assert.match((await pending).text, /^HTTP\/1\.1 408 /);
  });
});
