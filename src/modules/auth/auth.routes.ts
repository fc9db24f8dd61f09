// Routes of the auth module: /signup/, /login, /logout (specification, auth; decisions section 3)
// and the account pages of extensions section 5: /forgot-password, /reset-password/<token>,
// /profile/password, /profile/email, /confirm-email/<token>. The two /profile/ pages live here
// because they change credentials, which only auth owns.
import type { FastifyInstance, FastifyReply, FastifyRequest, Session } from 'fastify';
import type { ModuleContext } from '../../core/modules.ts';
import { FormErrors, formFields, hasControlCharacters } from '../../core/http/forms.ts';
import { flash, rememberSession } from '../../core/http/context.ts';
import { nowIso } from '../../core/db/database.ts';
import { EmailInUseError, InvalidTokenError, OtherAccountsLinkError, type PasswordRefusal } from './auth.service.ts';
import { readEmail } from './email-address.ts';
import { passwordProblems } from './password-policy.ts';
import { clientNetwork } from '../../core/http/client-network.ts';
import { withQueryOf } from '../../core/http/canonical-address.ts';

declare module 'fastify' {
  interface Session {
    /** When this session logged in; a later password reset or change ends it (extensions section 5). */
    authAt?: string;
  }
}

/**
 * Emitted by every sign-in (password, sign-up, password reset, ORCID) once the session is the
 * account's. The fresh session id drops what the visitor's session held, so a module that keeps
 * a visitor's things there (the cart) listens to carry them into the account.
 */
export const SIGNED_IN = 'auth.signedIn';

export interface SignedIn {
  userId: number;
  /** The visitor's session, already ended: read it, do not write it. */
  visitor: Readonly<Session>;
  /** The signed-in session, saved with the answer. */
  session: Session;
}

export async function logIn(ctx: ModuleContext, request: FastifyRequest, userId: number, displayName: string): Promise<void> {
  const visitor = request.session;
  // A fresh session id at login prevents session fixation; the remembered cookie lasts 30 days.
  await request.session.regenerate();
  rememberSession(request);
  request.session.userId = userId;
  request.session.displayName = displayName;
  request.session.authAt = nowIso();
  // A listener that fails is logged by emit; the sign-in stands.
  await ctx.events.emit(SIGNED_IN, { userId, visitor, session: request.session } satisfies SignedIn);
}

/**
 * Where a successful login goes (extensions section 5): `next` when it is a path of this site,
 * one `/` followed by anything but `/` or `\` (which browsers read as another host), else `/`.
 */
export function safeNext(next: string | undefined): string {
  if (!next || next.length > 2000 || hasControlCharacters(next)) return '/';
  return /^\/(?![/\\])/.test(next) ? next : '/';
}

/** "in 1 minute", "in 14 minutes": a lockout rounded up to whole minutes. */
function inMinutes(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return `in ${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** The field error of a refused current password (the account pages). */
function refusalMessage(refusal: PasswordRefusal): string {
  return refusal.reason === 'throttled'
    ? `Too many failed attempts with this password. Please try again ${inMinutes(refusal.retryAfterMs)}.`
    : 'The current password is not right.';
}

/** Password and confirmation of a new password; `confirmRequired` unless only checked when sent (signup). */
function checkNewPassword(form: FormErrors, password: string | undefined, confirm: string | undefined, confirmRequired: boolean): void {
  form.required('password', password, 'Password');
  if (password) for (const problem of passwordProblems(password)) form.add('password', problem);
  if ((confirmRequired || confirm !== undefined) && confirm !== password) form.add('password_confirm', 'The passwords do not match.');
}

/**
 * The email field read by readEmail (extensions section 11), its refusal added to the form;
 * the canonical address when it reads.
 */
export function emailField(form: FormErrors, value: string | undefined, field = 'email'): string | undefined {
  if (value === undefined || value.trim() === '') {
    form.add(field, 'Email is required.');
    return undefined;
  }
  const read = readEmail(value);
  if (read.ok) return read.email;
  form.add(field, read.message);
  return undefined;
}

/** A reset or confirmation link that cannot be used any more: 400 with the reason. */
function invalidLink(reply: FastifyReply, message: string) {
  reply.code(400);
  return reply.page('auth/views/reset.njk', { title: 'Link no longer valid', invalid: true, message });
}

export async function authRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  signupRoutes(app, ctx);
  loginRoutes(app, ctx);
  passwordResetRoutes(app, ctx);
  accountRoutes(app, ctx);
}

/** Sign-up: the form, the account created and logged in, the slash redirect. */
function signupRoutes(app: FastifyInstance, ctx: ModuleContext): void {
  const auth = () => ctx.services.auth;
  const showSignup = (reply: FastifyReply, values: Record<string, string> = {}, errors = {}) =>
    reply.page('auth/views/signup.njk', { title: 'Sign up', values, errors });

  app.get('/signup/', { config: { anonymousOnly: true } }, async (_request, reply) => showSignup(reply));

  app.post('/signup/', { config: { anonymousOnly: true } }, async (request, reply) => {
    const f = formFields(request.body);
    const values = { email: f.email ?? '', name: f.name ?? '', surname: f.surname ?? '' };
    const form = new FormErrors();
    // The columns (specification, Limits): email string(256) (checked by readEmail), name and
    // surname string(100); a longer value is a field error here, never a database error.
    const email = emailField(form, f.email);
    // Extensions section 5: the password policy, and password_confirm must match when sent.
    checkNewPassword(form, f.password, f.password_confirm, false);
    for (const [key, label] of [['name', 'Name'], ['surname', 'Surname']] as const) {
      form.required(key, f[key], label);
      form.maxLength(key, f[key]?.trim(), 100);
      form.plainText(key, f[key]);
    }
    if (!form.empty) return showSignup(reply, values, form.errors);
    try {
      const user = await auth().createWithProfile({
        email: email!, password: f.password!, name: f.name!.trim(), surname: f.surname!.trim(),
      });
      await logIn(ctx, request, user.id, f.name!.trim());
      return reply.redirect('/');
    } catch (error) {
      if (!(error instanceof EmailInUseError)) throw error;
      form.add('email', error.message);
      return showSignup(reply, values, form.errors);
    }
  });

  // Like the original's strict slashes: /signup redirects to /signup/ (308 keeps a POST a POST).
  // The redirect changes nothing, so it needs no CSRF token; the target checks it.
  app.route({
    method: ['GET', 'POST'], url: '/signup', config: { csrf: false },
    handler: async (request, reply) => {
      return reply.redirect(withQueryOf(request.url, '/signup/'), 308);
    },
  });

}

/** Log in and log out. */
function loginRoutes(app: FastifyInstance, ctx: ModuleContext): void {
  const auth = () => ctx.services.auth;
  const showLogin = (reply: FastifyReply, values: Record<string, string> = {}, errors = {}) =>
    reply.page('auth/views/login.njk', { title: 'Log in', values, errors });

  app.get('/login', { config: { anonymousOnly: true } }, async (request, reply) => {
    const next = (request.query as Record<string, unknown>).next;
    return showLogin(reply, { next: typeof next === 'string' ? safeNext(next) : '' });
  });

  app.post('/login', { config: { anonymousOnly: true } }, async (request, reply) => {
    const f = formFields(request.body);
    const query = formFields(request.query);
    const next = safeNext(f.next ?? query.next);
    const values = { email: f.email ?? '', next: next === '/' ? '' : next };
    const form = new FormErrors();
    form.required('email', f.email, 'Email');
    form.required('password', f.password, 'Password');
    if (!form.empty) return showLogin(reply, values, form.errors);
    const result = await auth().login(f.email!, f.password!, clientNetwork(request.ip));
    if (!result.ok) {
      if (result.reason === 'throttled') {
        reply.code(429);
        form.add('password', `Too many failed login attempts. Please try again ${inMinutes(result.retryAfterMs)}, or reset your password.`);
      } else {
        form.add('password', 'Invalid credentials');
      }
      return showLogin(reply, values, form.errors);
    }
    const profile = await ctx.services.profile.getByUserId(result.user.id);
    await logIn(ctx, request, result.user.id, profile?.name ?? result.user.email);
    return reply.redirect(next);
  });

  app.get('/logout', async (request, reply) => {
    await request.session.destroy();
    return reply.redirect('/');
  });

}

const TOO_MANY_RESETS = 'Too many password reset requests came from your network in the last hour. Please try again later.';

/** Password reset (extensions section 5): the request by email, the new password by token. */
function passwordResetRoutes(app: FastifyInstance, ctx: ModuleContext): void {
  const auth = () => ctx.services.auth;
  const showForgot = (reply: FastifyReply, values: Record<string, string> = {}, errors = {}, sent = false) =>
    reply.page('auth/views/forgot.njk', { title: 'Forgot your password?', values, errors, sent });

  app.get('/forgot-password', async (_request, reply) => showForgot(reply));

  app.post('/forgot-password', async (request, reply) => {
    const f = formFields(request.body);
    const form = new FormErrors();
    const email = emailField(form, f.email);
    if (!form.empty) return showForgot(reply, { email: f.email ?? '' }, form.errors);
    if (!(await auth().allowResetRequest(clientNetwork(request.ip)))) {
      reply.code(429);
      return showForgot(reply, { email: f.email ?? '' }, { email: [TOO_MANY_RESETS] });
    }
    // The same answer, at the same speed, whether or not the address has an account:
    // the lookup and the email happen after the answer.
    auth().requestPasswordReset(email!).catch((error: unknown) => request.log.error({ err: error }, 'password reset email failed'));
    return showForgot(reply, { email: f.email!.trim() }, {}, true);
  });

  const showReset = (reply: FastifyReply, token: string, errors = {}) =>
    reply.page('auth/views/reset.njk', { title: 'Choose a new password', token, errors, invalid: false });

  app.get('/reset-password/:token', async (request, reply) => {
    const { token } = request.params as { token: string };
    if (!(await auth().isResetTokenUsable(token))) return invalidLink(reply, new InvalidTokenError().message);
    return showReset(reply, token);
  });

  app.post('/reset-password/:token', async (request, reply) => {
    const { token } = request.params as { token: string };
    if (!(await auth().isResetTokenUsable(token))) return invalidLink(reply, new InvalidTokenError().message);
    const f = formFields(request.body);
    const form = new FormErrors();
    checkNewPassword(form, f.password, f.password_confirm, true);
    if (!form.empty) return showReset(reply, token, form.errors);
    try {
      const user = await auth().resetPassword(token, f.password!, clientNetwork(request.ip));
      const profile = await ctx.services.profile.getByUserId(user.id);
      await logIn(ctx, request, user.id, profile?.name ?? user.email);
      flash(request, 'success', 'Your password was changed and you are logged in.');
      return reply.redirect('/');
    } catch (error) {
      if (error instanceof InvalidTokenError) return invalidLink(reply, error.message);
      throw error;
    }
  });

  // Changing the password and the email of a logged-in account (extensions section 5).
}

/** The logged-in user's password and email changes, and the email confirmation. */
function accountRoutes(app: FastifyInstance, ctx: ModuleContext): void {
  const auth = () => ctx.services.auth;
  const showPassword = (reply: FastifyReply, errors = {}) =>
    reply.page('auth/views/change-password.njk', { title: 'Change password', errors });

  app.get('/profile/password', { config: { loginRequired: true } }, async (_request, reply) => showPassword(reply));

  app.post('/profile/password', { config: { loginRequired: true } }, async (request, reply) => {
    const f = formFields(request.body);
    const form = new FormErrors();
    form.required('current_password', f.current_password, 'Current password');
    checkNewPassword(form, f.password, f.password_confirm, true);
    if (!form.empty) return showPassword(reply, form.errors);
    const result = await auth().changePassword(request.user!.id, f.current_password!, f.password!, clientNetwork(request.ip));
    if (!result.ok) {
      if (result.reason === 'throttled') reply.code(429);
      form.add('current_password', refusalMessage(result));
      return showPassword(reply, form.errors);
    }
    // Other sessions end (they logged in before the change); this one stays.
    request.session.authAt = result.changedAt;
    flash(request, 'success', 'Your password was changed.');
    return reply.redirect('/profile/summary');
  });

  const showEmail = (reply: FastifyReply, request: FastifyRequest, values: Record<string, string> = {}, errors = {}) =>
    reply.page('auth/views/change-email.njk', { title: 'Change email', values, errors, currentEmail: request.user!.email });

  app.get('/profile/email', { config: { loginRequired: true } }, async (request, reply) => showEmail(reply, request));

  app.post('/profile/email', { config: { loginRequired: true } }, async (request, reply) => {
    const f = formFields(request.body);
    const values = { email: f.email ?? '' };
    const form = new FormErrors();
    const email = emailField(form, f.email);
    if (email === request.user!.email) form.add('email', 'This is your current address.');
    form.required('current_password', f.current_password, 'Current password');
    if (!form.empty) return showEmail(reply, request, values, form.errors);
    try {
      const result = await auth().requestEmailChange(request.user!.id, f.current_password!, email!, clientNetwork(request.ip));
      if (!result.ok) {
        if (result.reason === 'throttled') reply.code(429);
        form.add('current_password', refusalMessage(result));
        return showEmail(reply, request, values, form.errors);
      }
      flash(request, 'info', `We sent a link to ${result.email}. Your address changes once you open it (within one hour).`);
      return reply.redirect('/profile/summary');
    } catch (error) {
      if (!(error instanceof EmailInUseError)) throw error;
      form.add('email', error.message);
      return showEmail(reply, request, values, form.errors);
    }
  });

  // Login required: the link proves the mailbox, the session proves the account that asked.
  app.get('/confirm-email/:token', { config: { loginRequired: true } }, async (request, reply) => {
    const { token } = request.params as { token: string };
    try {
      const user = await auth().confirmEmailChange(token, request.user!.id);
      flash(request, 'success', `Your email address is now ${user.email}.`);
      return reply.redirect('/profile/summary');
    } catch (error) {
      if (error instanceof InvalidTokenError || error instanceof OtherAccountsLinkError) return invalidLink(reply, error.message);
      if (error instanceof EmailInUseError) return invalidLink(reply, `${error.email} is in use by another account now; nothing changed.`);
      throw error;
    }
  });
}
