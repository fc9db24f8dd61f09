// Structured request logs carry a request id and never a password, cookie or token (issue 2, operations).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TestClient } from '../../test/support/client.ts';
import { startLoggedHub } from '../../test/support/logged-hub.ts';

describe('request logging', () => {
  it('logs each request with an id and leaks no password, session cookie or CSRF token', async () => {
    const logged = await startLoggedHub('info', 'hub-log-');
    const lines = logged.lines;
    try {
      const c = new TestClient(logged.baseUrl);
      await c.get('/signup/');
      await c.post('/signup/', { form: { email: 'logged@example.com', password: 'Sup3r-Secret-Passw0rd', name: 'L', surname: 'G' } });
      await c.get('/login');
      await c.post('/login', { form: { email: 'user1@example.com', password: 'Other-Secret-Passw0rd' } });
      await c.get('/profile/summary');
      const log = lines.join('');
      assert.ok(lines.length > 4, 'requests are logged');
      assert.ok(lines.every((l) => { try { JSON.parse(l); return true; } catch { return false; } }), 'every line is JSON');
      assert.match(log, /"reqId":"[0-9a-f-]{36}"/);
      assert.ok(!log.includes('Sup3r-Secret-Passw0rd'));
      assert.ok(!log.includes('Other-Secret-Passw0rd'));
      for (const value of c.cookies.values()) assert.ok(!log.includes(value), 'no cookie value in the logs');
      assert.ok(!log.includes(c.csrfToken!), 'no CSRF token in the logs');
    } finally {
      await logged.close();
    }
  });
});
