// The OpenID Connect side of ORCID sign-in, through openid-client: the provider's metadata is
// discovered once (and again after a failure), each sign-in gets its own state, nonce and PKCE
// verifier, and the callback is checked against all three by the library.
import * as oidc from 'openid-client';
import type { OrcidSettings } from '../../core/config.ts';

/** What a sign-in must remember between the redirect and the callback (kept in the session). */
export interface PendingSignIn {
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
}

export interface OrcidIdentity {
  orcid: string;
  givenName: string;
  familyName: string;
}

export class OrcidSignInError extends Error {}

const ORCID_ID = /^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/;

export function createOrcidClient(settings: OrcidSettings) {
  let configuration: Promise<oidc.Configuration> | undefined;

  function discovered(): Promise<oidc.Configuration> {
    if (!configuration) {
      const issuer = new URL(settings.issuer);
      // config.ts accepts http:// only on a loopback address (the tests' own provider).
      const options = issuer.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : undefined;
      configuration = oidc.discovery(issuer, settings.clientId, settings.clientSecret, undefined, options);
      configuration.catch(() => { configuration = undefined; });
    }
    return configuration;
  }

  return {
    /** The provider's authorization URL for a new sign-in, and what the callback must check. */
    async start(redirectUri: string): Promise<{ url: string; pending: PendingSignIn }> {
      const config = await discovered();
      const pending: PendingSignIn = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier(), redirectUri };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid',
        state: pending.state,
        nonce: pending.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
        code_challenge_method: 'S256',
      });
      return { url: url.href, pending };
    },

    /** Checks the callback (state, then the code with the PKCE verifier, then the ID token's nonce) and reads the iD and names. */
    async finish(callbackUrl: URL, pending: PendingSignIn): Promise<OrcidIdentity> {
      const config = await discovered();
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        expectedState: pending.state, expectedNonce: pending.nonce, pkceCodeVerifier: pending.verifier, idTokenExpected: true,
      }, { redirect_uri: pending.redirectUri });
      const claims = tokens.claims();
      if (!claims || typeof claims.sub !== 'string' || !ORCID_ID.test(claims.sub)) {
        throw new OrcidSignInError('The provider did not answer with an ORCID iD.');
      }
      const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
      let givenName = text(claims.given_name);
      let familyName = text(claims.family_name);
      if (!givenName && !familyName) [givenName = '', familyName = ''] = text(claims.name).split(/\s+(?=\S+$)/);
      return { orcid: claims.sub, givenName: givenName ?? '', familyName: familyName ?? '' };
    },
  };
}

export type OrcidClient = ReturnType<typeof createOrcidClient>;
