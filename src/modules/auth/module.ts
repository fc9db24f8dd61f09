import { defineModule } from '../../core/modules.ts';
import { projectPath } from '../../core/config.ts';
import { createAuthService } from './auth.service.ts';
import { authRoutes } from './auth.routes.ts';
import { seedUsers } from './auth.seed.ts';

export const authModule = defineModule({
  name: 'auth',
  // Coupling rule 1: auth and profile each need the other. The account emails go through mail. Login, signup and logout redirect to
  // the landing page `public.index` (specification, auth), so auth needs it too: without it every
  // login would end on a 404, while the original failed building that address.
  requires: ['profile', 'public', 'mail'],
  createService: (ctx) => createAuthService(ctx),
  // Auth configures the session login for every route (Authentication rule 1).
  setup: (app, ctx) => {
    // Callback style: most requests carry no login, and an async hook costs each a promise and a
    // turn of the microtask queue.
    app.addHook('onRequest', (request, _reply, done) => {
      const userId = request.session?.userId;
      if (!userId) return done();
      ctx.services.auth.getUser(userId).then((user) => {
        if (!user) return done();
        // A password reset or change ends the sessions logged in before it (extensions section 5).
        if (user.credentials_changed_at && (request.session.authAt ?? '') < user.credentials_changed_at) {
          // The visitor goes on anonymously in the same session (destroying it here would leave the page without one).
          request.session.userId = undefined;
          request.session.displayName = undefined;
          request.session.authAt = undefined;
          return done();
        }
        request.user = { id: user.id, email: user.email, displayName: request.session.displayName ?? user.email };
        done();
      }, done);
    });
  },
  routes: authRoutes,
  assets: projectPath('src/modules/auth/assets'),
  scripts: ['js/scripts.js'],
  seeders: [{ name: 'auth.users', priority: 1, run: seedUsers }],
  hasData: async (ctx) => (await ctx.services.auth.countUsers()) > 0,
});
