// Routes of the profile module: /profile/summary and /profile/edit (specification, profile).
import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '../../core/modules.ts';
import { formFields } from '../../core/http/forms.ts';
import { flash } from '../../core/http/context.ts';
import { notFound } from '../../core/http/errors.ts';

function pageNumber(raw: unknown): number {
  const page = Number(raw);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

export async function profileRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const profiles = () => ctx.services.profile;

  app.get('/profile/summary', { config: { loginRequired: true } }, async (request, reply) => {
    const user = request.user!;
    const profile = await profiles().getByUserId(user.id);
    if (!profile) throw notFound('This account has no profile.');
    const page = pageNumber((request.query as Record<string, unknown>).page);
    const summary = await profiles().summaryForUser(user.id, page);
    return reply.page('profile/views/summary.njk', { title: 'My profile', profile, email: user.email, ...summary });
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
