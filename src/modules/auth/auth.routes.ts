// Routes of the auth module: /signup/, /login, /logout (specification, auth; decisions section 3).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ModuleContext } from '../../core/modules.ts';
import { FormErrors, formFields, isEmail } from '../../core/http/forms.ts';
import { rememberSession } from '../../core/http/context.ts';
import { EmailInUseError, normalizeEmail } from './auth.service.ts';

async function logIn(request: FastifyRequest, userId: number, displayName: string): Promise<void> {
  // A fresh session id at login prevents session fixation; the remembered cookie lasts 30 days.
  await request.session.regenerate();
  rememberSession(request);
  request.session.userId = userId;
  request.session.displayName = displayName;
}

export async function authRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const auth = () => ctx.services.auth;

  const showSignup = (reply: FastifyReply, values: Record<string, string> = {}, errors = {}) =>
    reply.page('auth/views/signup.njk', { title: 'Sign up', values, errors });
  const showLogin = (reply: FastifyReply, values: Record<string, string> = {}, errors = {}) =>
    reply.page('auth/views/login.njk', { title: 'Log in', values, errors });

  app.get('/signup/', { config: { anonymousOnly: true } }, async (_request, reply) => showSignup(reply));

  app.post('/signup/', { config: { anonymousOnly: true } }, async (request, reply) => {
    const f = formFields(request.body);
    const values = { email: f.email ?? '', name: f.name ?? '', surname: f.surname ?? '' };
    const form = new FormErrors();
    form.required('email', f.email, 'Email');
    if (f.email && f.email.trim() && !isEmail(f.email)) form.add('email', 'Invalid email address.');
    // The columns (specification, Limits): email string(256), name and surname string(100);
    // a longer value is a field error here, never a database error on PostgreSQL or MariaDB.
    else form.maxLength('email', f.email === undefined ? undefined : normalizeEmail(f.email), 256);
    form.required('password', f.password, 'Password');
    for (const [key, label] of [['name', 'Name'], ['surname', 'Surname']] as const) {
      form.required(key, f[key], label);
      form.maxLength(key, f[key]?.trim(), 100);
      form.plainText(key, f[key]);
    }
    if (!form.empty) return showSignup(reply, values, form.errors);
    try {
      const user = await auth().createWithProfile({
        email: f.email!, password: f.password!, name: f.name!.trim(), surname: f.surname!.trim(),
      });
      await logIn(request, user.id, f.name!.trim());
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
      const query = request.url.indexOf('?');
      return reply.redirect(`/signup/${query >= 0 ? request.url.slice(query) : ''}`, 308);
    },
  });

  app.get('/login', { config: { anonymousOnly: true } }, async (_request, reply) => showLogin(reply));

  app.post('/login', { config: { anonymousOnly: true } }, async (request, reply) => {
    const f = formFields(request.body);
    const values = { email: f.email ?? '' };
    const form = new FormErrors();
    form.required('email', f.email, 'Email');
    form.required('password', f.password, 'Password');
    if (!form.empty) return showLogin(reply, values, form.errors);
    const result = await auth().login(f.email!, f.password!, request.ip);
    if (!result.ok) {
      if (result.reason === 'throttled') {
        reply.code(429);
        form.add('password', 'Too many failed login attempts. Please wait 15 minutes and try again.');
      } else {
        form.add('password', 'Invalid credentials');
      }
      return showLogin(reply, values, form.errors);
    }
    const profile = await ctx.services.profile.getByUserId(result.user.id);
    await logIn(request, result.user.id, profile?.name ?? result.user.email);
    return reply.redirect('/');
  });

  app.get('/logout', async (request, reply) => {
    await request.session.destroy();
    return reply.redirect('/');
  });
}
