import { defineModule } from '../../core/modules.ts';
import { createOrcidService } from './orcid.service.ts';
import { orcidRoutes } from './orcid.routes.ts';
import './orcid.tables.ts';

// Sign-in with ORCID through OpenID Connect (extensions section 8). Without ORCID_CLIENT_ID and
// ORCID_CLIENT_SECRET the module answers nothing and the login, sign-up and profile pages show no
// ORCID button. Accounts and profiles are made through the auth and profile services.
export const orcidModule = defineModule({
  name: 'orcid',
  requires: ['auth', 'profile', 'mail'],
  createService: (ctx) => createOrcidService(ctx),
  // Every page's template learns whether to offer ORCID (the login, sign-up and profile pages ask).
  setup: (app, ctx) => {
    // A password reset names the linked iD, and ends a link made without a confirmed address
    // (extensions section 11); registered even without ORCID settings, since links outlive them.
    ctx.services.auth.addSignInMethods({
      describe: (userId) => ctx.services.orcid.describeLink(userId),
      onPasswordReset: (trx, userId) => ctx.services.orcid.unlinkUnconfirmed(trx, userId),
    });
    if (!ctx.config.orcid) return;
    // @fastify/view merges reply.locals into every view's data; its types do not declare it.
    app.addHook('onRequest', (_request, reply, done) => {
      const withLocals = reply as unknown as { locals: Record<string, unknown> | null };
      withLocals.locals = { ...withLocals.locals, orcidSignIn: true };
      done();
    });
  },
  routes: orcidRoutes,
});
