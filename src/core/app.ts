// buildApp(config): the composition root. Core plugins are global; each module's
// routes are an encapsulated plugin; every coupling rule is checked first.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifySession from '@fastify/session';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyFormbody from '@fastify/formbody';
import fastifyMultipart from '@fastify/multipart';
import fastifyView from '@fastify/view';
import helmet from 'helmet';
import nunjucks from 'nunjucks';
import { createHash } from 'node:crypto';
import type { Config } from './config.ts';
import { projectPath } from './config.ts';
import { connect, type Db } from './db/connect.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createModuleContext, loadModules, readModuleSelection, type HubModule, type ModuleContext } from './modules.ts';
import { ANONYMOUS_HINT_COOKIE, CSRF_SESSION_KEY, DatabaseSessionStore, RememberingSigner } from './http/session-store.ts';
import { SessionIdPool, type NewSession } from './http/session-ids.ts';
import { badRequest } from './http/errors.ts';
import { anonymousNotFound, ErrorPages, hintCookieOptions } from './http/error-pages.ts';
import { CsrfTokens } from './http/csrf-tokens.ts';
import { registerTemplateFilters } from './http/filters.ts';
import { schemaError, validatorCompiler } from './http/api-schemas.ts';
import { ANONYMOUS_SESSION_MS } from './http/context.ts';
import { AssetTable } from './http/assets.ts';
import { lazyChildLogger } from './http/lazy-logger.ts';
import { cutAtMarkers, slotMarker, type ReusablePage } from './http/reusable-page.ts';

export interface BuildOptions {
  /** An already open database (tests); otherwise DATABASE_URL is opened. */
  db?: Db;
  /** The module names to enable; otherwise modules.json decides. */
  modules?: string[];
  /** Logger settings; tests pass false. */
  logger?: boolean | Record<string, unknown>;
}

export interface Hub {
  app: FastifyInstance;
  db: Db;
  ctx: ModuleContext;
  modules: HubModule[];
}

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

/** CSRF tokens read by handlers from multipart fields, handed to the plugin's getToken. */
const multipartTokens = new WeakMap<FastifyRequest, string | undefined>();

/**
 * A session cookie `secure` value that @fastify/session does not read as "HTTPS only, else
 * withhold the cookie" (it compares with `true`), and that the cookie serializer, which tests for
 * a truthy value, writes as the Secure attribute. The production test of the session cookie
 * (auth.routes.test.ts) fails if either library changes that.
 */
const SECURE_OVER_ANY_CONNECTION = 'always' as unknown as boolean;

const processRequestIds = randomUUID().slice(0, 24);
let requestCounter = 0;

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<Hub> {
  // The selection is checked before anything is opened or served (decisions section 2).
  const modules = await loadModules(options.modules ?? readModuleSelection(config));

  const app = Fastify({
    logger: options.logger ?? {
      level: config.logLevel,
      // Never log credentials: cookies, bearer tokens and form bodies stay out of the logs.
      redact: ['req.headers.cookie', 'req.headers.authorization', 'req.headers["x-csrftoken"]'],
    },
    // Unique across instances without a random draw per request: a UUID drawn once per process
    // whose last group counts the requests.
    genReqId: (req) => (typeof req.headers['x-request-id'] === 'string' && req.headers['x-request-id'].length <= 64
      ? req.headers['x-request-id'] : `${processRequestIds}${(requestCounter++).toString(16).padStart(12, '0')}`),
    requestIdHeader: false,
    childLoggerFactory: lazyChildLogger,
    // Only a proxy on this host or a private network may set X-Forwarded-For (throttling is per address).
    trustProxy: ['loopback', 'linklocal', 'uniquelocal'],
    bodyLimit: 2 * 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: false },
    // A route schema's refusal names the field (extensions section 3).
    schemaErrorFormatter: schemaError,
  });

  app.setValidatorCompiler(validatorCompiler);

  const db = options.db ?? connect(config.databaseUrl);
  await migrateToLatest(db);
  const ctx = createModuleContext(config, db, app.log, modules);
  // The store and the database close last. Fastify runs onClose hooks in the reverse order of
  // their registration, so this first one runs after every module's stop hook (the analysis
  // runner giving its claims back, temporary exports removed), which still reach both.
  app.addHook('onClose', async () => {
    await ctx.store.close();
    if (!options.db) await db.destroy();
  });

  // Helmet's headers depend only on this configuration: computed once, then copied onto every
  // answer (helmet itself rebuilds the policy strings on each request, a tenth of a static answer's time).
  const securityHeaders = helmetHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: config.env === 'production' ? [] : null,
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    hsts: config.env === 'production',
    crossOriginEmbedderPolicy: false,
    // Three of helmet's defaults speak to software no visitor runs any more: Internet Explorer 8's
    // download prompt, Flash's cross-domain policies, and the XSS auditor that browsers removed
    // (helmet sends that one only to switch it off). Each costs every answer a header line.
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(securityHeaders);
    done();
  });
  // Browser assets come from npm packages, served by the app itself (no CDN), before the session
  // plugin's hook so that an asset request never reads or writes a session.
  const assets = new AssetTable(config.env !== 'production');
  const WEEK = 7 * 24 * 60 * 60;
  assets.add(join(packageDir('bootstrap'), 'dist'), '/vendor/bootstrap/', WEEK);
  assets.add(join(packageDir('bootstrap-icons'), 'font'), '/vendor/bootstrap-icons/', WEEK);
  assets.add(projectPath('src/core/http/assets'), '/static/');
  for (const module of modules) if (module.assets) assets.add(module.assets, `/${module.name}/`);
  app.addHook('onRequest', assets.hook);

  await app.register(fastifyCookie);
  const sessionStore = new DatabaseSessionStore(db, config.secretKey);
  // A new session's cookie, as the session plugin writes it and as the early 404 does.
  // Anonymous sessions are short; login makes the session a remembered one (rememberSession).
  const sessionCookie = { path: '/', httpOnly: true, sameSite: 'lax' as const, maxAge: ANONYMOUS_SESSION_MS };
  const nav = modules.flatMap((m) => (m.nav ? [m.nav] : [])).sort((a, b) => a.order - b.order);
  const scripts = modules.flatMap((m) => (m.scripts ?? []).map((s) => `/${m.name}/${s}`));
  // @fastify/session wants at least 32 characters; any SECRET_KEY is stretched to that.
  const signer = new RememberingSigner(createHash('sha256').update(config.secretKey).digest('hex'));
  const csrfTokens = new CsrfTokens();
  const sessionIds = new SessionIdPool<NewSession>((sid) => ({
    sid,
    signed: signer.prepare(sid),
    csrfToken: csrfTokens.prepare(sessionStore.prepareAnonymousCsrfSecret(sid)),
  }));
  const errorPages = new ErrorPages(new Set(nav.map((entry) => entry.path)));
  app.addHook('onRequest', anonymousNotFound(errorPages, {
    store: sessionStore,
    signer,
    csrf: csrfTokens,
    newSession: () => sessionIds.take(),
    cookie: { ...sessionCookie, secure: config.env === 'production' ? SECURE_OVER_ANY_CONNECTION : false },
  }));
  // The hint cookie of a session without a row (http/session-store.ts): its load reads nothing.
  // After the early 404, whose answers load no session and so need no hint noted.
  const hintedSid = (request: FastifyRequest): string | undefined => {
    // An asset answered before the cookie plugin ran has no cookies parsed.
    const cookie = request.cookies?.session;
    if (!cookie || request.cookies[ANONYMOUS_HINT_COOKIE] !== '1') return undefined;
    const dot = cookie.lastIndexOf('.');
    return dot > 0 ? cookie.slice(0, dot) : undefined;
  };
  app.addHook('onRequest', (request, _reply, done) => {
    const sid = hintedSid(request);
    if (sid !== undefined) sessionStore.expectNoRow(sid);
    done();
  });
  app.addHook('onResponse', (request, _reply, done) => {
    const cookie = request.cookies?.session;
    const dot = cookie ? cookie.lastIndexOf('.') : -1;
    if (dot > 0) sessionStore.forgetHint(cookie!.slice(0, dot));
    done();
  });
  if (config.env === 'production') {
    // Decisions section 3: the session cookie is Secure in production. Like Flask's
    // SESSION_COOKIE_SECURE, it is always sent with the flag and the browser enforces it. The
    // plugin sends no cookie at all over plain HTTP when `secure` is `true`, so that a login could
    // never work there; given this marker it writes the flag and still sends the cookie. Registered
    // before the plugin so that it runs before the plugin saves the session, on the session the
    // request ends with (a login replaces it).
    app.addHook('onSend', (request, _reply, payload, done) => {
      const cookie = (request.session as Partial<import('fastify').Session> | null | undefined)?.cookie;
      if (cookie) cookie.secure = SECURE_OVER_ANY_CONNECTION;
      done(null, payload);
    });
  }
  await app.register(fastifySession, {
    secret: signer,
    cookieName: 'session',
    store: sessionStore,
    saveUninitialized: false,
    rolling: false,
    idGenerator: () => sessionIds.take().sid,
    cookie: {
      ...sessionCookie,
      // Production marks every session's cookie Secure in the onSend hook above, restored
      // sessions included (SECURE_OVER_ANY_CONNECTION).
      secure: false,
    },
  });
  // After the plugin has saved the session: the hint follows whether a row is left.
  app.addHook('onSend', (request, reply, payload, done) => {
    const write = sessionStore.writeOf(request.session);
    if (write === undefined) return done(null, payload);
    const hinted = request.cookies?.[ANONYMOUS_HINT_COOKIE] === '1';
    if (write === 'rowless' && !hinted) {
      reply.setCookie(ANONYMOUS_HINT_COOKIE, '1', hintCookieOptions(request));
    } else if (write === 'row' && hinted) {
      reply.clearCookie(ANONYMOUS_HINT_COOKIE, { path: '/' });
    }
    done(null, payload);
  });
  // A new session gets the CSRF secret derived from its id, so that it needs no row while it holds nothing else.
  app.addHook('onRequest', (request, _reply, done) => {
    const session = request.session;
    if (session?.sessionId) sessionStore.deriveCsrfSecret(session, request.cookies.session !== session.encryptedSessionId);
    done();
  });
  await app.register(fastifyCsrf, {
    sessionPlugin: '@fastify/session',
    getToken: (req: FastifyRequest) => {
      if (multipartTokens.has(req)) return multipartTokens.get(req);
      const body = req.body as Record<string, unknown> | undefined;
      const fromBody = body && typeof body === 'object' ? body.csrf_token : undefined;
      if (typeof fromBody === 'string') return fromBody;
      const header = req.headers['x-csrftoken'] ?? req.headers['x-csrf-token'];
      return typeof header === 'string' ? header : undefined;
    },
  });
  await app.register(fastifyFormbody);
  await app.register(fastifyMultipart, { limits: { fileSize: config.maxUploadBytes, files: 1, fields: 50 } });

  const moduleViews = projectPath('src/modules');
  await app.register(fastifyView, {
    engine: { nunjucks },
    templates: [projectPath('src/core/http/views'), moduleViews],
    production: config.env === 'production',
    options: { onConfigure: (env: nunjucks.Environment) => registerTemplateFilters(env) },
  });

  // U+0000 in a path or query is never meaningful, and PostgreSQL cannot compare text holding it:
  // refused here once (400) rather than answered with a database error by whichever route it reaches.
  app.addHook('onRequest', (request, _reply, done) => {
    done(/%00/i.test(request.url) ? badRequest('The address contains a NUL character.') : undefined);
  });

  // The same for the strings of a JSON body: one 400 here, whichever module's column it would reach.
  // (Forms are validated field by field by their modules, which answer with a field error.)
  app.addHook('preValidation', (request, _reply, done) => {
    const body = request.body;
    const json = body !== null && typeof body === 'object' && /\bjson\b/i.test(request.headers['content-type'] ?? '');
    done(json && containsNul(body as object) ? badRequest('The request contains a NUL character.') : undefined);
  });

  const csrfTokenOf = (reply: import('fastify').FastifyReply): string => {
    const secret = (reply.request.session as unknown as Record<string, unknown> | undefined)?.[CSRF_SESSION_KEY];
    // Every session gets its secret when it is loaded (deriveCsrfSecret); the plugin makes one otherwise.
    return typeof secret === 'string' ? csrfTokens.tokenFor(secret) : reply.generateCsrf();
  };

  app.decorateRequest('user', null);
  app.decorateReply('page', async function page(this: import('fastify').FastifyReply, template: string, data: Record<string, unknown> = {}) {
    const request = this.request;
    const flashes = request.session.flash ?? [];
    if (flashes.length > 0) request.session.flash = [];
    this.type('text/html; charset=utf-8');
    return this.view(template, {
      ...data,
      currentUser: request.user,
      csrfToken: csrfTokenOf(this),
      nav,
      scripts,
      flashes,
      currentPath: request.url.split('?')[0],
    });
  });

  // Reusable pages (http/reusable-page.ts): only for a visitor who is not logged in and has no
  // flash message waiting, since the layout shows both.
  app.decorateReply('pageIsReusable', function pageIsReusable(this: import('fastify').FastifyReply) {
    return !this.request.user && !(this.request.session?.flash?.length);
  });
  app.decorateReply('renderReusablePage', async function renderReusablePage(this: import('fastify').FastifyReply, template: string, data: Record<string, unknown> = {}) {
    const html: string = await app.view(template, {
      ...data,
      currentUser: null,
      csrfToken: slotMarker('csrf_token'),
      nav,
      scripts,
      flashes: [],
      currentPath: this.request.url.split('?')[0],
    });
    return cutAtMarkers(html);
  });
  app.decorateReply('sendReusablePage', function sendReusablePage(this: import('fastify').FastifyReply, page: ReusablePage, values: Record<string, string | number> = {}) {
    this.type('text/html; charset=utf-8');
    return page.fill({ ...values, csrf_token: csrfTokenOf(this) });
  });

  for (const module of modules) await module.setup?.(app, ctx);

  const verifyCsrf = (request: FastifyRequest) => new Promise<void>((resolve, reject) => {
    // The plugin answers a bad token through reply.send; a stand-in reply turns that into a
    // thrown error so that the one error handler answers it (400, decisions section 3).
    const refusal = { send: (error: Error) => reject(error) } as unknown as import('fastify').FastifyReply;
    app.csrfProtection.call(app, request, refusal, (err?: Error) => (err ? reject(err) : resolve()));
  });
  app.decorateRequest('csrfPending', false);
  app.decorateRequest('checkCsrf', async function checkCsrf(this: FastifyRequest, token?: string) {
    if (token !== undefined) multipartTokens.set(this, token);
    try {
      await verifyCsrf(this);
    } finally {
      multipartTokens.delete(this);
    }
    this.csrfPending = false;
  });

  // Guards, in the order of decisions section 3: the login redirect comes before the CSRF check.
  // Callback style: a page read passes with no promise made (only a CSRF check waits).
  app.addHook('preHandler', (request, reply, done) => {
    // An unknown path changes nothing and must answer 404, not a CSRF refusal (e.g. /webhook/deploy where webhook is off).
    if (request.is404) return done();
    const routeConfig = request.routeOptions.config;
    if (routeConfig.loginRequired && !request.user) {
      // Extensions section 5: the login returns to the page asked for. Only a page (GET) is
      // returned to; a refused form post goes to the plain login.
      const page = request.method === 'GET' || request.method === 'HEAD';
      // A hook that answers does not go on to the handler (done is not called).
      reply.redirect(page ? `/login?next=${encodeURIComponent(request.url)}` : '/login');
      return;
    }
    if (routeConfig.anonymousOnly && request.user) {
      reply.redirect('/');
      return;
    }
    const method = request.method;
    // A request authenticated by a personal access token carries no session, so no CSRF token (extensions section 3).
    if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS' && routeConfig.csrf !== false && !request.user?.token) {
      const header = request.headers['x-csrftoken'] ?? request.headers['x-csrf-token'];
      if (routeConfig.csrfInMultipart && header === undefined && request.isMultipart()) {
        // The token is a field of the body, which only the handler reads: it calls request.checkCsrf.
        request.csrfPending = true;
        return done();
      }
      verifyCsrf(request).then(() => done(), done);
      return;
    }
    done();
  });

  // Before any route registers: an error handler applies to the routes registered after it.
  errorPages.install(app);

  for (const module of modules) {
    if (module.routes) {
      const routes = module.routes;
      await app.register(async (scope) => routes(scope, ctx));
    }
  }
  return { app, db, ctx, modules };
}

/** True when any string inside a parsed body (keys included) holds U+0000; iterative, so no nesting depth can overflow it. */
function containsNul(body: object): boolean {
  const pending: unknown[] = [body];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return true;
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (key.includes('\u0000')) return true;
        pending.push(item);
      }
    }
  }
  return false;
}

/** The headers helmet sets for these options, read once from a stand-in response. */
function helmetHeaders(options: Parameters<typeof helmet>[0]): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) { headers[name] = String(value); },
    removeHeader(name: string) { delete headers[name]; },
    getHeader(name: string) { return headers[name]; },
  };
  let failure: unknown;
  helmet(options)({} as never, response as never, (error?: unknown) => { failure = error; });
  if (failure) throw failure;
  return headers;
}
