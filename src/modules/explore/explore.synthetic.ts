// Synthetic synchronized datasets for benchmarks and load tests (`hub db:seed --synthetic N`,
// bench/search.bench.ts). Rows go straight into the dataset, feature model and file
// tables in bulk with the Kysely handle: through the services, 100 000 datasets would
// take an hour of single-row inserts and events. The search index is rebuilt after.
// Files have rows but no bytes on disk: downloads of synthetic files answer 404.
import { MysqlAdapter, PostgresAdapter, sql, type Kysely } from 'kysely';
import type { ModuleContext } from '../../core/modules.ts';
import { PUBLICATION_TYPES } from '../../core/publication-types.ts';
import { createExploreService } from './explore.service.ts';

/** Words of the titles: each dataset draws two, so a one-word query matches about one dataset in twenty. */
export const SYNTHETIC_DOMAINS = [
  'automotive', 'avionics', 'banking', 'robotics', 'medical', 'railway', 'telecom', 'smarthome', 'printer', 'drone',
  'camera', 'satellite', 'energy', 'gaming', 'browser', 'compiler', 'database', 'network', 'sensor', 'vehicle',
  'elevator', 'insurance', 'logistics', 'farming', 'weather', 'payment', 'streaming', 'wearable', 'kiosk', 'router',
  'thermostat', 'tractor', 'locomotive', 'submarine', 'turbine', 'ventilator', 'scanner', 'keyboard', 'firewall', 'elearning',
] as const;
const QUALIFIERS = ['Configurable', 'Modular', 'Adaptive', 'Embedded', 'Distributed', 'Legacy', 'Open', 'Secure'];
const TAGS = ['spl', 'variability', 'uvl', 'benchmark', 'industrial', 'academic', 'case-study', 'reverse-engineered'];
const AUTHORS: [string, string][] = [
  ['José Núñez', 'Universidad de Sevilla'], ['Zoë Müller', 'TU München'], ['Łukasz Wójcik', 'Politechnika Warszawska'],
  ['Søren Ødegaard', 'Aalborg Universitet'], ['Ana García', 'Universidad de Málaga'], ['Chen Wei', 'Tsinghua University'],
  ['Amélie Laurent', 'Université de Rennes'], ['John Smith', 'Some University'],
];

/** A small seeded generator, so that every run builds the same catalogue. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ROWS_PER_INSERT = 400;
const DATASETS_PER_TRANSACTION = 2000;
const MODELS_PER_DATASET = 2;

async function nextId(db: Kysely<any>, table: string): Promise<number> {
  const row = await db.selectFrom(table).select((eb) => eb.fn.max('id').as('max')).executeTakeFirst();
  return Number(row?.max ?? 0) + 1;
}

async function insertAll(db: Kysely<any>, table: string, rows: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) await db.insertInto(table).values(rows.slice(i, i + ROWS_PER_INSERT)).execute();
}

/**
 * Creates `count` synchronized datasets (two feature models, one file each, one author)
 * owned in turn by the existing users, then rebuilds the search index. Needs users (run
 * the seeders first). Answers the new dataset ids.
 */
export async function seedSynthetic(ctx: ModuleContext, count: number): Promise<number[]> {
  const db = ctx.db as unknown as Kysely<any>;
  const users = (await db.selectFrom('user').select('id').orderBy('id').execute()).map((u) => Number(u.id));
  if (users.length === 0) throw new Error('Synthetic datasets need an owner: seed the users first (hub db:seed).');
  const next = random(20261122);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const ids = {
    meta: await nextId(db, 'ds_meta_data'), dataset: await nextId(db, 'data_set'), author: await nextId(db, 'author'),
    fmMeta: await nextId(db, 'fm_meta_data'), model: await nextId(db, 'feature_model'), file: await nextId(db, 'file'),
  };
  const created: number[] = [];
  const syntheticFiles: { fileId: number; datasetId: number; name: string }[] = [];
  const start = Date.parse('2020-01-01T00:00:00.000Z');

  for (let from = 0; from < count; from += DATASETS_PER_TRANSACTION) {
    const rows: Record<string, Record<string, unknown>[]> = { ds_meta_data: [], data_set: [], author: [], fm_meta_data: [], feature_model: [], file: [] };
    for (let i = from; i < Math.min(count, from + DATASETS_PER_TRANSACTION); i++) {
      const [first, second] = [pick(SYNTHETIC_DOMAINS), pick(SYNTHETIC_DOMAINS)];
      const [name, affiliation] = pick(AUTHORS);
      const metaId = ids.meta++;
      const datasetId = ids.dataset++;
      rows.ds_meta_data!.push({
        id: metaId, deposition_id: null, title: `${pick(QUALIFIERS)} ${first} ${second} product line ${datasetId}`,
        description: `Synthetic feature models of a ${first} product line with ${second} variants, generated for benchmarks.`,
        publication_type: pick(PUBLICATION_TYPES)[0], publication_doi: null, dataset_doi: `10.5555/synthetic.${datasetId}`,
        tags: [...new Set([pick(TAGS), pick(TAGS)])].join(', '), ds_metrics_id: null,
      });
      rows.data_set!.push({ id: datasetId, user_id: users[i % users.length], ds_meta_data_id: metaId, created_at: new Date(start + i * 60_000).toISOString() });
      rows.author!.push({ id: ids.author++, name, affiliation, orcid: `0000-0002-${String(1000 + (datasetId % 9000))}-${String(datasetId % 10000).padStart(4, '0')}`, position: 0, ds_meta_data_id: metaId, fm_meta_data_id: null });
      for (let m = 0; m < MODELS_PER_DATASET; m++) {
        const fmMetaId = ids.fmMeta++;
        const modelId = ids.model++;
        const filename = `${first}_${m + 1}_${datasetId}.uvl`;
        rows.fm_meta_data!.push({
          id: fmMetaId, uvl_filename: filename, title: `${first} model ${m + 1}`, description: `Variant ${m + 1} of the ${first} line.`,
          publication_type: 'none', publication_doi: null, tags: pick(TAGS), uvl_version: '2.0',
        });
        rows.feature_model!.push({ id: modelId, data_set_id: datasetId, fm_meta_data_id: fmMetaId });
        syntheticFiles.push({ fileId: ids.file, datasetId, name: filename });
        rows.file!.push({ id: ids.file++, name: filename, checksum: '0'.repeat(32), size: 1000 + Math.floor(next() * 9000), feature_model_id: modelId });
      }
      created.push(datasetId);
    }
    await db.transaction().execute(async (trx) => {
      for (const table of ['ds_meta_data', 'data_set', 'author', 'fm_meta_data', 'feature_model', 'file']) await insertAll(trx, table, rows[table]!);
    });
  }

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // Explicit ids leave PostgreSQL's sequences behind; the next ordinary insert would collide.
    for (const table of ['ds_meta_data', 'data_set', 'author', 'fm_meta_data', 'feature_model', 'file']) {
      await sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), (SELECT MAX(id) FROM ${sql.table(table)}))`.execute(db);
    }
  }
  // No events were emitted for these rows: index them in bulk. Their files have no bytes to
  // analyse, so the analysis module (when enabled) gets synthetic results for the model filters.
  if (ctx.isEnabled('analysis')) await ctx.services.analysis.addSynthetic(syntheticFiles, next);
  const explore = ctx.isEnabled('explore') ? ctx.services.explore : createExploreService({ ...ctx, events: { on: () => {}, emit: async () => {} } });
  await explore.indexDatasets(created);
  // Fresh statistics after a bulk load: without them PostgreSQL's planner guesses row counts
  // (849 for 100 000) and picks slow plans until autovacuum's next pass.
  const tables = ['ds_meta_data', 'data_set', 'author', 'fm_meta_data', 'feature_model', 'file', 'explore_search',
    ...(ctx.isEnabled('analysis') ? ['model_analysis', 'model_analysis_file', 'model_feature_names'] : [])];
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof PostgresAdapter) await sql`ANALYZE ${sql.join(tables.map((t) => sql.table(t)))}`.execute(db);
  else if (adapter instanceof MysqlAdapter) await sql`ANALYZE TABLE ${sql.join(tables.map((t) => sql.table(t)))}`.execute(db);
  else await sql`ANALYZE`.execute(db);
  return created;
}
