// /profile/tokens: the owner's personal access tokens (extensions section 3).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ModuleContext } from '../../core/modules.ts';
import type { FieldErrors } from '../../core/http/forms.ts';
import { flash } from '../../core/http/context.ts';
import { MAX_EXPIRY_DAYS, readTokenForm } from './tokens.service.ts';

const DEFAULT_FORM = { name: '', scopes: ['read'], expires_in_days: '30' };

export async function tokensRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const tokens = () => ctx.services.tokens;

  async function page(request: FastifyRequest, reply: FastifyReply, extra: { values?: Record<string, unknown>; errors?: FieldErrors; newToken?: string; newTokenName?: string } = {}) {
    // The page that shows a new token must not be kept by caches or the browser's history.
    reply.header('cache-control', 'no-store');
    return reply.page('tokens/views/tokens.njk', {
      title: 'Access tokens',
      tokens: await tokens().list(request.user!.id),
      values: extra.values ?? DEFAULT_FORM,
      errors: extra.errors ?? {},
      newToken: extra.newToken,
      newTokenName: extra.newTokenName,
      maxDays: MAX_EXPIRY_DAYS,
    });
  }

  app.get('/profile/tokens', { config: { loginRequired: true } }, async (request, reply) => page(request, reply));

  app.post('/profile/tokens', { config: { loginRequired: true } }, async (request, reply) => {
    const form = readTokenForm(request.body);
    if (!form.ok) {
      reply.code(400);
      return page(request, reply, { values: form.values, errors: form.errors });
    }
    const created = await tokens().create(request.user!.id, form.value);
    return page(request, reply, { newToken: created.token, newTokenName: created.view.name });
  });

  app.post('/profile/tokens/:id/revoke', { config: { loginRequired: true } }, async (request, reply) => {
    const raw = (request.params as { id: string }).id;
    const id = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
    const revoked = id > 0 && (await tokens().revoke(request.user!.id, id));
    if (revoked) flash(request, 'success', 'The token was revoked: it no longer works.');
    else flash(request, 'warning', 'No active token of yours has this id.');
    return reply.redirect('/profile/tokens');
  });
}
