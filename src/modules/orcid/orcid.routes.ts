// ORCID sign-in routes (extensions sections 8 and 11): GET /login/orcid (to the provider), GET
// /login/orcid/callback, the email asked once at the first sign-in (/login/orcid/email), the link
// mailed to it (/login/orcid/confirm/<token>) and the profile's link and unlink (/profile/orcid).
// Every failure of the sign-in goes back to the login page (or the profile page when linking)
// with a message; a refused email step or link answers its page with the reason.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ModuleContext } from '../../core/modules.ts';
import { flash } from '../../core/http/context.ts';
import { FormErrors, formFields } from '../../core/http/forms.ts';
import { EmailInUseError, emailField, logIn } from '../auth/index.ts';
import type { OrcidClient, OrcidIdentity, PendingSignIn } from './orcid.client.ts';
import { OrcidAccountError, type OrcidService } from './orcid.service.ts';
import { OrcidClaimError } from './orcid.claims.ts';

declare module 'fastify' {
  interface Session {
    /** A sign-in under way: checked once at the callback, then forgotten. */
    orcidSignIn?: PendingSignIn & { linkTo: number | null };
    /** An ORCID iD proven at a first sign-in, waiting for its email and the link mailed to it (which works only in this session). */
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
  app.post('/login/orcid/email', async (request, reply) => claimEmail(deps, request, reply));
  app.get('/login/orcid/confirm/:token', async (request, reply) => confirmEmail(deps, request, reply));
  app.get(PROFILE_PAGE, { config: { loginRequired: true } }, async (request, reply) => showProfileLink(deps, request, reply));
  app.post(`${PROFILE_PAGE}/unlink`, { config: { loginRequired: true } }, async (request, reply) => unlinkProfile(deps, request, reply));
}

/** Production answers on https://DOMAIN; elsewhere the address the browser used (tests listen on any port). */
function siteUrl(ctx: ModuleContext, request: FastifyRequest): string {
  return ctx.config.env === 'production' ? `https://${ctx.config.domain}` : `${request.protocol}://${request.host}`;
}

function callbackUrl(ctx: ModuleContext, request: FastifyRequest): string {
  return `${siteUrl(ctx, request)}/login/orcid/callback`;
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

/** POST /login/orcid/email: the address kept as this iD's claim and its link mailed; no account yet (extensions section 11). */
async function claimEmail({ ctx, service }: OrcidRouteDeps, request: FastifyRequest, reply: FastifyReply) {
  const identity = request.session.orcidNewAccount;
  if (!identity) return failed(request, reply, 'This ORCID sign-in has expired. Please sign in with ORCID again.', false);
  const f = formFields(request.body);
  const values = { email: (f.email ?? '').trim(), name: (f.name ?? '').trim(), surname: (f.surname ?? '').trim() };
  const form = new FormErrors();
  // The address as typed: readEmail trims it of white space only (JavaScript's trim also drops U+FEFF, which it refuses).
  const email = emailField(form, f.email);
  for (const [key, label] of [['name', 'Name'], ['surname', 'Surname']] as const) {
    form.required(key, values[key], label);
    form.maxLength(key, values[key], 100);
    form.plainText(key, values[key]);
  }
  if (!form.empty) return showEmailForm(reply, identity, values, form.errors);
  try {
    await service.requestAccount(identity, email!, { name: values.name, surname: values.surname }, siteUrl(ctx, request));
  } catch (error) {
    if (error instanceof EmailInUseError) {
      form.add('email', 'An account already uses this email: log in with its password, then link your ORCID iD from your profile.');
      return showEmailForm(reply.code(409), identity, values, form.errors);
    }
    if (error instanceof OrcidClaimError) {
      form.add('email', error.message);
      return showEmailForm(reply.code(error.status), identity, values, form.errors);
    }
    if (error instanceof OrcidAccountError) return failed(request, reply, error.message, false);
    throw error;
  }
  return reply.page('orcid/views/sent.njk', { title: 'Check your email', email, identity });
}

/** A refused link or a failed account: the reason on a page, with ORCID's button to start again. */
function confirmFailed(reply: FastifyReply, status: number, message: string) {
  reply.code(status);
  return reply.page('orcid/views/notice.njk', { title: 'Your account was not created', message });
}

/** GET /login/orcid/confirm/<token>: the account made and linked, in the browser that proved the iD. */
async function confirmEmail({ ctx, service }: OrcidRouteDeps, request: FastifyRequest, reply: FastifyReply) {
  const { token } = request.params as { token: string };
  if (request.user) return confirmFailed(reply, 409, 'You are logged in: log out first, then open the link again in the browser where you signed in with ORCID.');
  let created: Awaited<ReturnType<OrcidService['confirmFirstSignIn']>>;
  try {
    created = await service.confirmFirstSignIn(token, request.session.orcidNewAccount?.orcid);
  } catch (error) {
    if (error instanceof OrcidClaimError) return confirmFailed(reply, error.status, error.message);
    if (error instanceof EmailInUseError) {
      return confirmFailed(reply, 409, `An account already uses ${error.email}: log in with its password, then link your ORCID iD from your profile.`);
    }
    if (error instanceof OrcidAccountError) return confirmFailed(reply, 409, error.message);
    throw error;
  }
  request.session.orcidNewAccount = undefined;
  await logIn(ctx, request, created.userId, created.name);
  flash(request, 'success', `Welcome! Your account signs in with the ORCID iD ${created.orcid}.`);
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
