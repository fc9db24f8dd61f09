// Queries on explore's own index table. The index each database offers for substring
// search differs (migration 0010), so the word condition is the one place that looks
// at the dialect; every other condition is the same SQL everywhere.
import { SqliteAdapter, sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Db, DbOrTrx } from '../../core/db/connect.ts';
import { updateElseInsert } from '../../core/db/upsert.ts';
import type { Database } from '../../core/db/database.ts';
import type { ExploreSearchTable } from './explore.tables.ts';

export type IndexRow = ExploreSearchTable;

export interface SearchFilter {
  /** Normalized query words, OR-combined (explore rules 2 and 3). */
  words: string[];
  /** A known publication type, or null for any. */
  publicationType: string | null;
  /** Normalized tag fragments, OR-combined. */
  tags: string[];
  sorting: 'newest' | 'oldest';
  limit: number | null;
  offset: number;
  /** A further condition on explore_search from another module (the analysis module's model filters). */
  condition?: Expression<SqlBool> | null;
}

/** Trigram indexes need at least three characters; shorter words fall back to LIKE. */
const TRIGRAM = 3;

const isSqlite = (db: DbOrTrx) => db.getExecutor().adapter instanceof SqliteAdapter;

function wordCondition(db: DbOrTrx, eb: ExpressionBuilder<Database, 'explore_search'>, words: string[]): Expression<SqlBool> {
  // Words hold only letters, digits (normalizeText): no LIKE wildcard to escape.
  const like = (word: string) => eb('search_text', 'like', `%${word}%`);
  if (!isSqlite(db)) return eb.or(words.map(like));
  // SQLite: the FTS5 trigram table answers the long words in one MATCH.
  const long = words.filter((w) => w.length >= TRIGRAM);
  const short = words.filter((w) => w.length < TRIGRAM);
  const conditions: Expression<SqlBool>[] = short.map(like);
  if (long.length > 0) {
    const match = long.map((w) => `"${w}"`).join(' OR ');
    conditions.push(sql<SqlBool>`explore_search.dataset_id IN (SELECT rowid FROM explore_search_fts WHERE explore_search_fts MATCH ${match})`);
  }
  return eb.or(conditions);
}

/** The ids of the matching searchable datasets, in the requested order (no row data: one query). */
export async function searchIds(db: Db, filter: SearchFilter): Promise<number[]> {
  const direction = filter.sorting === 'oldest' ? 'asc' : 'desc';
  let query = db.selectFrom('explore_search')
    .select('dataset_id')
    .where('searchable', '=', 1)
    .orderBy('created_at', direction)
    .orderBy('dataset_id', direction);
  if (filter.publicationType) query = query.where('publication_type', '=', filter.publicationType);
  if (filter.tags.length > 0) query = query.where((eb) => eb.or(filter.tags.map((t) => eb('tags_norm', 'like', `%${t}%`))));
  if (filter.words.length > 0) query = query.where((eb) => wordCondition(db, eb, filter.words));
  if (filter.condition) query = query.where(filter.condition);
  if (filter.limit !== null) query = query.limit(filter.limit).offset(filter.offset);
  const rows = await query.execute();
  const ids = rows.map((r) => Number(r.dataset_id));
  // MariaDB and SQLite need a LIMIT for an OFFSET: without a limit the offset is applied here.
  return filter.limit === null && filter.offset > 0 ? ids.slice(filter.offset) : ids;
}

/**
 * Writes (inserts or replaces) index rows, racing safely with another instance or another
 * indexing of this one: a row built from an older revision of its dataset than the stored one is
 * left out (two quick edits index twice, and the first indexing may finish last).
 */
export async function upsertRows(db: Db, rows: IndexRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.transaction().execute(async (trx) => {
    const written: IndexRow[] = [];
    for (const row of rows) {
      if (await updateElseInsert(trx, 'explore_search', 'dataset_id', row, { newestBy: 'revision' })) written.push(row);
    }
    if (isSqlite(trx)) {
      for (const row of written) {
        await sql`DELETE FROM explore_search_fts WHERE rowid = ${row.dataset_id}`.execute(trx);
        if (row.searchable) await sql`INSERT INTO explore_search_fts (rowid, search_text) VALUES (${row.dataset_id}, ${row.search_text})`.execute(trx);
      }
    }
  });
}

export async function deleteRows(db: Db, datasetIds: number[]): Promise<void> {
  if (datasetIds.length === 0) return;
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('explore_search').where('dataset_id', 'in', datasetIds).execute();
    if (isSqlite(trx)) {
      for (const id of datasetIds) await sql`DELETE FROM explore_search_fts WHERE rowid = ${id}`.execute(trx);
    }
  });
}

/** The revision each indexed dataset's row was built from, by dataset id. */
export async function indexedRevisions(db: Db): Promise<Map<number, number>> {
  const rows = await db.selectFrom('explore_search').select(['dataset_id', 'revision']).execute();
  return new Map(rows.map((r) => [Number(r.dataset_id), Number(r.revision)]));
}
