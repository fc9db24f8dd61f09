// The figures of the stored analyses for the statistics module (extensions section 8), grouped
// by value in the database over the per-file rows (the small copies the search reads, no join):
// the answer is one row per distinct value, not one per model. Reading every row into JavaScript
// instead took 1.4-2.7 s at 200 000 models on SQLite.
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db } from '../../core/db/connect.ts';

/** How many finished models have each value of a measure, by increasing value (nulls left out). */
export type ValueCounts = { value: number; count: number }[];

export interface CorpusCounts {
  /** Model files of the included datasets, analysed or not. */
  models: number;
  /** Those with a finished (done or partial) analysis: the figures below are theirs. */
  analysed: number;
  features: ValueCounts;
  constraints: ValueCounts;
  depth: ValueCounts;
  configurationDigits: ValueCounts;
  languageLevels: Record<string, number>;
  withDead: number;
  void: number;
}

const MEASURES = { features: 'features', constraints: 'constraints', depth: 'depth', configurationDigits: 'config_digits' } as const;

/**
 * The models of every dataset but the excluded ones: `excludedDatasetIds` is a query of dataset
 * ids (the dataset module's, e.g. those not published), evaluated once by the database, not per row.
 */
export async function corpusCounts(db: Db, excludedDatasetIds: Expression<unknown>): Promise<CorpusCounts> {
  const included = sql<SqlBool>`f.dataset_id NOT IN (${excludedDatasetIds})`;
  const finished = sql<SqlBool>`f.status IN ('done', 'partial') AND ${included}`;
  const grouped = async (column: string) => {
    const ref = sql.ref(`f.${column}`);
    const rows = await sql<{ value: unknown; n: unknown }>`SELECT ${ref} AS value, COUNT(*) AS n FROM model_analysis_file f
      WHERE ${finished} AND ${ref} IS NOT NULL GROUP BY ${ref}`.execute(db);
    return rows.rows.map((r) => ({ value: r.value, count: Number(r.n) }));
  };
  const numeric = (rows: { value: unknown; count: number }[]): ValueCounts =>
    rows.map((r) => ({ value: Number(r.value), count: r.count })).sort((a, b) => a.value - b.value);
  // One after another: SQLite runs them in turn anyway, and one page does not hold the whole pool.
  const features = numeric(await grouped(MEASURES.features));
  const constraints = numeric(await grouped(MEASURES.constraints));
  const depth = numeric(await grouped(MEASURES.depth));
  const configurationDigits = numeric(await grouped(MEASURES.configurationDigits));
  const levels = await grouped('language_level');
  const totals = (await sql<{ models: unknown; analysed: unknown; dead: unknown; void: unknown }>`SELECT COUNT(*) AS models,
      SUM(CASE WHEN f.status IN ('done', 'partial') THEN 1 ELSE 0 END) AS analysed,
      SUM(CASE WHEN f.status IN ('done', 'partial') AND f.has_dead = 1 THEN 1 ELSE 0 END) AS dead,
      SUM(CASE WHEN f.status IN ('done', 'partial') AND f.satisfiable = 0 THEN 1 ELSE 0 END) AS void
      FROM model_analysis_file f WHERE ${included}`.execute(db)).rows[0];
  return {
    models: Number(totals?.models ?? 0),
    analysed: Number(totals?.analysed ?? 0),
    features, constraints, depth, configurationDigits,
    languageLevels: Object.fromEntries(levels.map((r) => [String(r.value), r.count])),
    // SUM over no rows is NULL on every dialect.
    withDead: Number(totals?.dead ?? 0),
    void: Number(totals?.void ?? 0),
  };
}

/**
 * Moves when a file is linked or an analysis is queued or finished, on any instance: the
 * statistics module compares it to decide whether its kept figures are current. Read through
 * indexes only (the largest ids, the few unfinished rows of the status index), so that it stays
 * about a millisecond at 100 000 datasets. Deletions move it only when they end a pending row; the
 * statistics module learns of them from the dataset.deleted event and its time limit.
 */
export async function corpusStamp(db: Db): Promise<string> {
  const [analyses, files] = await Promise.all([
    sql<{ maxid: unknown; unfinished: unknown }>`SELECT (SELECT MAX(id) FROM model_analysis) AS maxid,
      (SELECT COUNT(*) FROM model_analysis WHERE status IN ('pending', 'running')) AS unfinished`.execute(db),
    sql<{ maxid: unknown }>`SELECT MAX(file_id) AS maxid FROM model_analysis_file`.execute(db),
  ]);
  return `${Number(analyses.rows[0]?.maxid ?? 0)}:${Number(analyses.rows[0]?.unfinished ?? 0)}:${Number(files.rows[0]?.maxid ?? 0)}`;
}
