// Queries on the analysis module's own tables. Work is claimed with one conditional UPDATE, so
// two instances can never both win the same row; the filter conditions are built here for the
// explore search, which embeds them without knowing these tables.
import { SqliteAdapter, sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { isUniqueViolation, type Db, type DbOrTrx } from '../../core/db/connect.ts';
import { nowIso, type Database } from '../../core/db/database.ts';
import { updateElseInsert } from '../../core/db/upsert.ts';
import type { ModelFilter } from './analysis.filter.ts';
import type { ModelAnalysisTable, StoredStatus } from './analysis.tables.ts';

const isSqlite = (db: DbOrTrx) => db.getExecutor().adapter instanceof SqliteAdapter;
const TRIGRAM = 3;
/** A claimed row is tried this many times; a model that stopped its instance each time then fails. */
export const MAX_ATTEMPTS = 3;

export type AnalysisRow = Omit<ModelAnalysisTable, 'id'> & { id: number };

function toRow(r: any): AnalysisRow {
  return {
    ...r,
    id: Number(r.id),
    features: r.features === null ? null : Number(r.features),
    constraints: r.constraints === null ? null : Number(r.constraints),
    depth: r.depth === null ? null : Number(r.depth),
    config_digits: r.config_digits === null ? null : Number(r.config_digits),
    satisfiable: r.satisfiable === null ? null : Number(r.satisfiable),
    has_dead: r.has_dead === null ? null : Number(r.has_dead),
    attempts: Number(r.attempts),
  };
}

/** A pending row for this content unless one exists (another instance may insert it at the same time). */
export async function ensureAnalysis(db: Db, sha256: string): Promise<void> {
  const found = await db.selectFrom('model_analysis').select('id').where('sha256', '=', sha256).executeTakeFirst();
  if (found) return;
  try {
    await db.insertInto('model_analysis').values({ sha256, status: 'pending', attempts: 0, created_at: nowIso() } as any).execute();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
}

/** The columns copied from a content's row onto each of its files (what the search reads). */
const COPIED = ['status', 'features', 'constraints', 'depth', 'configurations', 'config_digits', 'satisfiable', 'has_dead', 'language_level'] as const;

export async function linkFile(db: Db, base: { file_id: number; dataset_id: number; sha256: string; name: string }): Promise<void> {
  // The content may be analysed already (an identical file): the file gets its columns at once.
  const analysis = await db.selectFrom('model_analysis').select(['id', ...COPIED]).where('sha256', '=', base.sha256).executeTakeFirstOrThrow();
  const copied = Object.fromEntries(COPIED.map((c) => [c, analysis[c]])) as Record<(typeof COPIED)[number], any>;
  if (copied.status === 'running') copied.status = 'pending';
  const file_id = base.file_id;
  await updateElseInsert(db, 'model_analysis_file', 'file_id', { ...base, ...copied, analysis_id: Number(analysis.id) });
  // A result stored between the read above and this row's write did not reach this row: copy it now.
  const after = await db.selectFrom('model_analysis').select(['id', ...COPIED]).where('sha256', '=', base.sha256).executeTakeFirstOrThrow();
  if (after.status !== analysis.status && after.status !== 'running') {
    const again = Object.fromEntries(COPIED.map((c) => [c, after[c]])) as Record<(typeof COPIED)[number], any>;
    await db.updateTable('model_analysis_file').set(again).where('file_id', '=', file_id).execute();
  }
}

export async function linkedFileIds(db: Db, fileIds: number[]): Promise<Set<number>> {
  if (fileIds.length === 0) return new Set();
  const rows = await db.selectFrom('model_analysis_file').select('file_id').where('file_id', 'in', fileIds).execute();
  return new Set(rows.map((r) => Number(r.file_id)));
}

export async function linkedDatasetIds(db: Db): Promise<Set<number>> {
  const rows = await db.selectFrom('model_analysis_file').select('dataset_id').distinct().execute();
  return new Set(rows.map((r) => Number(r.dataset_id)));
}

export async function deleteLinksOfDataset(db: Db, datasetId: number): Promise<void> {
  await db.deleteFrom('model_analysis_file').where('dataset_id', '=', datasetId).execute();
}

/**
 * A file with this content, to read the text from (any will do: the content is the same): the
 * first by id, or the first after `afterFileId` when that one could not be read.
 */
export async function fileWithContent(db: Db, sha256: string, afterFileId?: number): Promise<number | undefined> {
  let query = db.selectFrom('model_analysis_file').select('file_id').where('sha256', '=', sha256);
  if (afterFileId !== undefined) query = query.where('file_id', '>', afterFileId);
  const row = await query.orderBy('file_id').limit(1).executeTakeFirst();
  return row ? Number(row.file_id) : undefined;
}

/** A content at least one file is linked to (a content all of whose files were deleted has none). */
const hasLinkedFile = (eb: ExpressionBuilder<Database, 'model_analysis'>) =>
  eb.exists(eb.selectFrom('model_analysis_file as linked').select('linked.file_id').whereRef('linked.sha256', '=', 'model_analysis.sha256'));

/** Whether a pending row is left that claimNext would take. */
export async function anyClaimablePending(db: Db): Promise<boolean> {
  const row = await db.selectFrom('model_analysis').select('id').where('status', '=', 'pending').where(hasLinkedFile).limit(1).executeTakeFirst();
  return row !== undefined;
}

/**
 * Claims the next row to analyse for `instance`: a pending one, or a running one whose claim went
 * stale (its instance stopped without finishing). The UPDATE repeats the condition it was
 * selected by, so when two instances race for one row exactly one updates it. Only a content some
 * file is linked to is claimed: queueing inserts the row a moment before its first link, and a
 * row claimed in between would have no file to read its text from.
 */
export async function claimNext(db: Db, instance: string, staleBefore: string): Promise<AnalysisRow | undefined> {
  for (let tries = 0; tries < 5; tries++) {
    const candidates = await db.selectFrom('model_analysis').select(['id', 'status', 'claimed_at', 'attempts'])
      .where((eb) => eb.or([
        eb('status', '=', 'pending'),
        eb.and([eb('status', '=', 'running'), eb('claimed_at', '<', staleBefore)]),
      ]))
      .where(hasLinkedFile)
      .orderBy('id').limit(5).execute();
    if (candidates.length === 0) return undefined;
    for (const c of candidates) {
      const id = Number(c.id);
      if (c.status === 'running' && Number(c.attempts) >= MAX_ATTEMPTS) {
        // Never retried in a loop: a model whose instance stopped every time it ran is given up.
        await db.updateTable('model_analysis')
          .set({ status: 'failed', error: `The analysis was interrupted ${MAX_ATTEMPTS} times (its server stopped each time) and was given up.`, claimed_by: null, finished_at: nowIso() })
          .where('id', '=', id).where('status', '=', 'running').where('claimed_at', '=', c.claimed_at).execute();
        continue;
      }
      const now = nowIso();
      let update = db.updateTable('model_analysis')
        // A result stored before (`hub analysis:run --all`) is cleared: while running, `result` holds the partial one.
        .set((eb) => ({ status: 'running', claimed_by: instance, claimed_at: now, attempts: eb('attempts', '+', 1), result: null }))
        .where('id', '=', id);
      update = c.status === 'pending'
        ? update.where('status', '=', 'pending')
        : update.where('status', '=', 'running').where('claimed_at', '=', c.claimed_at);
      const won = await update.executeTakeFirst();
      if (Number(won.numUpdatedRows) === 1) {
        const row = await db.selectFrom('model_analysis').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
        return toRow(row);
      }
    }
  }
  return undefined;
}

export async function heartbeat(db: Db, instance: string, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('model_analysis').set({ claimed_at: nowIso() })
    .where('id', 'in', ids).where('claimed_by', '=', instance).where('status', '=', 'running').execute();
}

/** Gives a claimed row back (this instance stops): the next instance or restart takes it at once. */
export async function release(db: Db, instance: string, id: number): Promise<void> {
  await db.updateTable('model_analysis')
    .set((eb) => ({ status: 'pending', claimed_by: null, claimed_at: null, attempts: eb('attempts', '-', 1) }))
    .where('id', '=', id).where('claimed_by', '=', instance).where('status', '=', 'running').execute();
}

/**
 * A claimed row whose run ended without a verdict on the model (its worker crashed, exited or
 * overran): pending again, its attempt counted, so that it is analysed again at once; a row
 * already tried MAX_ATTEMPTS times is finished with `failure` instead.
 */
export async function retryOrFail(db: Db, instance: string, row: { id: number; sha256: string; attempts: number }, failure: Outcome): Promise<void> {
  if (row.attempts >= MAX_ATTEMPTS) {
    await finish(db, instance, row, failure, null);
    return;
  }
  await db.updateTable('model_analysis')
    .set({ status: 'pending', claimed_by: null, claimed_at: null, result: null })
    .where('id', '=', row.id).where('claimed_by', '=', instance).where('status', '=', 'running').execute();
}

/** What a finished run stores: the result columns of model_analysis, with a final status. */
export type Outcome = Pick<ModelAnalysisTable, 'error' | 'result' | (typeof COPIED)[number]> & {
  status: Exclude<StoredStatus, 'pending' | 'running'>;
};

/** Stores the outcome of a claim this instance still holds, with the feature names (same transaction). */
/** The result known so far of a row this instance is running (results as they come). */
export async function storeProgress(db: Db, instance: string, id: number, partialJson: string): Promise<void> {
  await db.updateTable('model_analysis').set({ result: partialJson })
    .where('id', '=', id).where('claimed_by', '=', instance).where('status', '=', 'running').execute();
}

export async function finish(db: Db, instance: string, row: { id: number; sha256: string }, outcome: Outcome, namesText: string | null): Promise<boolean> {
  const id = row.id;
  const { error: _error, result: _result, ...copied } = outcome;
  const stored = await db.transaction().execute(async (trx) => {
    const updated = await trx.updateTable('model_analysis')
      .set({ ...outcome, claimed_by: null, finished_at: nowIso() })
      .where('id', '=', id).where('claimed_by', '=', instance).where('status', '=', 'running').executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return false;
    await trx.updateTable('model_analysis_file').set({ ...copied, analysis_id: id }).where('sha256', '=', row.sha256).execute();
    await trx.deleteFrom('model_feature_names').where('analysis_id', '=', id).execute();
    if (isSqlite(trx)) await sql`DELETE FROM model_feature_names_fts WHERE rowid = ${id}`.execute(trx);
    if (namesText !== null) {
      await trx.insertInto('model_feature_names').values({ analysis_id: id, names_text: namesText }).execute();
      if (isSqlite(trx)) await sql`INSERT INTO model_feature_names_fts (rowid, names_text) VALUES (${id}, ${namesText})`.execute(trx);
    }
    return true;
  });
  if (stored) {
    // A file linked while the transaction ran (on PostgreSQL its row came after the UPDATE above
    // read the table, and linkFile's own second look saw the content still running) gets the
    // result now, unless the content is being computed again meanwhile.
    await db.updateTable('model_analysis_file').set({ ...copied, analysis_id: id })
      .where('sha256', '=', row.sha256).where('status', '<>', outcome.status)
      .where((eb) => eb.exists(eb.selectFrom('model_analysis as content').select('content.id').where('content.id', '=', id).where('content.status', '=', outcome.status)))
      .execute();
  }
  return stored;
}

/** `hub analysis:run --all`: every finished or failed result is computed again. */
export async function resetAll(db: Db): Promise<number> {
  const updated = await db.updateTable('model_analysis')
    .set({ status: 'pending', claimed_by: null, claimed_at: null, attempts: 0 })
    .where('status', 'in', ['done', 'partial', 'failed']).executeTakeFirst();
  // Until computed again, those models match no analysis-based filter.
  await db.updateTable('model_analysis_file').set({ status: 'pending' }).where('status', 'in', ['done', 'partial', 'failed']).execute();
  return Number(updated.numUpdatedRows);
}

export async function countByStatus(db: Db): Promise<Record<string, number>> {
  const rows = await db.selectFrom('model_analysis').select(['status', (eb) => eb.fn.countAll().as('n')]).groupBy('status').execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

export interface FileAnalysisRow extends AnalysisRow { file_id: number; dataset_id: number; name: string }

export async function byFileIds(db: Db, fileIds: number[]): Promise<Map<number, FileAnalysisRow>> {
  if (fileIds.length === 0) return new Map();
  const rows = await db.selectFrom('model_analysis_file as f')
    .innerJoin('model_analysis as a', 'a.sha256', 'f.sha256')
    .selectAll('a').select(['f.file_id', 'f.dataset_id', 'f.name'])
    .where('f.file_id', 'in', fileIds).execute();
  return new Map(rows.map((r) => [Number(r.file_id), { ...toRow(r), file_id: Number(r.file_id), dataset_id: Number(r.dataset_id), name: r.name }]));
}

/** The conditions of a filter on a file row `f` (finished analyses only: a pending one matches no field). */
function conditions(db: DbOrTrx, filter: ModelFilter) {
  const parts = [sql<SqlBool>`f.status IN ('done', 'partial')`];
  for (const name of ['features', 'constraints', 'depth'] as const) {
    const range = filter[name];
    if (range?.min !== undefined) parts.push(sql<SqlBool>`${sql.ref(`f.${name}`)} >= ${range.min}`);
    if (range?.max !== undefined) parts.push(sql<SqlBool>`${sql.ref(`f.${name}`)} <= ${range.max}`);
  }
  const counts = filter.configurations;
  // More digits is larger; with as many digits, the digit strings compare like the numbers.
  if (counts?.min !== undefined) {
    parts.push(sql<SqlBool>`(f.config_digits > ${counts.min.length} OR (f.config_digits = ${counts.min.length} AND f.configurations >= ${counts.min}))`);
  }
  if (counts?.max !== undefined) {
    parts.push(sql<SqlBool>`(f.config_digits < ${counts.max.length} OR (f.config_digits = ${counts.max.length} AND f.configurations <= ${counts.max}))`);
  }
  if (filter.satisfiable !== undefined) parts.push(sql<SqlBool>`f.satisfiable = ${filter.satisfiable ? 1 : 0}`);
  if (filter.has_dead !== undefined) parts.push(sql<SqlBool>`f.has_dead = ${filter.has_dead ? 1 : 0}`);
  if (filter.language_level !== undefined) parts.push(sql<SqlBool>`f.language_level = ${filter.language_level}`);
  if (filter.feature !== undefined) {
    const word = filter.feature;
    if (isSqlite(db) && word.length >= TRIGRAM) {
      // Normalized text holds letters, digits and single spaces: a quoted FTS5 phrase needs no escaping.
      parts.push(sql<SqlBool>`f.analysis_id IN (SELECT rowid FROM model_feature_names_fts WHERE model_feature_names_fts MATCH ${`"${word}"`})`);
    } else {
      parts.push(sql<SqlBool>`EXISTS (SELECT 1 FROM model_feature_names n WHERE n.analysis_id = f.analysis_id AND n.names_text LIKE ${`%${word}%`})`);
    }
  }
  return sql.join(parts, sql` AND `);
}

/**
 * True for a dataset (its id at `datasetRef` in the outer query) with at least one model that
 * satisfies every field of the filter. Correlated, so a text search narrows first and this is one
 * index lookup per remaining dataset (the file rows carry the filter columns: no join).
 */
export function datasetCondition(db: DbOrTrx, filter: ModelFilter, datasetRef: Expression<unknown>): Expression<SqlBool> {
  return sql<SqlBool>`EXISTS (SELECT 1 FROM model_analysis_file f WHERE f.dataset_id = ${datasetRef} AND ${conditions(db, filter)})`;
}

export interface ModelSummaryRow {
  file_id: number; dataset_id: number; name: string; status: StoredStatus | null;
  features: number | null; constraints: number | null; configurations: string | null; satisfiable: number | null;
}

/** The models of the datasets (file order), only those satisfying `filter` when one is given. */
export async function modelsOfDatasets(db: Db, datasetIds: number[], filter: ModelFilter | null): Promise<ModelSummaryRow[]> {
  if (datasetIds.length === 0) return [];
  const where = filter ? sql<SqlBool>`AND ${conditions(db, filter)}` : sql``;
  const rows = await sql<ModelSummaryRow>`SELECT f.file_id, f.dataset_id, f.name, f.status, f.features, f.constraints, f.configurations, f.satisfiable
    FROM model_analysis_file f
    WHERE f.dataset_id IN (${sql.join(datasetIds)}) ${where} ORDER BY f.file_id`.execute(db);
  return rows.rows.map((r) => ({
    ...r, file_id: Number(r.file_id), dataset_id: Number(r.dataset_id),
    features: r.features === null ? null : Number(r.features), constraints: r.constraints === null ? null : Number(r.constraints),
    satisfiable: r.satisfiable === null ? null : Number(r.satisfiable),
  }));
}
