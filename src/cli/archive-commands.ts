// `hub export` and `hub import`: move a hub to another database or file store (README "Moving to
// PostgreSQL and S3"). The archive's format is described in archive/manifest.ts.
import type { Command } from 'commander';
import { loadConfig } from '../core/config.ts';

export function registerArchiveCommands(program: Command): void {
  program.command('export')
    .description('Write every table and stored file of the hub (DATABASE_URL, STORAGE_URL) to one archive')
    .requiredOption('--out <file>', 'the archive to write (a zip)')
    .action(async (options: { out: string }) => {
      const config = loadConfig();
      const [{ exportHub }, { createFileStore }] = await Promise.all([import('./archive/export.ts'), import('../core/storage/index.ts')]);
      const store = createFileStore(config);
      try {
        const manifest = await exportHub({ databaseUrl: config.databaseUrl, store, out: options.out });
        const rows = manifest.tables.reduce((sum, t) => sum + t.rows, 0);
        console.log(`Exported ${rows} rows of ${manifest.tables.length} tables and ${manifest.files.length} files (schema ${manifest.schemaVersion}) to ${options.out}.`);
      } finally {
        await store.close();
      }
    });

  program.command('import <file>')
    .description('Restore an archive of `hub export` into the hub of DATABASE_URL and STORAGE_URL (refuses a non-empty one unless --replace)')
    .option('--replace', 'replace the rows and stored uploads of a hub that holds some (all or nothing)')
    .action(async (file: string, options: { replace?: boolean }) => {
      const config = loadConfig();
      const [{ importHub }, { connect }, { createFileStore }] = await Promise.all([
        import('./archive/import.ts'), import('../core/db/connect.ts'), import('../core/storage/index.ts'),
      ]);
      const db = connect(config.databaseUrl);
      const store = createFileStore(config);
      try {
        const summary = await importHub({ archive: file, db, databaseUrl: config.databaseUrl, store, replace: options.replace, maxBytes: config.importMaxBytes });
        console.log(`Imported ${summary.rows} rows of ${summary.tables} tables and ${summary.files} files (schema ${summary.schemaVersion}) into ${store.location}.`);
      } finally {
        await store.close();
        await db.destroy();
      }
    });
}
