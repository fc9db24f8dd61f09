// ORCID settings and the routes without a provider (extensions section 8); the sign-in journeys
// against a real provider are in test/browser/orcid.test.ts.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../core/config.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';

describe('ORCID settings', () => {
  it('are off without credentials, default to orcid.org, and accept http:// only on loopback', () => {
    assert.equal(loadConfig({}).orcid, undefined);
    assert.deepEqual(loadConfig({ ORCID_CLIENT_ID: 'APP-1', ORCID_CLIENT_SECRET: 's' }).orcid, { clientId: 'APP-1', clientSecret: 's', issuer: 'https://orcid.org' });
    assert.equal(loadConfig({ ORCID_CLIENT_ID: 'a', ORCID_CLIENT_SECRET: 's', ORCID_ISSUER: 'http://127.0.0.1:4000/' }).orcid?.issuer, 'http://127.0.0.1:4000');
    assert.throws(() => loadConfig({ ORCID_CLIENT_ID: 'a' }), ConfigError);
    assert.throws(() => loadConfig({ ORCID_CLIENT_ID: 'a', ORCID_CLIENT_SECRET: 's', ORCID_ISSUER: 'http://orcid.example.org' }), /https/);
    assert.throws(() => loadConfig({ ORCID_CLIENT_ID: 'a', ORCID_CLIENT_SECRET: 's', ORCID_ISSUER: 'not a url' }), ConfigError);
  });
});

describe('ORCID routes without settings', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer(); });
  after(async () => server?.close());

  it('shows no button and answers no ORCID route', async () => {
    const client = new TestClient(server.baseUrl);
    for (const path of ['/login', '/signup/']) assert.doesNotMatch((await client.get(path)).text, /orcid-button|Sign in with ORCID/, path);
    assert.equal((await client.get('/login/orcid')).status, 404);
    assert.equal((await client.get('/login/orcid/callback?code=a&state=b')).status, 404);
  });
});

describe('ORCID routes with an unreachable provider', () => {
  let server: TestServer;
  before(async () => {
    // Port 9 (discard) on loopback: nothing answers there.
    server = await startTestServer({ env: { ORCID_CLIENT_ID: 'a', ORCID_CLIENT_SECRET: 's', ORCID_ISSUER: 'http://127.0.0.1:9' } });
  });
  after(async () => server?.close());

  it('offers the button and comes back to the login page with a message when ORCID cannot be reached', async () => {
    const client = new TestClient(server.baseUrl);
    for (const path of ['/login', '/signup/']) assert.match((await client.get(path)).text, /href="\/login\/orcid" id="orcid-button"/, path);
    const start = await client.get('/login/orcid');
    assert.equal(start.status, 303);
    assert.equal(start.location, '/login');
    assert.match((await client.get('/login')).text, /ORCID cannot be reached just now/);
    const callback = await client.get('/login/orcid/callback?code=a&state=b');
    assert.equal(callback.location, '/login');
    assert.match((await client.get('/login')).text, /not started here or has already been used/);
    assert.equal((await client.get('/profile/orcid')).status, 302, 'the profile page needs a login');
  });
});
