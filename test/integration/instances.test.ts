// Several instances of the service on one database (issue 5): sessions, CSRF tokens and
// metric records live in the database, so any instance can answer any request. Runs on
// the first server database of TEST_DATABASE_URLS when there is one (the production
// setup), else on one SQLite file shared by both instances.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { testDialects } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { TestClient, browserOn } from '../support/client.ts';

const dialect = testDialects().find((d) => d.name !== 'sqlite') ?? testDialects()[0]!;

describe(`two instances on one ${dialect.name} database`, () => {
  let a: TestServer;
  let b: TestServer;
  before(async () => {
    a = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true });
    b = await startTestServer({ databaseUrl: a.database.url, workingDir: a.workingDir });
  });
  after(async () => {
    await b?.close();
    await a?.close();
  });

  it('a session created on one instance is valid on the other', async () => {
    const onA = new TestClient(a.baseUrl);
    assert.equal((await onA.login('user1@example.com', '1234')).status, 302);
    const onB = browserOn(b, onA);
    const summary = await onB.get('/profile/summary');
    assert.equal(summary.status, 200);
    assert.match(summary.text, /user1@example\.com/);
    assert.equal((await new TestClient(b.baseUrl).get('/profile/summary')).status, 302, 'without the cookie: the login redirect');
  });

  it('a CSRF token from a page of one instance is accepted by the other, and a forged one refused', async () => {
    const onA = new TestClient(a.baseUrl);
    await onA.login('user2@example.com', '1234');
    await onA.get('/profile/edit');
    const onB = browserOn(b, onA);
    const saved = await onB.post('/profile/edit', { form: { name: 'Jane', surname: 'Across' } });
    assert.equal(saved.status, 302, saved.text.slice(0, 300));
    assert.match((await onA.get('/profile/summary')).text, /Jane Across/);
    const forged = await onB.post('/profile/edit', { form: { name: 'Jane', surname: 'Forged', csrf_token: 'forged' } });
    assert.equal(forged.status, 400);
  });

  it('concurrent downloads of one file with one cookie through both instances leave exactly one record', async () => {
    const file = await a.hub.db.selectFrom('file').select('id').orderBy('id').executeTakeFirstOrThrow();
    const onA = new TestClient(a.baseUrl);
    await onA.login('user1@example.com', '1234');
    const cookie = randomUUID();
    onA.cookies.set('file_download_cookie', cookie);
    const onB = browserOn(b, onA);
    const responses = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? onA : onB).get(`/file/download/${file.id}`)));
    for (const res of responses) assert.equal(res.status, 200);
    const records = await a.hub.db.selectFrom('file_download_record').selectAll().where('file_id', '=', file.id).execute();
    assert.equal(records.length, 1, 'one record per (user, file, cookie), enforced by the database');
    assert.equal(records[0]!.cookie, cookie);
  });
});
