// A real OpenID provider for the ORCID sign-in tests (npm oidc-provider), on loopback: its
// development login form accepts any login (the test types an ORCID iD) and any password. The
// hub's port is known only once it listens, so the provider's HTTP server starts first (the hub's
// ORCID_ISSUER needs its address) and the provider itself is made when the callback is known.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import assert from 'node:assert/strict';
import Provider from 'oidc-provider';
import { TestClient } from './client.ts';

export const TEST_CLIENT = { id: 'hub-test-client', secret: 'hub-test-client-secret-long-enough' };

export interface TestOidcProvider {
  issuer: string;
  /** The env of a hub that signs in with this provider. */
  env: Record<string, string>;
  /** Registers the hub's callback address (call once the hub listens). */
  serve(redirectUri: string): void;
  /** The names the provider puts in the ID token of a login (an ORCID iD). */
  names: Map<string, { given_name: string; family_name: string }>;
  close(): Promise<void>;
}

export async function startTestOidcProvider(): Promise<TestOidcProvider> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server = createServer((req, res) => {
    if (handler) return handler(req, res);
    res.statusCode = 503;
    res.end('not ready');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const names = new Map<string, { given_name: string; family_name: string }>();
  return {
    issuer,
    env: { ORCID_CLIENT_ID: TEST_CLIENT.id, ORCID_CLIENT_SECRET: TEST_CLIENT.secret, ORCID_ISSUER: issuer },
    names,
    serve(redirectUri) {
      const provider = new Provider(issuer, {
        clients: [{
          client_id: TEST_CLIENT.id, client_secret: TEST_CLIENT.secret, redirect_uris: [redirectUri],
          grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic',
        }],
        // ORCID puts the names in the ID token of the openid scope.
        claims: { openid: ['sub', 'given_name', 'family_name'] },
        conformIdTokenClaims: false,
        pkce: { required: () => true },
        cookies: { keys: ['test-provider-cookie-key'] },
        features: { devInteractions: { enabled: true } },
        findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub, ...(names.get(sub) ?? {}) }) }),
      });
      handler = provider.callback();
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/**
 * From the hub's redirect to the test provider back to the hub's callback, as a person goes: the
 * provider's development login form (any password) and its consent form. The hub path to open next.
 */
export async function throughProvider(provider: TestOidcProvider, hubBaseUrl: string, start: string, orcid: string): Promise<string> {
  const at = new TestClient(provider.issuer);
  const pathOf = (url: string) => {
    const parsed = new URL(url, provider.issuer);
    return parsed.pathname + parsed.search;
  };
  let location = start;
  for (let step = 0; step < 12; step++) {
    if (location.startsWith(hubBaseUrl)) return location.slice(hubBaseUrl.length);
    const res = await at.get(pathOf(location));
    if (res.location) {
      location = new URL(res.location, provider.issuer).toString();
      continue;
    }
    const action = /<form[^>]*action="([^"]+)"/.exec(res.text)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(res.text)?.[1];
    assert.ok(action && prompt, `a provider form at ${location}: ${res.status}`);
    const posted = await at.post(pathOf(action), { form: prompt === 'login' ? { prompt, login: orcid, password: 'any password' } : { prompt } });
    assert.ok(posted.location, `the provider answers ${action} with a redirect`);
    location = new URL(posted.location, provider.issuer).toString();
  }
  throw new Error('the provider never sent the browser back to the hub');
}

/** ORCID's sign-in of `client` (a browser on the hub) from the hub's button to the path the callback sends it to. */
export async function signInWithOrcid(provider: TestOidcProvider, client: TestClient, orcid: string): Promise<string> {
  const start = await client.get('/login/orcid');
  assert.equal(start.status, 303, 'the hub sends the browser to ORCID');
  const callback = await client.get(await throughProvider(provider, client.baseUrl, start.location!, orcid));
  assert.equal(callback.status, 303, 'the callback redirects');
  return callback.location!;
}
