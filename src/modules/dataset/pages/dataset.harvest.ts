// Published datasets in a stable order for harvesters (extensions section 13, OAI-PMH): every
// version with its own DOI, never a draft or an unsynchronized dataset. The datestamp is the last
// change of the published metadata: the newest metadata edit (dataset_edit, which also updates
// the deposit under the same DOI) when it came after the publication, else the publication
// (ds_meta_data.published_at, stored with the DOI; the creation for a dataset without it). A
// draft published days after its creation is so dated by its publication, and an incremental
// harvest (from= its last harvest) gets it. The order (datestamp, id) lets a page start after the
// last key seen, so datasets published meanwhile neither drop nor repeat a record; an edited or
// newly published one moves to the end, as a changed record must for an incremental harvest.
// The times are the application's clock taken inside the writing transaction, shortly before its
// commit: a harvest running in that moment can end past a datestamp it did not see yet.
import { sql } from 'kysely';
import type { DbOrTrx } from '../../../core/db/connect.ts';
import type { DatasetSummary } from '../dataset.types.ts';
import type { DatasetDeps } from '../dataset.deps.ts';
import { summaries } from './dataset.parts.ts';

export interface HarvestWindow {
  /** Inclusive lower bound on the datestamp (ISO 8601 text, compared as text). */
  from?: string;
  /** Exclusive upper bound on the datestamp. */
  before?: string;
}

export interface HarvestKey {
  datestamp: string;
  id: number;
}

export interface HarvestedDataset {
  dataset: DatasetSummary;
  /** ISO 8601 text, as stored. */
  datestamp: string;
}

// Timestamps are ISO text on every dialect, so the later of two is the greater text.
const publishedAt = sql<string>`coalesce(md.published_at, ds.created_at)`;
const datestamp = sql<string>`case when le.last_edit is not null and le.last_edit > ${publishedAt} then le.last_edit else ${publishedAt} end`;

function published(db: DbOrTrx, window: HarvestWindow) {
  let query = db.selectFrom('data_set as ds').innerJoin('ds_meta_data as md', 'md.id', 'ds.ds_meta_data_id')
    .leftJoin(
      (eb) => eb.selectFrom('dataset_edit').select(['dataset_id', (e) => e.fn.max('edited_at').as('last_edit')]).groupBy('dataset_id').as('le'),
      (join) => join.onRef('le.dataset_id', '=', 'ds.id'),
    )
    .where('md.dataset_doi', 'is not', null);
  if (window.from !== undefined) query = query.where(datestamp, '>=', window.from);
  if (window.before !== undefined) query = query.where(datestamp, '<', window.before);
  return query;
}

async function withSummaries(d: DatasetDeps, rows: { id: unknown; datestamp: unknown }[]): Promise<HarvestedDataset[]> {
  const stamps = new Map(rows.map((r) => [Number(r.id), String(r.datestamp)]));
  return (await summaries(d, [...stamps.keys()])).map((dataset) => ({ dataset, datestamp: stamps.get(dataset.id)! }));
}

/** At most `limit` published datasets after `after` in (datestamp, id) order. */
export async function harvestPage(d: DatasetDeps, window: HarvestWindow, after: HarvestKey | null, limit: number): Promise<HarvestedDataset[]> {
  let query = published(d.ctx.db, window).select(['ds.id', datestamp.as('datestamp')]);
  if (after) {
    query = query.where((eb) => eb.or([
      eb(datestamp, '>', after.datestamp),
      eb.and([eb(datestamp, '=', after.datestamp), eb('ds.id', '>', after.id)]),
    ]));
  }
  return withSummaries(d, await query.orderBy(datestamp).orderBy('ds.id').limit(limit).execute());
}

/** How many published datasets the window holds (OAI-PMH's completeListSize). */
export async function harvestCount(d: DatasetDeps, window: HarvestWindow): Promise<number> {
  const row = await published(d.ctx.db, window).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The published dataset with this DOI (MariaDB compares ignoring case: the caller checks the DOI). */
export async function harvestByDoi(d: DatasetDeps, doi: string): Promise<HarvestedDataset | undefined> {
  const rows = await published(d.ctx.db, {}).select(['ds.id', datestamp.as('datestamp')]).where('md.dataset_doi', '=', doi).execute();
  return (await withSummaries(d, rows)).find((h) => h.dataset.doi === doi);
}
