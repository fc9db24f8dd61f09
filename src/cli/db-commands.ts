// `hub db:*`, `hub doi:map` and `hub serve` (decisions section 1).
import type { Command } from 'commander';
import { loadConfig } from '../core/config.ts';
import type { ModuleContext } from '../core/modules.ts';
import type { loadModules } from '../app/modules.ts';
import type { FileStore } from '../core/storage/index.ts';
import type { FastifyBaseLogger } from 'fastify';

const silentLog = {
  info: () => {}, warn: (...a: unknown[]) => console.warn(...a), error: (...a: unknown[]) => console.error(...a),
  debug: () => {}, trace: () => {}, fatal: (...a: unknown[]) => console.error(...a), level: 'warn',
  child: () => silentLog, silent: () => {},
} as unknown as FastifyBaseLogger;

/**
 * The database drivers, migrations and modules, loaded when a command needs them: `hub uvl …`
 * never does, and starts faster without them.
 */
async function runtime() {
  const [{ connect }, { migrateDownAll, migrateToLatest }, modules, app] = await Promise.all([
    import('../core/db/connect.ts'), import('../core/db/migrate.ts'), import('../core/modules.ts'), import('../app/modules.ts'),
  ]);
  return { connect, migrateDownAll, migrateToLatest, ...modules, ...app };
}

/** Opens the database and the services of the active module selection, without HTTP. */
export async function withContext<T>(work: (ctx: ModuleContext, modules: Awaited<ReturnType<typeof loadModules>>) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const { connect, migrateToLatest, loadModules, readModuleSelection, createModuleContext } = await runtime();
  const modules = await loadModules(readModuleSelection(config));
  const db = connect(config.databaseUrl);
  try {
    await migrateToLatest(db);
    const ctx = createModuleContext(config, db, silentLog, modules);
    try {
      return await work(ctx, modules);
    } finally {
      // Heavy work's worker threads would keep the command's process alive.
      ctx.scheduler.close('The command is ending.');
      await ctx.store.close();
    }
  } finally {
    await db.destroy();
  }
}

export function registerDbCommands(program: Command): void {
  program.command('db:migrate').description('Apply pending migrations').action(async () => {
    const config = loadConfig();
    const { connect, migrateToLatest } = await runtime();
    const db = connect(config.databaseUrl);
    try {
      const applied = await migrateToLatest(db);
      console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'The database is up to date.');
    } finally {
      await db.destroy();
    }
  });

  program.command('db:seed')
    .description('Seed the sample users and datasets (refuses a non-empty database unless --reset)')
    .option('--reset', 'drop every table first, then migrate and seed')
    .option('--synthetic <count>', 'also create this many synthetic synchronized datasets (benchmarks)')
    .action(async (options: { reset?: boolean; synthetic?: string }) => {
      // Every argument is checked before anything is dropped or written.
      const synthetic = options.synthetic === undefined ? undefined : Number(options.synthetic);
      if (synthetic !== undefined && (!/^\d+$/.test(options.synthetic!.trim()) || !Number.isSafeInteger(synthetic) || synthetic < 1)) {
        throw new Error(`--synthetic takes a positive whole number, got "${options.synthetic}"`);
      }
      if (options.reset) await resetDatabase();
      const { databaseIsEmpty, runSeeders } = await runtime();
      await withContext(async (ctx, modules) => {
        if (!(await databaseIsEmpty(ctx, modules))) {
          console.error('hub: the database is not empty; run `hub db:seed --reset` to start from scratch.');
          process.exitCode = 1;
          return;
        }
        const seeded = await runSeeders(ctx, modules);
        console.log(`Seeded: ${seeded.join(', ')}`);
        if (synthetic !== undefined) {
          const { seedSynthetic } = await import('../modules/explore/explore.synthetic.ts');
          await seedSynthetic(ctx, synthetic);
          console.log(`Created ${synthetic} synthetic datasets.`);
        }
      });
    });

  program.command('db:reset').description('Drop every table, remove the stored uploads and migrate again (no seeding)').action(async () => {
    await resetDatabase();
    console.log('The database was reset.');
  });

  program.command('doi:map <oldDoi> <newDoi>').description('Record that oldDoi was superseded by newDoi').action(async (oldDoi: string, newDoi: string) => {
    await withContext(async (ctx) => {
      await ctx.services.dataset.mapDoi(oldDoi, newDoi);
      console.log(`${oldDoi} now redirects to ${newDoi}.`);
    });
  });

  program.command('serve').description('Serve the site (same as npm start)').action(async () => {
    const { serve } = await import('../app/server.ts');
    await serve();
  });
}

async function resetDatabase(): Promise<void> {
  const config = loadConfig();
  const { connect, migrateDownAll, migrateToLatest } = await runtime();
  const db = connect(config.databaseUrl);
  try {
    await migrateDownAll(db);
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
  const { createFileStore } = await import('../core/storage/index.ts');
  const store = createFileStore(config);
  try {
    await removeStoredFiles(store);
  } finally {
    await store.close();
  }
}

/**
 * The files of the rows a reset dropped: `user_<id>/` folders, the staging folder `temp/` and the
 * packed samples `samples/` (model_sample.stored_key) of the store (uploads folder or S3 prefix,
 * decisions section 7). Left behind, they would belong to whoever gets the same user and dataset
 * ids next, or fill the store unreferenced. Nothing else in the store is touched.
 */
export async function removeStoredFiles(store: FileStore): Promise<void> {
  const tops = new Set((await store.list('')).map((object) => object.key.split('/')[0]!));
  for (const top of tops) {
    if (top === 'temp' || top === 'samples' || /^user_\d+$/.test(top)) await store.deletePrefix(`${top}/`);
  }
}
