// The figures of the stored analyses for the statistics module (extensions section 8). One scan
// of the per-file rows (the small copies the search reads, no join), counted here by value: a
// correlated condition per row or one grouped query per measure each cost more than the scan.
import { sql } from 'kysely';
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

interface FileFigures {
  dataset_id: unknown; status: string; features: unknown; constraints: unknown; depth: unknown;
  config_digits: unknown; language_level: string | null; has_dead: unknown; satisfiable: unknown;
}

class Tally {
  private readonly counts = new Map<number, number>();
  add(value: unknown): void {
    if (value === null || value === undefined) return;
    const n = Number(value);
    this.counts.set(n, (this.counts.get(n) ?? 0) + 1);
  }
  sorted(): ValueCounts {
    return [...this.counts].map(([value, count]) => ({ value, count })).sort((a, b) => a.value - b.value);
  }
}

/** The models of every dataset but the excluded ones (e.g. those not published). */
export async function corpusCounts(db: Db, excludedDatasetIds: ReadonlySet<number>): Promise<CorpusCounts> {
  const rows = await sql<FileFigures>`SELECT f.dataset_id, f.status, f.features, f.constraints, f.depth, f.config_digits,
    f.language_level, f.has_dead, f.satisfiable FROM model_analysis_file f`.execute(db);
  const tallies = { features: new Tally(), constraints: new Tally(), depth: new Tally(), configurationDigits: new Tally() };
  const languageLevels: Record<string, number> = {};
  let models = 0;
  let analysed = 0;
  let withDead = 0;
  let voidModels = 0;
  for (const row of rows.rows) {
    if (excludedDatasetIds.has(Number(row.dataset_id))) continue;
    models++;
    if (row.status !== 'done' && row.status !== 'partial') continue;
    analysed++;
    tallies.features.add(row.features);
    tallies.constraints.add(row.constraints);
    tallies.depth.add(row.depth);
    tallies.configurationDigits.add(row.config_digits);
    if (row.language_level !== null) languageLevels[row.language_level] = (languageLevels[row.language_level] ?? 0) + 1;
    if (Number(row.has_dead) === 1) withDead++;
    if (row.satisfiable !== null && Number(row.satisfiable) === 0) voidModels++;
  }
  return {
    models, analysed,
    features: tallies.features.sorted(), constraints: tallies.constraints.sorted(),
    depth: tallies.depth.sorted(), configurationDigits: tallies.configurationDigits.sorted(),
    languageLevels, withDead, void: voidModels,
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
