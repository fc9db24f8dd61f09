// The only file that touches the process: environment, start, listen, graceful close.
import 'dotenv/config';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { ModuleSelectionError, databaseIsEmpty, runSeeders } from './modules.ts';

export async function serve(): Promise<void> {
  let hub;
  let config;
  try {
    config = loadConfig();
    hub = await buildApp(config);
  } catch (error) {
    if (error instanceof ModuleSelectionError || error instanceof ConfigError) {
      console.error(`hub: cannot start: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const { app, ctx, modules } = hub;
  if (config.autoSeed && (await databaseIsEmpty(ctx, modules))) {
    const seeded = await runSeeders(ctx, modules);
    app.log.info({ seeders: seeded }, 'seeded the empty development database');
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

  await app.listen({ port: config.port, host: config.host });
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  await serve();
}
