import type { FastifyRequest } from 'fastify';
import { defineModule } from '../../core/modules.ts';
import { forbidden, unauthorized } from '../../core/http/errors.ts';
import { isApiUrl as isApi } from '../../core/http/api-schemas.ts';
import { createTokensService } from './tokens.service.ts';
import { tokensRoutes } from './tokens.routes.ts';

export const tokensModule = defineModule({
  name: 'tokens',
  // Tokens belong to accounts; the page sits under /profile beside the profile pages.
  requires: ['auth'],
  createService: (ctx) => createTokensService(ctx),
  setup: (app, ctx) => {
    // A password reset names the account's tokens and ends them (tokens.service.ts, revokeAllOnReset).
    ctx.services.auth.addSignInMethods({
      describe: (userId) => ctx.services.tokens.describeActive(userId),
      onPasswordReset: (trx, userId) => ctx.services.tokens.revokeAllOnReset(trx, userId),
    });
    const authenticate = async (header: string) => {
      // The scheme's name is case-insensitive (RFC 9110, 11.1): `bearer` is `Bearer`.
      const match = /^Bearer +(\S+) *$/i.exec(header);
      if (!match) throw unauthorized('Bad Authorization header', { message: 'Send the token as "Authorization: Bearer <token>".' });
      const found = await ctx.services.tokens.authenticate(match[1]!);
      const user = await ctx.services.auth.getUser(found.userId);
      if (!user) throw unauthorized('The token is not valid.', { message: 'The token is not valid.' });
      return { id: user.id, email: user.email, displayName: user.email, token: { id: found.tokenId, scopes: found.scopes } };
    };
    // preParsing runs after every onRequest hook, so the token wins over a session cookie
    // sent along (auth resolves the session in onRequest), whatever the module order.
    // Callback style, like the other hooks every request passes: only API requests with an
    // Authorization header do any work here.
    app.addHook('preParsing', (request, _reply, payload, done) => {
      const header = request.headers.authorization;
      // Only the API takes tokens: elsewhere an Authorization header is not ours (the deploy webhook has its own).
      if (header === undefined || !isApi(request.url)) return done(null, payload);
      authenticate(header).then((user) => {
        request.user = user;
        // Extensions section 3: any state change needs the write scope (403 otherwise), said
        // before the body is read: a read-only token learns that, not what is wrong with its body.
        done(writeRefused(request, user.token.scopes), payload);
      }, (error: Error) => done(error));
    });
  },
  routes: tokensRoutes,
});

/** The 403 of a change asked with a token without the write scope, else null. */
function writeRefused(request: FastifyRequest, scopes: readonly string[]): Error | null {
  if (request.is404 || scopes.includes('write')) return null;
  const reads = request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS' || request.routeOptions.config.readOnly === true;
  return reads ? null : forbidden('The token has no write scope.', { message: 'This token has only the read scope: changes need a token with the write scope.' });
}
