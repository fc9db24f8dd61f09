// ORCID sign-in routes (extensions section 8): GET /login/orcid (to the provider), GET
// /login/orcid/callback, the email asked once at the first sign-in (/login/orcid/email) and the
// profile's link and unlink (/profile/orcid). Every failure goes back to the login page (or the
// profile page when linking) with a message.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ModuleContext } from '../../core/modules.ts';
import { flash } from '../../core/http/context.ts';
import { FormErrors, formFields, isEmail } from '../../core/http/forms.ts';
import { EmailInUseError, logIn } from '../auth/index.ts';
import type { OrcidClient, OrcidIdentity, PendingSignIn } from './orcid.client.ts';
import { OrcidAccountError } from './orcid.service.ts';

declare module 'fastify' {
  interface Session {
    /** A sign-in under way: checked once at the callback, then forgotten. */
    orcidSignIn?: PendingSignIn & { linkTo: number | null };
    /** An ORCID iD proven at a first sign-in, waiting for its email. */
    orcidNewAccount?: OrcidIdentity;
  }
}

const PROFILE_PAGE = '/profile/orcid';

export async function orcidRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const service = ctx.services.orcid;
  const client = service.client;
  if (!client) return;

  /** Production answers on https://DOMAIN; elsewhere the address the browser used (tests listen on any port). */
  const callbackUrl = (request: FastifyRequest) =>
    `${ctx.config.env === 'production' ? `https://${ctx.config.domain}` : `${request.protocol}://${request.host}`}/login/orcid/callback`;

  const failed = (request: FastifyRequest, reply: FastifyReply, message: string, linking: boolean) => {
    flash(request, 'danger', message);
    return reply.redirect(linking ? PROFILE_PAGE : '/login', 303);
  };

  app.get('/login/orcid', async (request, reply) => {
    let started: Awaited<ReturnType<OrcidClient['start']>>;
    try {
      started = await client.start(callbackUrl(request));
    } catch (error) {
      request.log.error({ err: error }, 'ORCID sign-in could not start');
      return failed(request, reply, 'ORCID cannot be reached just now. Please try again later or log in with your password.', !!request.user);
    }
    request.session.orcidSignIn = { ...started.pending, linkTo: request.user?.id ?? null };
    return reply.redirect(started.url, 303);
  });

  app.get('/login/orcid/callback', async (request, reply) => {
    const pending = request.session.orcidSignIn;
    request.session.orcidSignIn = undefined;
    const linking = !!request.user;
    if (!pending) return failed(request, reply, 'This ORCID sign-in was not started here or has already been used. Please try again.', linking);
    const query = request.query as Record<string, string | undefined>;
    if (query.error) {
      return failed(request, reply, query.error === 'access_denied' ? 'The ORCID sign-in was cancelled.' : 'ORCID did not sign you in. Please try again.', linking);
    }
    let identity: OrcidIdentity;
    try {
      identity = await client.finish(new URL(request.url, pending.redirectUri), pending);
    } catch (error) {
      // A changed state, a reused code, a wrong nonce or verifier: the library refuses them all.
      request.log.warn({ err: error }, 'ORCID sign-in refused');
      return failed(request, reply, 'The ORCID sign-in could not be verified. Please try again.', linking);
    }
    if (pending.linkTo !== null) return linkAccount(request, reply, pending.linkTo, identity);
    const userId = await service.userIdFor(identity.orcid);
    if (userId === undefined) {
      request.session.orcidNewAccount = identity;
      return reply.redirect('/login/orcid/email', 303);
    }
    const profile = await ctx.services.profile.getByUserId(userId);
    const user = await ctx.services.auth.getUser(userId);
    await logIn(request, userId, profile?.name ?? user?.email ?? identity.orcid);
    return reply.redirect('/', 303);
  });

  async function linkAccount(request: FastifyRequest, reply: FastifyReply, userId: number, identity: OrcidIdentity) {
    if (request.user?.id !== userId) return failed(request, reply, 'You were signed out during the ORCID sign-in. Please log in and try again.', false);
    try {
      await service.link(userId, identity.orcid);
    } catch (error) {
      if (error instanceof OrcidAccountError) return failed(request, reply, error.message, true);
      throw error;
    }
    flash(request, 'success', `Your account is linked to the ORCID iD ${identity.orcid}: you can sign in with ORCID.`);
    return reply.redirect(PROFILE_PAGE, 303);
  }

  const showEmailForm = (reply: FastifyReply, identity: OrcidIdentity, values: Record<string, string>, errors = {}) =>
    reply.page('orcid/views/email.njk', { title: 'Finish signing in with ORCID', identity, values, errors });

  app.get('/login/orcid/email', async (request, reply) => {
    const identity = request.session.orcidNewAccount;
    if (!identity) return reply.redirect('/login', 303);
    return showEmailForm(reply, identity, { name: identity.givenName, surname: identity.familyName, email: '' });
  });

  app.post('/login/orcid/email', async (request, reply) => {
    const identity = request.session.orcidNewAccount;
    if (!identity) return failed(request, reply, 'This ORCID sign-in has expired. Please sign in with ORCID again.', false);
    const f = formFields(request.body);
    const values = { email: (f.email ?? '').trim(), name: (f.name ?? '').trim(), surname: (f.surname ?? '').trim() };
    const form = new FormErrors();
    form.required('email', values.email, 'Email');
    if (values.email && !isEmail(values.email)) form.add('email', 'Enter a valid email address.');
    form.required('name', values.name, 'Name');
    form.required('surname', values.surname, 'Surname');
    form.maxLength('name', values.name, 100);
    form.maxLength('surname', values.surname, 100);
    if (!form.empty) return showEmailForm(reply, identity, values, form.errors);
    let userId: number;
    try {
      userId = await service.createAccount(identity, values.email, { name: values.name, surname: values.surname });
    } catch (error) {
      if (error instanceof EmailInUseError) {
        form.add('email', 'An account already uses this email: log in with its password, then link your ORCID iD from your profile.');
        return showEmailForm(reply, identity, values, form.errors);
      }
      if (error instanceof OrcidAccountError) return failed(request, reply, error.message, false);
      throw error;
    }
    await logIn(request, userId, values.name);
    flash(request, 'success', `Welcome! Your account signs in with the ORCID iD ${identity.orcid}.`);
    return reply.redirect('/', 303);
  });

  app.get(PROFILE_PAGE, { config: { loginRequired: true } }, async (request, reply) => {
    const status = await service.status(request.user!.id);
    return reply.page('orcid/views/manage.njk', { title: 'Sign in with ORCID', status });
  });

  app.post(`${PROFILE_PAGE}/unlink`, { config: { loginRequired: true } }, async (request, reply) => {
    try {
      await service.unlink(request.user!.id);
    } catch (error) {
      if (error instanceof OrcidAccountError) return failed(request, reply, error.message, true);
      throw error;
    }
    flash(request, 'success', 'Your ORCID iD is unlinked: log in with your email and password.');
    return reply.redirect(PROFILE_PAGE, 303);
  });
}
