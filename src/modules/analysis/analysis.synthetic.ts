// Synthetic finished analyses for the synthetic datasets of `hub db:seed --synthetic N` and
// bench/search.bench.ts: those files have rows but no bytes, so nothing could analyse them.
// Rows go in bulk, like the synthetic datasets themselves; every value is drawn from the
// catalogue's seeded generator so that runs are comparable.
import { createHash } from 'node:crypto';
import { PostgresAdapter, SqliteAdapter, sql, type Kysely } from 'kysely';
import type { Db } from '../../core/db/connect.ts';
import { nowIso } from '../../core/db/database.ts';

/** Words of the synthetic feature names (`feature` filter). */
export const SYNTHETIC_FEATURE_WORDS = [
  'engine', 'brake', 'sensor', 'display', 'battery', 'network', 'storage', 'camera', 'audio', 'security',
  'logging', 'cache', 'payment', 'gps', 'bluetooth', 'wifi', 'encryption', 'backup', 'scheduler', 'telemetry',
] as const;

const ROWS_PER_INSERT = 300;

/** `next` is the caller's seeded generator (the synthetic catalogue's), so one seed fixes everything. */
export async function seedSyntheticAnalyses(db: Db, files: { fileId: number; datasetId: number; name: string }[], next: () => number): Promise<void> {
  const any = db as unknown as Kysely<any>;
  const max = await any.selectFrom('model_analysis').select((eb) => eb.fn.max('id').as('max')).executeTakeFirst();
  let id = Number(max?.max ?? 0) + 1;
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  for (let from = 0; from < files.length; from += 2000) {
    const analyses: Record<string, unknown>[] = [];
    const links: Record<string, unknown>[] = [];
    const names: { analysis_id: number; names_text: string }[] = [];
    for (const file of files.slice(from, from + 2000)) {
      const sha256 = createHash('sha256').update(`synthetic:${file.fileId}`).digest('hex');
      // Sizes spread like a catalogue's: many small models, a few large ones.
      const features = Math.round(5 * Math.pow(400, next()));
      const satisfiable = next() < 0.95;
      const digits = satisfiable ? 1 + Math.floor(next() * Math.min(60, features / 3 + 1)) : 1;
      const configurations = satisfiable ? `${1 + Math.floor(next() * 9)}${Array.from({ length: digits - 1 }, () => Math.floor(next() * 10)).join('')}` : '0';
      const level = next();
      const columns = {
        status: 'done', features, constraints: Math.floor(next() * (features / 4)), depth: 2 + Math.floor(next() * 8),
        configurations, config_digits: configurations.length, satisfiable: satisfiable ? 1 : 0,
        has_dead: satisfiable ? (next() < 0.1 ? 1 : 0) : null,
        language_level: level < 0.8 ? 'boolean' : level < 0.95 ? 'arithmetic' : 'type',
      };
      analyses.push({
        id, sha256, error: null, result: '{"synthetic":true}', ...columns,
        claimed_by: null, claimed_at: null, attempts: 1, created_at: nowIso(), finished_at: nowIso(),
      });
      links.push({ file_id: file.fileId, dataset_id: file.datasetId, sha256, name: file.name, analysis_id: id, ...columns });
      const words = Array.from({ length: 8 }, () => `${SYNTHETIC_FEATURE_WORDS[Math.floor(next() * SYNTHETIC_FEATURE_WORDS.length)]}${Math.floor(next() * 50)}`);
      names.push({ analysis_id: id, names_text: [...new Set(words)].join('|') });
      id++;
    }
    await any.transaction().execute(async (trx) => {
      for (const [table, rows] of [['model_analysis', analyses], ['model_analysis_file', links], ['model_feature_names', names]] as const) {
        for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) await trx.insertInto(table).values(rows.slice(i, i + ROWS_PER_INSERT)).execute();
      }
      if (sqlite) {
        for (let i = 0; i < names.length; i += ROWS_PER_INSERT) {
          const chunk = names.slice(i, i + ROWS_PER_INSERT);
          await sql`INSERT INTO model_feature_names_fts (rowid, names_text) VALUES ${sql.join(chunk.map((n) => sql`(${n.analysis_id}, ${n.names_text})`))}`.execute(trx);
        }
      }
    });
  }
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // Explicit ids leave the sequence behind; the next real analysis would collide.
    await sql`SELECT setval(pg_get_serial_sequence('model_analysis', 'id'), (SELECT MAX(id) FROM model_analysis))`.execute(db);
  }
}
