// The API's rate limit (extensions section 3): per token, per address for anonymous calls,
// counted in the database so that two instances on one database share the count. No timing
// is asserted: the counter is driven by an injected clock, and the HTTP checks hold whichever
// minute the requests fall into.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { newUser } from '../../../test/support/accounts.ts';
import { bearer, createToken } from '../../../test/support/api.ts';
import { createApiService } from './api.service.ts';

const LIMIT = 3;

for (const dialect of testDialects()) {
  describe(`API rate limit [${dialect.name}]`, () => {
    let first: TestServer;
    let second: TestServer;
    before(async () => {
      first = await startTestServer({ databaseBaseUrl: dialect.baseUrl, env: { API_RATE_LIMIT: String(LIMIT) } });
      // A second instance on the same database (its own process state, the same counters).
      second = await startTestServer({ databaseUrl: first.database.url, env: { API_RATE_LIMIT: String(LIMIT) } });
    });
    after(async () => { await second?.close(); await first?.close(); });

    it('counts per bucket and minute in the database; the minute after starts afresh; Retry-After is the rest of the minute', async () => {
      let now = Date.UTC(2030, 0, 1, 12, 0, 10);
      const clock = () => now;
      const a = createApiService(first.hub.ctx, clock);
      const b = createApiService(second.hub.ctx, clock);
      const bucket = `test:${dialect.name}:${Math.random()}`;
      const answers = [];
      for (let i = 0; i < LIMIT + 2; i++) answers.push(await (i % 2 === 0 ? a : b).countRequest(bucket));
      assert.deepEqual(answers.map((d) => d.allowed), [true, true, true, false, false], 'both instances count into one counter');
      assert.deepEqual(answers[3], { allowed: false, limit: LIMIT, retryAfterSeconds: 50 });
      assert.equal((await a.countRequest(`${bucket}:other`)).allowed, true, 'another caller has its own count');
      now += 50_000;
      assert.deepEqual(await b.countRequest(bucket), { allowed: true, limit: LIMIT, remaining: LIMIT - 1 });
      // Counters of minutes gone are removed.
      now += 120_000;
      await a.countRequest(bucket);
      const windows = await first.hub.db.selectFrom('api_rate_limit').select('window_start').where('bucket', '=', bucket).execute();
      assert.deepEqual(windows.map((w) => Number(w.window_start)), [Math.floor(now / 60_000)]);
    });

    it('answers 429 with Retry-After per token across instances, and per address without a token', async () => {
      const { client } = await newUser(first);
      const token = await createToken(client, ['read']);
      const other = await createToken(client, ['read'], 'other');
      // Within at most two minutes' worth of requests the limit must be hit, alternating instances.
      let refused: Awaited<ReturnType<typeof bearer>> | undefined;
      for (let i = 0; i < 2 * LIMIT + 1 && !refused; i++) {
        const res = await bearer((i % 2 === 0 ? first : second).baseUrl, token, 'GET', '/api/v1/datasets/');
        if (res.status === 429) refused = res;
        else assert.equal(res.status, 200);
      }
      assert.ok(refused, 'a 429 came');
      const retryAfter = Number(refused.headers.get('retry-after'));
      assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, String(retryAfter));
      assert.match(refused.json.message, /Too many requests/);
      assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
      assert.equal((await bearer(first.baseUrl, other, 'GET', '/api/v1/datasets/')).status, 200, 'another token is not limited');

      let anonymous: Response | undefined;
      for (let i = 0; i < 2 * LIMIT + 1 && !anonymous; i++) {
        const res = await fetch(`${(i % 2 === 0 ? first : second).baseUrl}/api/v1/datasets/`);
        await res.arrayBuffer();
        if (res.status === 429) anonymous = res;
      }
      assert.ok(anonymous, 'anonymous calls from one address are limited too');
      assert.ok(anonymous.headers.get('retry-after'));
      // Pages are not API calls: never limited here.
      for (let i = 0; i < LIMIT + 1; i++) assert.equal((await fetch(`${first.baseUrl}/explore`)).status, 200);
    });

    it('counts anonymous calls from one IPv6 /64 as one address, whichever addresses of it they come from', async () => {
      const from = async (server: TestServer, address: string) => {
        const res = await fetch(`${server.baseUrl}/api/v1/datasets/`, { headers: { 'x-forwarded-for': address } });
        await res.arrayBuffer();
        return res.status;
      };
      // A new host address of the same /64 for every call, alternating instances.
      let refused = false;
      for (let i = 0; i < 2 * LIMIT + 1 && !refused; i++) refused = (await from(i % 2 === 0 ? first : second, `2001:db8:${dialect.name.length}:7::${(i + 1).toString(16)}`)) === 429;
      assert.ok(refused, 'changing the host part of the address does not escape the limit');
      assert.equal(await from(first, `2001:db8:${dialect.name.length}:8::1`), 200, 'another /64 has its own count');
    });
  });
}
