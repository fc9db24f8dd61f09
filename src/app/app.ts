// buildApp(config): the composition root. Core plugins are global; each module's
// routes are an encapsulated plugin; every coupling rule is checked first.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyFormbody from '@fastify/formbody';
import { projectPath, type Config } from '../core/config.ts';
import { connect, type Db } from '../core/db/connect.ts';
import { migrateToLatest } from '../core/db/migrate.ts';
import { createModuleContext, readModuleSelection, type HubModule, type ModuleContext } from '../core/modules.ts';
import { ErrorPages } from '../core/http/error-pages.ts';
import { AssetTable } from '../core/http/assets.ts';
import { createFastify } from '../core/http/server-options.ts';
import { registerSecurityHeaders } from '../core/http/security-headers.ts';
import { registerSessions } from '../core/http/sessions.ts';
import { installGuards, registerCsrfPlugin } from '../core/http/guards.ts';
import { decoratePages, registerViews } from '../core/http/pages.ts';
import { refuseNulCharacters } from '../core/http/nul-refusals.ts';
import { registerCompression } from '../core/http/compression.ts';
import { loadModules } from './modules.ts';

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

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<Hub> {
  // The selection is checked before anything is opened or served (decisions section 2).
  const modules = await loadModules(options.modules ?? readModuleSelection(config));
  const app = createFastify(config, options.logger);
  const db = options.db ?? connect(config.databaseUrl);
  await migrateToLatest(db);
  const ctx = createModuleContext(config, db, app.log, modules);
  // The store and the database close last. Fastify runs onClose hooks in the reverse order of
  // their registration, so this first one runs after every module's stop hook (the analysis
  // runner giving its claims back, temporary exports removed), which still reach both.
  // Before the modules' stop hooks: heavy jobs running or queued answer at once (the server is
  // stopping), so that a module waiting for its work in the background does not wait for a compile.
  app.addHook('preClose', async () => ctx.scheduler.close());
  app.addHook('onClose', async () => {
    await ctx.store.close();
    if (!options.db) await db.destroy();
  });

  registerSecurityHeaders(app, config);
  serveAssets(app, config, modules);
  // Before any route: the plugin hooks each route as it is declared (issue 37, item 1).
  await registerCompression(app);
  const nav = modules.flatMap((m) => (m.nav ? [m.nav] : [])).sort((a, b) => a.order - b.order);
  const userMenu = modules.flatMap((m) => m.userMenu ?? []).sort((a, b) => a.order - b.order);
  const scripts = modules.flatMap((m) => (m.scripts ?? []).map((s) => `/${m.name}/${s}`));
  const errorPages = new ErrorPages(new Set(nav.map((entry) => entry.path)));
  errorPages.routes.watch(app);
  const sessions = await registerSessions(app, config, db, errorPages);
  await registerCsrfPlugin(app);
  await app.register(fastifyFormbody);
  await registerViews(app, config);
  refuseNulCharacters(app);
  decoratePages(app, { nav, userMenu, scripts }, sessions);

  for (const module of modules) await module.setup?.(app, ctx);
  installGuards(app);
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

/**
 * Browser assets come from npm packages, served by the app itself (no CDN), before the session
 * plugin's hook so that an asset request never reads or writes a session.
 */
function serveAssets(app: FastifyInstance, config: Config, modules: HubModule[]): void {
  const assets = new AssetTable(config.env !== 'production');
  const WEEK = 7 * 24 * 60 * 60;
  assets.add(join(packageDir('bootstrap'), 'dist'), '/vendor/bootstrap/', WEEK);
  assets.add(join(packageDir('bootstrap-icons'), 'font'), '/vendor/bootstrap-icons/', WEEK);
  assets.add(projectPath('src/core/http/assets'), '/static/');
  for (const module of modules) if (module.assets) assets.add(module.assets, `/${module.name}/`);
  app.addHook('onRequest', assets.hook);
}
