// A real OpenID provider for the ORCID sign-in tests (npm oidc-provider), on loopback: its
// development login form accepts any login (the test types an ORCID iD) and any password. The
// hub's port is known only once it listens, so the provider's HTTP server starts first (the hub's
// ORCID_ISSUER needs its address) and the provider itself is made when the callback is known.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

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
