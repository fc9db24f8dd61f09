// Routes of the profile module: /profile/summary and /profile/edit (specification, profile).
import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '../../core/modules.ts';
import { formFields } from '../../core/http/forms.ts';
import { flash } from '../../core/http/context.ts';
import { notFound } from '../../core/http/errors.ts';

/** Beyond this the page is past the end of any list; it keeps the offset a safe integer on every dialect. */
const MAX_PAGE = 1_000_000_000;

/**
 * The `page` query: a whole number written in digits. Anything else (empty, `abc`, `1.5`, `1e3`,
 * `-1`, `0`, a repeated parameter) is page 1 (docs/decisions-taken.md); a number too large for
 * any list is a page past the end, which shows an empty page, never a database error.
 */
function pageNumber(raw: unknown): number {
  if (typeof raw !== 'string' || !/^\d+$/.test(raw.trim())) return 1;
  const page = Number(raw.trim());
  if (page < 1) return 1;
  return Math.min(page, MAX_PAGE);
}

export async function profileRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const profiles = () => ctx.services.profile;

  app.get('/profile/summary', { config: { loginRequired: true } }, async (request, reply) => {
    const user = request.user!;
    const profile = await profiles().getByUserId(user.id);
    if (!profile) throw notFound('This account has no profile.');
    const page = pageNumber((request.query as Record<string, unknown>).page);
    const summary = await profiles().summaryForUser(user.id, page);
    return reply.page('profile/views/summary.njk', { title: 'My profile', profile, email: user.email, ...summary, tokensEnabled: ctx.isEnabled('tokens') });
  });

  app.get('/profile/edit', { config: { loginRequired: true } }, async (request, reply) => {
    const profile = await profiles().getByUserId(request.user!.id);
    if (!profile) throw notFound('This account has no profile.');
    return reply.page('profile/views/edit.njk', { title: 'Edit profile', values: profile, errors: {} });
  });

  app.post('/profile/edit', { config: { loginRequired: true } }, async (request, reply) => {
    const profile = await profiles().getByUserId(request.user!.id);
    if (!profile) throw notFound('This account has no profile.');
    const fields = formFields(request.body);
    const [updated, errors] = await profiles().updateProfile(profile.id, fields);
    if (!updated) {
      return reply.page('profile/views/edit.njk', { title: 'Edit profile', values: { ...profile, ...fields }, errors });
    }
    request.session.displayName = updated.name;
    flash(request, 'success', 'Profile updated successfully');
    return reply.redirect('/profile/edit');
  });
}
