// What the statistics module needs of datasets (extensions section 8): which datasets are
// published, and the hub's activity per month. Queries on this module's tables only.
import { sql, type Expression } from 'kysely';
import type { Db } from '../../core/db/connect.ts';

export interface MonthlyActivity {
  /** `YYYY-MM` (timestamps are stored as ISO text, so the month is its first seven characters). */
  month: string;
  datasets: number;
  views: number;
  downloads: number;
}

/**
 * The ids of the datasets not published (no DOI yet: drafts and unsynchronized uploads), as a
 * subquery for another module's `NOT IN (...)`: the database evaluates it once.
 */
export function unpublishedDatasetIds(): Expression<unknown> {
  return sql`SELECT ud.id FROM data_set ud INNER JOIN ds_meta_data um ON um.id = ud.ds_meta_data_id WHERE um.dataset_doi IS NULL`;
}

/**
 * Published datasets by month of publication, and dataset views and downloads by month, oldest
 * first. A dataset appears on the hub when it gets its DOI (ds_meta_data.published_at, stored with
 * it), not when its draft was made; one published before that column has its creation.
 */
export async function monthlyActivity(db: Db): Promise<MonthlyActivity[]> {
  const perMonth = async (query: Promise<{ rows: { month: string; n: unknown }[] }>) =>
    new Map((await query).rows.map((r) => [r.month, Number(r.n)]));
  const [datasets, views, downloads] = await Promise.all([
    perMonth(sql<{ month: string; n: unknown }>`SELECT SUBSTR(COALESCE(m.published_at, d.created_at), 1, 7) AS month, COUNT(*) AS n FROM data_set d
      INNER JOIN ds_meta_data m ON m.id = d.ds_meta_data_id WHERE m.dataset_doi IS NOT NULL GROUP BY SUBSTR(COALESCE(m.published_at, d.created_at), 1, 7)`.execute(db)),
    perMonth(sql<{ month: string; n: unknown }>`SELECT SUBSTR(r.date, 1, 7) AS month, COUNT(*) AS n FROM ds_view_record r GROUP BY SUBSTR(r.date, 1, 7)`.execute(db)),
    perMonth(sql<{ month: string; n: unknown }>`SELECT SUBSTR(r.date, 1, 7) AS month, COUNT(*) AS n FROM ds_download_record r GROUP BY SUBSTR(r.date, 1, 7)`.execute(db)),
  ]);
  const months = [...new Set([...datasets.keys(), ...views.keys(), ...downloads.keys()])].sort();
  return months.map((month) => ({ month, datasets: datasets.get(month) ?? 0, views: views.get(month) ?? 0, downloads: downloads.get(month) ?? 0 }));
}
