// The foundation over HTTP (decisions sections 1 and 3; specification, Endpoints): every page's
// layout, the assets route of every feature, the address guard, production cookies and error pages.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { projectPath } from '../core/config.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { TestClient } from '../../test/support/client.ts';
import { testDialects } from '../../test/support/databases.ts';

/** What a stack trace or a database error looks like in a page: none of it may reach a visitor. */
const LEAKS = /\n\s+at |SqliteError|no such table|relation .* does not exist|doesn't exist|node_modules|\.ts:\d+/;

describe('every feature serves its assets at /<feature>/<subfolder>/<filename> (production selection)', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer({ env: { FLASK_ENV: 'production' } }); });
  after(async () => { await server?.close(); });

  const features = ['auth', 'profile', 'dataset', 'modeltool', 'explore', 'hubfile', 'webhook'];

  it('serves each feature script as JavaScript, without login, and includes it on every page', async () => {
    const home = await new TestClient(server.baseUrl).get('/');
    for (const feature of features) {
      const res = await fetch(`${server.baseUrl}/${feature}/js/scripts.js`);
      assert.equal(res.status, 200, `${feature} script`);
      assert.match(res.headers.get('content-type') ?? '', /javascript/);
      assert.ok(home.text.includes(`<script src="/${feature}/js/scripts.js"`), `${feature} script included on the page`);
    }
  });

  it('answers 404 to unknown files and to every path traversal attempt', async () => {
    const attempts = [
      '/auth/js/nope.js', '/auth/js/', '/auth/', '/webhook/js/../../webhook.routes.ts',
      '/auth/../core/config.ts', '/auth/%2e%2e/auth.service.ts', '/auth/js/..%2f..%2fauth.service.ts',
      '/profile/js/..%2F..%2F..%2F..%2Fpackage.json', '/dataset/js/%2e%2e%2f%2e%2e%2fdataset.service.ts',
      '/hubfile/..%5chubfile.service.ts', '/explore/js/%2e%2e/%2e%2e/module.ts', '/modeltool/js/....//module.ts',
      '/static/../package.json', '/vendor/bootstrap/../package.json',
    ];
    for (const path of attempts) {
      // fetch would normalise `..` away; node's http keeps the path exactly as written.
      const { status, body } = await rawGet(server.baseUrl, path);
      assert.equal(status, 404, path);
      assert.doesNotMatch(body, /import |export |"dependencies"/, `${path} leaks no source`);
    }
  });
});

describe('pages and guards', () => {
  let server: TestServer;
  before(async () => { server = await startTestServer({ seed: true }); });
  after(async () => { await server?.close(); });

  it('every page carries the CSRF meta tag, the phone viewport and a collapsing navigation', async () => {
    const c = new TestClient(server.baseUrl);
    const anonymous = ['/', '/login', '/signup/', '/explore', '/doi/10.1234/dataset1/', '/no-such-page'];
    for (const path of anonymous) {
      const res = await c.get(path);
      assert.match(res.text, /<meta name="csrf-token" content="[^"]+">/, path);
      assert.match(res.text, /<meta name="viewport" content="width=device-width, initial-scale=1">/, path);
      assert.match(res.text, /class="navbar-toggler"[^>]*data-bs-target="#main-nav"/, path);
      assert.match(res.text, /class="collapse navbar-collapse" id="main-nav"/, path);
    }
    await c.login('user1@example.com', '1234');
    for (const path of ['/profile/summary', '/profile/edit', '/dataset/list', '/dataset/upload']) {
      const res = await c.get(path);
      assert.equal(res.status, 200, path);
      assert.match(res.text, /<meta name="csrf-token" content="[^"]+">/, path);
    }
  });

  it('refuses a NUL character anywhere in the address with 400, in the shape of the route', async () => {
    const page = await new TestClient(server.baseUrl).get('/doi/10.1234/a%00b/');
    assert.equal(page.status, 400);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    const json = await new TestClient(server.baseUrl).get('/file/view/1%00');
    assert.equal(json.status, 400);
    assert.ok(typeof json.json?.message === 'string');
    assert.equal((await new TestClient(server.baseUrl).get('/explore?query=a%00b')).status, 400);
    // Also an unknown address of a visitor without a session, which is otherwise answered before the session plugin.
    const unknown = await new TestClient(server.baseUrl).get('/no/such%00page');
    assert.equal(unknown.status, 400);
    assert.match(unknown.headers.get('content-type') ?? '', /text\/html/);
  });

  it('answers 405 with Allow to a known address asked with a method it does not offer, 404 to an unknown one', async () => {
    // The specification lists each path's methods (and spells the 405 out for the webhook); Flask
    // answers any other method of a matching rule with 405, before the login and CSRF checks.
    const cases: [string, string, string, 'html' | 'json'][] = [
      ['PUT', '/profile/edit', 'GET, HEAD, POST', 'html'],
      ['DELETE', '/login', 'GET, HEAD, POST', 'html'],
      ['PATCH', '/signup/', 'GET, HEAD, POST', 'html'],
      ['GET', '/dataset/file/upload', 'POST', 'html'],
      ['GET', '/dataset/file/delete', 'POST', 'html'],
      ['PUT', '/dataset/upload', 'GET, HEAD, POST', 'html'],
      ['DELETE', '/doi/10.1234/dataset1/', 'GET, HEAD', 'html'],
      ['PUT', '/explore', 'GET, HEAD, POST', 'html'],
      ['POST', '/dataset/download/1', 'GET, HEAD', 'html'],
      ['DELETE', '/file/view/1', 'GET, HEAD', 'json'],
      ['POST', '/modeltool/check_uvl/1', 'GET, HEAD', 'json'],
    ];
    const anonymous = new TestClient(server.baseUrl);
    const user = new TestClient(server.baseUrl);
    await user.login('user1@example.com', '1234');
    for (const client of [anonymous, user]) {
      for (const [method, path, allow, kind] of cases) {
        const res = await client.request(method, path, { csrf: false });
        assert.equal(res.status, 405, `${method} ${path}`);
        assert.equal(res.headers.get('allow'), allow, `${method} ${path}`);
        if (kind === 'json') assert.equal(res.json?.message, `${method} is not allowed here.`);
        else assert.match(res.text, /<h1[^>]*>405<\/h1>/, `${method} ${path}`);
      }
    }
    // The API's own 405 routes are not offered methods.
    const options = await anonymous.request('OPTIONS', '/api/v1/datasets/');
    assert.equal(options.status, 405);
    assert.equal(options.headers.get('allow'), 'GET, HEAD, POST');
    for (const path of ['/no-such-page', '/file/view/abc', '/dataset/file/nope']) {
      assert.equal((await anonymous.request('PUT', path)).status, 404, path);
      assert.equal((await anonymous.get(path)).status, 404, path);
    }
  });

  it('refuses a NUL character inside a JSON body with 400 JSON before any module stores it', async () => {
    const c = new TestClient(server.baseUrl);
    await c.login('user1@example.com', '1234');
    await c.get('/'); // the page's CSRF token of the logged-in session
    const before = await c.get('/api/v1/datasets/?per_page=1000');
    const res = await c.post('/api/v1/datasets/', {
      json: { name: 'nul\u0000inside', description: 'd', publication_type: 'none', tags: ['a', { deep: ['x\u0000'] }] },
    });
    assert.equal(res.status, 400);
    assert.match(res.json?.message ?? '', /NUL/);
    const after = await c.get('/api/v1/datasets/?per_page=1000');
    assert.equal(after.json?.total, before.json?.total, 'nothing was created');
    const plain = await c.post('/api/v1/datasets/', { json: { name: 'no nul here', description: 'd', publication_type: 'none', tags: 't' } });
    assert.equal(plain.status, 201, `the same request without the NUL is accepted: ${plain.status} ${plain.text}`);
  });

  it('keeps the templates free of inline scripts, inline styles and on* handlers (the CSP blocks them)', () => {
    const templates: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir)) {
        const path = join(dir, entry);
        if (statSync(path).isDirectory()) walk(path);
        else if (entry.endsWith('.njk')) templates.push(path);
      }
    };
    walk(projectPath('src'));
    assert.ok(templates.length > 5);
    for (const path of templates) {
      const text = readFileSync(path, 'utf8');
      // A JSON-LD data block is never executed (the CSP does not apply to it); any other script has a src.
      for (const tag of text.match(/<script\b[^>]*>/g) ?? []) assert.match(tag, /\ssrc="|\stype="application\/ld\+json"/, `${path}: inline <script>`);
      assert.doesNotMatch(text, /<style\b/, `${path}: <style> element`);
      assert.doesNotMatch(text, /\sstyle="/, `${path}: style attribute`);
      assert.doesNotMatch(text, /\son[a-z]+="/, `${path}: on* handler`);
      assert.doesNotMatch(text, /href="javascript:/, `${path}: javascript: link`);
    }
  });
});

for (const dialect of testDialects()) {
  describe(`production [${dialect.name}]`, () => {
    let server: TestServer;
    /** The session-row lookups the hub ran. */
    const sessionQueries: string[] = [];
    before(async () => {
      server = await startTestServer({
        databaseBaseUrl: dialect.baseUrl, seed: true, env: { FLASK_ENV: 'production' },
        onQuery: (sql) => { if (/from [`"]session[`"] where/i.test(sql) && /^select/i.test(sql)) sessionQueries.push(sql); },
      });
    });
    after(async () => { await server?.close(); });

    it('sends the session cookie Secure, HttpOnly, SameSite=Lax for 30 days, also over plain HTTP, and login works', async () => {
      const c = new TestClient(server.baseUrl);
      const form = await c.get('/login');
      const anonymous = form.setCookies.get('session');
      assert.ok(anonymous, 'the form gets a session (its CSRF token belongs to it)');
      assert.equal(form.headers.getSetCookie().filter((c) => c.startsWith('session=')).length, 1, 'one Set-Cookie of the session, not the cookie twice');
      const res = await c.post('/login', { form: { email: 'user1@example.com', password: '1234' } });
      assert.equal(res.status, 302);
      const cookie = res.setCookies.get('session')!;
      for (const flag of [/;\s*Secure/i, /;\s*HttpOnly/i, /;\s*SameSite=Lax/i]) assert.match(cookie, flag);
      const days = (Date.parse(/Expires=([^;]+)/i.exec(cookie)![1]!) - Date.now()) / 86_400_000;
      assert.ok(days > 29 && days <= 30.01, `remembered for 30 days, got ${days}`);
      assert.equal((await c.get('/profile/summary')).status, 200);
    });

    it('keeps an anonymous session in its cookie alone: no row until it holds something, none after logout', async () => {
      const rows = async () => Number((await server.hub.db.selectFrom('session').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      const before = await rows();
      const c = new TestClient(server.baseUrl);
      const first = await c.get('/login');
      assert.ok(first.setCookies.get('session'), 'the first visit gets its session cookie');
      const token = /name="csrf-token" content="([^"]+)"/.exec(first.text)?.[1];
      assert.ok(token);
      const again = await c.get('/no/such/page');
      assert.equal(again.setCookies.get('session'), undefined, 'a returning visitor keeps the cookie it has');
      assert.equal(await rows(), before, 'anonymous visits write no session row');
      // The token of the first page is still the session's: a wrong password is refused as such (not as a CSRF failure).
      const wrong = await c.post('/login', { form: { email: 'user1@example.com', password: 'not it', csrf_token: token! } });
      assert.equal(wrong.status, 200, 'a CSRF failure would be a 400');
      const forged = await new TestClient(server.baseUrl).post('/login', { form: { email: 'user1@example.com', password: '1234', csrf_token: token! } });
      assert.equal(forged.status, 400, 'the token is worth nothing in another session');
      const login = await c.post('/login', { form: { email: 'user1@example.com', password: '1234' } });
      assert.equal(login.status, 302);
      assert.equal(await rows(), before + 1, 'a login is stored');
      await c.get('/logout');
      assert.equal(await rows(), before, 'logging out removes it');
      assert.equal((await c.get('/profile/summary')).status, 302, 'and the visitor is anonymous again');
    });

    it('starts no session for a first visit whose answer shows no form (a search\'s JSON); its first page does', async () => {
      const c = new TestClient(server.baseUrl);
      const search = await c.post('/explore', { json: { query: '' }, csrf: false });
      assert.equal(search.status, 200);
      assert.deepEqual(search.headers.getSetCookie(), [], 'no session cookie, no hint');
      const page = await c.get('/login');
      assert.ok(page.setCookies.get('session'), 'a page carries a CSRF token, so its session is kept');
      const token = /name="csrf-token" content="([^"]+)"/.exec(page.text)?.[1];
      assert.ok(token);
      // The token is the session's: a form posted with it is checked as a form.
      const again = await c.post('/explore', { json: { query: '' }, csrf: false });
      assert.equal(again.headers.getSetCookie().length, 0, 'a returning visitor keeps the cookie it has');
      const wrong = await c.post('/login', { form: { email: 'user1@example.com', password: 'not it', csrf_token: token! } });
      assert.equal(wrong.status, 200, 'a CSRF failure would be a 400');
      const noToken = await new TestClient(server.baseUrl).post('/login', { form: { email: 'user1@example.com', password: '1234' }, csrf: false });
      assert.equal(noToken.status, 400, 'a first visit\'s form without a token is still refused');
    });

    it('serves a returning anonymous visitor without a session query while its hint cookie is set; a login removes the hint', async () => {
      const c = new TestClient(server.baseUrl);
      const first = await c.get('/login');
      assert.ok(first.setCookies.get('session_anonymous'), 'a session without a row is marked as such');
      assert.ok(c.cookies.has('session_anonymous'));
      const before = sessionQueries.length;
      const again = await c.get('/no/such/page');
      assert.equal(again.status, 404);
      assert.equal(sessionQueries.length, before, 'no session row is looked up');
      // The hint never hides a row: the answer that writes one removes it.
      const login = await c.post('/login', { form: { email: 'user1@example.com', password: '1234' } });
      assert.equal(login.status, 302);
      assert.equal(c.cookies.has('session_anonymous'), false, 'the login removed the hint');
      assert.equal((await c.get('/profile/summary')).status, 200, 'logged in');
      assert.ok(sessionQueries.length > before, 'a session with a row is read');
      // A forged hint only logs its sender out; without it the session is back.
      c.cookies.set('session_anonymous', '1');
      assert.equal((await c.get('/profile/summary')).status, 302);
      c.cookies.delete('session_anonymous');
      assert.equal((await c.get('/profile/summary')).status, 200);
      await c.get('/logout');
      await c.get('/');
      assert.ok(c.cookies.has('session_anonymous'), 'after logging out no row is left, and the hint says so');
      assert.equal((await c.get('/profile/summary')).status, 302);
    });

    it('answers an anonymous visitor\'s unknown address early with the page, cookies and CSRF token of the full path', async () => {
      const masked = (html: string) => html.replace(/(name="csrf-token" content=|name="csrf_token" value=)"[^"]+"/g, '$1"…"');
      const attributes = (cookie: string) => cookie.split(/;\s*/).slice(1).map((a) => a.replace(/=.*/, '')).sort();
      // A first visit (answered before the session plugin) against one whose session the plugin
      // loads: a cookie without the hint goes the full way.
      const first = new TestClient(server.baseUrl);
      const early = await first.get('/no/such/page');
      assert.equal(early.status, 404);
      const full = new TestClient(server.baseUrl);
      await full.get('/login');
      full.cookies.delete('session_anonymous');
      const before = sessionQueries.length;
      const late = await full.get('/no/such/page');
      assert.equal(late.status, 404);
      assert.equal(sessionQueries.length, before + 1, 'the full path looked the session up');
      assert.equal(masked(early.text), masked(late.text));
      assert.equal(early.headers.get('content-type'), late.headers.get('content-type'));
      // Its cookies are those of a first visit to any page.
      const page = await new TestClient(server.baseUrl).get('/login');
      for (const name of ['session', 'session_anonymous']) {
        assert.ok(early.setCookies.get(name), name);
        assert.deepEqual(attributes(early.headers.getSetCookie().find((c) => c.startsWith(`${name}=`))!), attributes(page.headers.getSetCookie().find((c) => c.startsWith(`${name}=`))!), name);
      }
      const hours = (Date.parse(/Expires=([^;]+)/i.exec(early.headers.getSetCookie().find((c) => c.startsWith('session='))!)![1]!) - Date.now()) / 3_600_000;
      assert.ok(hours > 23.9 && hours <= 24.01, `an anonymous session lasts a day, got ${hours} h`);
      // The page's token belongs to the session it started: a form posted with it is checked as a form.
      const token = /name="csrf-token" content="([^"]+)"/.exec(early.text)![1]!;
      const wrong = await first.post('/login', { form: { email: 'user1@example.com', password: 'not it', csrf_token: token } });
      assert.equal(wrong.status, 200, 'a CSRF failure would be a 400');
      const elsewhere = await new TestClient(server.baseUrl).post('/login', { form: { email: 'user1@example.com', password: 'not it', csrf_token: token } });
      assert.equal(elsewhere.status, 400, 'the token is worth nothing in another session');
      // Back again: no cookie is set, no row is read, and the page carries a token of the same session.
      const queries = sessionQueries.length;
      const again = await first.get('/no/such/page?again');
      assert.equal(again.status, 404);
      assert.equal(again.headers.getSetCookie().length, 0);
      assert.equal(sessionQueries.length, queries);
      const againToken = /name="csrf-token" content="([^"]+)"/.exec(again.text)![1]!;
      assert.equal((await first.post('/login', { form: { email: 'user1@example.com', password: 'not it', csrf_token: againToken } })).status, 200);
      assert.equal((await first.request('HEAD', '/no/such/page')).status, 404);
      // A logged-in visitor's 404 still shows the account, an API client still gets JSON.
      const user = new TestClient(server.baseUrl);
      await user.login('user1@example.com', '1234');
      const mine = await user.get('/no/such/page');
      assert.equal(mine.status, 404);
      assert.match(mine.text, /href="\/logout"/);
      assert.doesNotMatch(early.text, /href="\/logout"/);
      const api = await new TestClient(server.baseUrl).get('/api/v1/no/such/thing');
      assert.equal(api.status, 404);
      assert.equal(api.json?.message, 'Not found');
    });

    it('answers 404 and 500 with a page that shows no stack trace or database error', async () => {
      const c = new TestClient(server.baseUrl);
      const missing = await c.get('/no/such/page');
      assert.equal(missing.status, 404);
      assert.doesNotMatch(missing.text, LEAKS);
      // The address of a JSON document that names nothing answers 404 in JSON, whatever the Accept.
      for (const path of ['/configurator/abc/tree.json', '/no/such/data.json?x=1']) {
        const json = await c.get(path);
        assert.equal(json.status, 404, path);
        assert.match(json.headers.get('content-type') ?? '', /application\/json/, path);
        assert.equal(typeof json.json.message, 'string', path);
      }
      await c.login('user2@example.com', '1234');
      // A broken database under a working page: the table the summary reads is gone for a moment.
      await server.hub.db.schema.alterTable('data_set').renameTo('data_set_gone').execute();
      try {
        const broken = await c.get('/profile/summary');
        assert.equal(broken.status, 500);
        assert.match(broken.text, /Something went wrong/);
        assert.doesNotMatch(broken.text, LEAKS);
        const json = await c.get('/api/v1/datasets/');
        assert.equal(json.status, 500);
        assert.doesNotMatch(json.text, LEAKS);
      } finally {
        await server.hub.db.schema.alterTable('data_set_gone').renameTo('data_set').execute();
      }
    });
  });
}

async function rawGet(baseUrl: string, path: string): Promise<{ status: number; body: string }> {
  const { request } = await import('node:http');
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
