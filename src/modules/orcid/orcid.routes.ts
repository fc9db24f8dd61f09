// ORCID sign-in routes (extensions section 8): GET /login/orcid (to the provider), GET
// /login/orcid/callback, the email asked once at the first sign-in (/login/orcid/email) and the
// profile's link and unlink (/profile/orcid). Every failure goes back to the login page (or the
// profile page when linking) with a message.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ModuleContext } from '../../core/modules.ts';
import { flash } from '../../core/http/context.ts';
import { FormErrors, formFields } from '../../core/http/forms.ts';
import { EmailInUseError, emailField, logIn } from '../auth/index.ts';
import type { OrcidClient, OrcidIdentity, PendingSignIn } from './orcid.client.ts';
import { OrcidAccountError, type OrcidService } from './orcid.service.ts';

declare module 'fastify' {
  interface Session {
    /** A sign-in under way: checked once at the callback, then forgotten. */
    orcidSignIn?: PendingSignIn & { linkTo: number | null };
    /** An ORCID iD proven at a first sign-in, waiting for its email. */
    orcidNewAccount?: OrcidIdentity;
  }
}

const PROFILE_PAGE = '/profile/orcid';

/** What the ORCID routes use: the module context, the ORCID service and its configured client. */
interface OrcidRouteDeps {
  ctx: ModuleContext;
  service: OrcidService;
  client: OrcidClient;
}

export async function orcidRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const service = ctx.services.orcid;
  const client = service.client;
  if (!client) return;
  const deps: OrcidRouteDeps = { ctx, service, client };

  app.get('/login/orcid', async (request, reply) => startSignIn(deps, request, reply));
  app.get('/login/orcid/callback', async (request, reply) => finishSignIn(deps, request, reply));
  app.get('/login/orcid/email', async (request, reply) => askFirstEmail(request, reply));
  app.post('/login/orcid/email', async (request, reply) => createAccountWithEmail(deps, request, reply));
  app.get(PROFILE_PAGE, { config: { loginRequired: true } }, async (request, reply) => showProfileLink(deps, request, reply));
  app.post(`${PROFILE_PAGE}/unlink`, { config: { loginRequired: true } }, async (request, reply) => unlinkProfile(deps, request, reply));
}

/** Production answers on https://DOMAIN; elsewhere the address the browser used (tests listen on any port). */
function callbackUrl(ctx: ModuleContext, request: FastifyRequest): string {
  return `${ctx.config.env === 'production' ? `https://${ctx.config.domain}` : `${request.protocol}://${request.host}`}/login/orcid/callback`;
}

/** Back to the login page (or the profile's ORCID page when linking) with the message. */
function failed(request: FastifyRequest, reply: FastifyReply, message: string, linking: boolean) {
  flash(request, 'danger', message);
  return reply.redirect(linking ? PROFILE_PAGE : '/login', 303);
}

/** GET /login/orcid: to the provider, the sign-in under way kept in the session. */
async function startSignIn({ ctx, client }: OrcidRouteDeps, request: FastifyRequest, reply: FastifyReply) {
  let started: Awaited<ReturnType<OrcidClient['start']>>;
  try {
    started = await client.start(callbackUrl(ctx, request));
  } catch (error) {
    request.log.error({ err: error }, 'ORCID sign-in could not start');
    return failed(request, reply, 'ORCID cannot be reached just now. Please try again later or log in with your password.', !!request.user);
  }
  request.session.orcidSignIn = { ...started.pending, linkTo: request.user?.id ?? null };
  return reply.redirect(started.url, 303);
}

/** GET /login/orcid/callback: the provider's answer checked, then a link, a sign-in, or the email asked for a new account. */
async function finishSignIn(deps: OrcidRouteDeps, request: FastifyRequest, reply: FastifyReply) {
  const { ctx, service, client } = deps;
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
  if (pending.linkTo !== null) return linkAccount(service, request, reply, pending.linkTo, identity);
  const userId = await service.userIdFor(identity.orcid);
  if (userId === undefined) {
    request.session.orcidNewAccount = identity;
    return reply.redirect('/login/orcid/email', 303);
  }
  const profile = await ctx.services.profile.getByUserId(userId);
  const user = await ctx.services.auth.getUser(userId);
  await logIn(ctx, request, userId, profile?.name ?? user?.email ?? identity.orcid);
  return reply.redirect('/', 303);
}

/** The callback of a sign-in started from the profile: the iD linked to the account that started it. */
async function linkAccount(service: OrcidService, request: FastifyRequest, reply: FastifyReply, userId: number, identity: OrcidIdentity) {
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

function showEmailForm(reply: FastifyReply, identity: OrcidIdentity, values: Record<string, string>, errors = {}) {
  return reply.page('orcid/views/email.njk', { title: 'Finish signing in with ORCID', identity, values, errors });
}

/** GET /login/orcid/email: the form of a first sign-in, filled with the names ORCID gave. */
async function askFirstEmail(request: FastifyRequest, reply: FastifyReply) {
  const identity = request.session.orcidNewAccount;
  if (!identity) return reply.redirect('/login', 303);
  return showEmailForm(reply, identity, { name: identity.givenName, surname: identity.familyName, email: '' });
}

/** POST /login/orcid/email: the new account made for the proven iD, and signed in. */
async function createAccountWithEmail({ ctx, service }: OrcidRouteDeps, request: FastifyRequest, reply: FastifyReply) {
  const identity = request.session.orcidNewAccount;
  if (!identity) return failed(request, reply, 'This ORCID sign-in has expired. Please sign in with ORCID again.', false);
  const f = formFields(request.body);
  const values = { email: (f.email ?? '').trim(), name: (f.name ?? '').trim(), surname: (f.surname ?? '').trim() };
  const form = new FormErrors();
  const email = emailField(form, values.email);
  form.required('name', values.name, 'Name');
  form.required('surname', values.surname, 'Surname');
  form.maxLength('name', values.name, 100);
  form.maxLength('surname', values.surname, 100);
  if (!form.empty) return showEmailForm(reply, identity, values, form.errors);
  let userId: number;
  try {
    userId = await service.createAccount(identity, email!, { name: values.name, surname: values.surname });
  } catch (error) {
    if (error instanceof EmailInUseError) {
      form.add('email', 'An account already uses this email: log in with its password, then link your ORCID iD from your profile.');
      return showEmailForm(reply, identity, values, form.errors);
    }
    if (error instanceof OrcidAccountError) return failed(request, reply, error.message, false);
    throw error;
  }
  await logIn(ctx, request, userId, values.name);
  flash(request, 'success', `Welcome! Your account signs in with the ORCID iD ${identity.orcid}.`);
  return reply.redirect('/', 303);
}

/** GET /profile/orcid: whether the account is linked, and whether it may unlink. */
async function showProfileLink({ service }: OrcidRouteDeps, request: FastifyRequest, reply: FastifyReply) {
  const status = await service.status(request.user!.id);
  return reply.page('orcid/views/manage.njk', { title: 'Sign in with ORCID', status });
}

/** POST /profile/orcid/unlink. */
async function unlinkProfile({ service }: OrcidRouteDeps, request: FastifyRequest, reply: FastifyReply) {
  try {
    await service.unlink(request.user!.id);
  } catch (error) {
    if (error instanceof OrcidAccountError) return failed(request, reply, error.message, true);
    throw error;
  }
  flash(request, 'success', 'Your ORCID iD is unlinked: log in with your email and password.');
  return reply.redirect(PROFILE_PAGE, 303);
}
