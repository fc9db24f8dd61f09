// What explore keeps: the page rendered for visitors who are not logged in (explore.routes.ts),
// where each address shows its own query and filters, each session its own CSRF token, and a
// logged-in visitor gets the page made for them; and search answers on SQLite while nothing was
// written (explore.answers.ts), whichever instance writes.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { unmaskCsrfToken } from '../../core/http/csrf-tokens.ts';
import { TestClient } from '../../../test/support/client.ts';
import { newUser } from '../../../test/support/accounts.ts';
import { uploadDataset } from '../../../test/support/uploads.ts';
import { testDialects } from '../../../test/support/databases.ts';
import type { Db } from '../../core/db/connect.ts';
import { SearchAnswers } from './explore.answers.ts';
import type { SearchRequest } from './explore.service.ts';

const tokenOf = (html: string) => /name="csrf-token" content="([^"]+)"/.exec(html)?.[1];
const queryValue = (html: string) => /id="query" name="query" value="([^"]*)"/.exec(html)?.[1];

describe('the explore page for visitors who are not logged in', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer({ seed: true }); });
  after(async () => { await server.close(); });

  it('shows each address its own query and filters, however often it was asked for', async () => {
    const c = new TestClient(server.baseUrl);
    for (let i = 0; i < 2; i++) {
      const plain = await c.get('/explore');
      assert.equal(plain.status, 200);
      assert.equal(queryValue(plain.text), '');
      const asked = await c.get('/explore?query=%3Cb%3Ebrake&features_min=12');
      assert.equal(queryValue(asked.text), '&lt;b&gt;brake', 'the query is escaped, as rendered');
      assert.match(asked.text, /name="features_min" value="12"/);
      assert.match(asked.text, /<details[^>]*id="model-filters" open>/);
      assert.doesNotMatch(plain.text, /id="model-filters" open/);
    }
  });

  it('gives every session its own CSRF token, one that its forms are accepted with', async () => {
    const one = new TestClient(server.baseUrl);
    const two = new TestClient(server.baseUrl);
    const first = await one.get('/explore');
    const second = await two.get('/explore');
    assert.ok(first.setCookies.get('session') && second.setCookies.get('session'), 'each first visit starts its session');
    assert.notEqual(unmaskCsrfToken(tokenOf(first.text)!), unmaskCsrfToken(tokenOf(second.text)!));
    // Masked afresh on every compressible answer (csrf-tokens.ts), the same token underneath.
    assert.equal(unmaskCsrfToken(tokenOf((await one.get('/explore')).text)!), unmaskCsrfToken(tokenOf(first.text)!), 'a returning visitor keeps its token');
    const wrong = await one.post('/login', { form: { email: 'user1@example.com', password: 'not it', csrf_token: tokenOf(first.text)! } });
    assert.equal(wrong.status, 200, 'a CSRF failure would be a 400');
    const elsewhere = await two.post('/login', { form: { email: 'user1@example.com', password: 'not it', csrf_token: tokenOf(first.text)! } });
    assert.equal(elsewhere.status, 400, 'the token is worth nothing in another session');
  });

  it('makes the page for a logged-in visitor, with what only they see', async () => {
    const anonymous = new TestClient(server.baseUrl);
    assert.doesNotMatch((await anonymous.get('/explore')).text, /id="explore-save"/);
    const user = new TestClient(server.baseUrl);
    await user.get('/login');
    assert.equal((await user.post('/login', { form: { email: 'user1@example.com', password: '1234' } })).status, 302);
    const page = await user.get('/explore');
    assert.match(page.text, /id="explore-save"/, 'the saved search of the collection module');
    assert.match(page.text, /user1@example\.com|Doe|Logout|logout/i);
    assert.doesNotMatch((await anonymous.get('/explore')).text, /id="explore-save"/, 'and the kept page is still the anonymous one');
  });
});

for (const dialect of testDialects()) describe(`search answers kept while nothing is written [${dialect.name}]`, () => {
  let server: TestServer;
  const searchQueries: string[] = [];
  before(async () => {
    // No background analysis: its writes would change the stamp (and the facts) between two searches.
    server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { ANALYSIS_WORKERS: '0' }, onQuery: (sql) => { if (/from [`"]?explore_search\b/i.test(sql)) searchQueries.push(sql); } });
  });
  after(async () => { await server.close(); });

  const search = async (body: unknown) => {
    const res = await fetch(`${server.baseUrl}/explore`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal(res.status, 200);
    return (await res.json()) as { title: string }[];
  };
  const titles = async (query: string) => (await search({ query })).map((r) => r.title);

  it('answers a repeated search without its queries on SQLite (with them elsewhere), and a different one with them', async () => {
    const first = await search({ query: 'sample' });
    assert.ok(first.length > 0);
    const before = searchQueries.length;
    assert.ok(before > 0, 'the search index was queried');
    // The same datasets (their models' analysis may finish in between, which changes their facts).
    assert.deepEqual((await search({ query: 'sample' })).map((r) => r.title), first.map((r) => r.title));
    // Only SQLite has a change stamp that says the index is unchanged: elsewhere the search runs again.
    if (dialect.name === 'sqlite') assert.equal(searchQueries.length, before, 'the same search again runs no query');
    else assert.ok(searchQueries.length > before, 'the same search again runs its queries');
    const again = searchQueries.length;
    assert.ok((await search({ query: 'sample', sorting: 'oldest' })).length > 0);
    assert.ok(searchQueries.length > again, 'another search runs its own');
  });

  it('shows a dataset published on this instance at once', async () => {
    assert.deepEqual(await titles('okapi'), []);
    const { client } = await newUser(server, 'Okapi');
    await uploadDataset(client, 'Okapi models', [['okapi.uvl', 'features\n    Okapi\n']]);
    assert.deepEqual(await titles('okapi'), ['Okapi models']);
  });

  it('shows a dataset published by another instance on the same database at once', async () => {
    assert.deepEqual(await titles('quagga'), []);
    const other = await startTestServer({ databaseUrl: server.database.url, workingDir: server.workingDir });
    try {
      const { client } = await newUser(other, 'Quagga');
      await uploadDataset(client, 'Quagga models', [['quagga.uvl', 'features\n    Quagga\n']]);
    } finally {
      await other.close();
    }
    assert.deepEqual(await titles('quagga'), ['Quagga models']);
  });
});

describe('search answers without a change stamp (PostgreSQL, MariaDB)', () => {
  const request = (query: string): SearchRequest => ({ query, publicationType: 'any', tags: [], sorting: 'newest', limit: null, offset: 0 });
  const turnOver = () => new Promise((resolve) => setImmediate(resolve));

  it('runs equal searches read in one turn once, different ones each, and nothing kept once the turn is over', async () => {
    // A database without a change stamp: any but SQLite's.
    const answers = new SearchAnswers({} as Db);
    const runs: string[] = [];
    const search = (query: string) => () => { runs.push(query); return Promise.resolve([{ query, run: runs.length }]); };
    const together = [answers.answer(request('a'), search('a')), answers.answer(request('a'), search('a')), answers.answer(request('b'), search('b'))];
    assert.deepEqual(runs, [], 'the queries wait for the end of the turn');
    const [one, two, other] = await Promise.all(together);
    assert.equal(two, one);
    assert.deepEqual(JSON.parse(other!), [{ query: 'b', run: 2 }]);
    assert.deepEqual(runs, ['a', 'b']);
    await turnOver();
    const later = await answers.answer(request('a'), search('a'));
    assert.deepEqual(JSON.parse(later), [{ query: 'a', run: 3 }], 'a search after the turn runs again');
  });
});
