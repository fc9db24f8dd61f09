// What explore keeps: the page rendered for visitors who are not logged in (explore.routes.ts),
// where each address shows its own query and filters, each session its own CSRF token, and a
// logged-in visitor gets the page made for them.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';

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
    assert.notEqual(tokenOf(first.text), tokenOf(second.text));
    assert.equal(tokenOf((await one.get('/explore')).text), tokenOf(first.text), 'a returning visitor keeps its token');
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

