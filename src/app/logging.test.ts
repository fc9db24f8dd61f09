// Structured request logs carry a request id and never a password, cookie or token (issue 2, operations).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { buildApp } from './app.ts';
import { loadConfig, projectPath } from '../core/config.ts';
import { runSeeders } from '../core/modules.ts';
import { TestClient } from '../../test/support/client.ts';

describe('request logging', () => {
  it('logs each request with an id and leaks no password, session cookie or CSRF token', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hub-log-'));
    const lines: string[] = [];
    const stream = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
    const config = loadConfig({ WORKING_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'hub.sqlite')}`, HUB_MODULES_FILE: projectPath('modules.json'), SECRET_KEY: 's'.repeat(40) });
    const hub = await buildApp(config, { logger: { level: 'info', stream, redact: ['req.headers.cookie', 'req.headers.authorization', 'req.headers["x-csrftoken"]'] } });
    try {
      await runSeeders(hub.ctx, hub.modules);
      await hub.app.listen({ port: 0, host: '127.0.0.1' });
      const c = new TestClient(`http://127.0.0.1:${(hub.app.server.address() as AddressInfo).port}`);
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
      await hub.app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
