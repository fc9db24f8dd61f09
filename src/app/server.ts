// The only file that touches the process: environment, start, listen, graceful close.
import 'dotenv/config';
import { buildApp } from './app.ts';
import { loadConfig } from '../core/config.ts';
import { databaseIsEmpty, runSeeders } from '../core/modules.ts';

/** A startup failure: one clear line on stderr and a non-zero exit, never a stack trace (LOG_LEVEL=debug adds it). */
function cannotStart(what: string, error: unknown): never {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`hub: cannot start: ${what}${message}`);
  if (process.env.LOG_LEVEL === 'debug' && error instanceof Error && error.stack) console.error(error.stack);
  process.exit(1);
}

export async function serve(): Promise<void> {
  let hub;
  let config;
  try {
    config = loadConfig();
    hub = await buildApp(config);
  } catch (error) {
    // Module selection (decisions section 2), configuration and database errors carry their own explanation.
    cannotStart('', error);
  }
  const { app, ctx, modules } = hub;
  if (config.autoSeed) {
    try {
      if (await databaseIsEmpty(ctx, modules)) {
        const seeded = await runSeeders(ctx, modules);
        app.log.info({ seeders: seeded }, 'seeded the empty development database');
      }
    } catch (error) {
      app.log.error({ err: error }, 'seeding failed');
      await app.close().catch(() => {});
      cannotStart('seeding the empty development database failed (run `hub db:seed --reset` once the cause is fixed): ', error);
    }
  }

  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void close('SIGTERM'));
  process.on('SIGINT', () => void close('SIGINT'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app.close().catch(() => {});
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') cannotStart('', new Error(`${config.host}:${config.port} is already in use; set PORT to a free port.`));
    cannotStart(`could not listen on ${config.host}:${config.port}: `, error);
  }
  // One plain line for a person among the JSON log lines: the address to open (issue 10).
  const address = app.server.address();
  const port = address && typeof address === 'object' ? address.port : config.port;
  const host = ['0.0.0.0', '::', '127.0.0.1', '::1'].includes(config.host) ? 'localhost' : config.host;
  console.log(`UVL Hub is running at http://${host}:${port}/ (stop with Ctrl+C)`);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  await serve();
}
