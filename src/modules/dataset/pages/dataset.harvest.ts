// Published datasets in a stable order for harvesters (extensions section 13, OAI-PMH): every
// version with its own DOI, never a draft or an unsynchronized dataset. The order (created_at, id)
// never changes under a harvester, so a page that starts after the last key seen neither loses
// nor repeats a record while others are published meanwhile.
import type { DbOrTrx } from '../../../core/db/connect.ts';
import type { DatasetSummary } from '../dataset.types.ts';
import type { DatasetDeps } from '../dataset.deps.ts';
import { summaries } from './dataset.parts.ts';

export interface HarvestWindow {
  /** Inclusive lower bound on created_at (ISO 8601 text, compared as text). */
  from?: string;
  /** Exclusive upper bound on created_at. */
  before?: string;
}

export interface HarvestKey {
  createdAt: string;
  id: number;
}

function published(db: DbOrTrx, window: HarvestWindow) {
  let query = db.selectFrom('data_set as ds').innerJoin('ds_meta_data as md', 'md.id', 'ds.ds_meta_data_id')
    .where('md.dataset_doi', 'is not', null);
  if (window.from !== undefined) query = query.where('ds.created_at', '>=', window.from);
  if (window.before !== undefined) query = query.where('ds.created_at', '<', window.before);
  return query;
}

/** At most `limit` published datasets after `after` in (created_at, id) order. */
export async function harvestPage(d: DatasetDeps, window: HarvestWindow, after: HarvestKey | null, limit: number): Promise<DatasetSummary[]> {
  let query = published(d.ctx.db, window).select('ds.id');
  if (after) {
    query = query.where((eb) => eb.or([
      eb('ds.created_at', '>', after.createdAt),
      eb.and([eb('ds.created_at', '=', after.createdAt), eb('ds.id', '>', after.id)]),
    ]));
  }
  const rows = await query.orderBy('ds.created_at').orderBy('ds.id').limit(limit).execute();
  return summaries(d, rows.map((r) => Number(r.id)));
}

/** How many published datasets the window holds (OAI-PMH's completeListSize). */
export async function harvestCount(d: DatasetDeps, window: HarvestWindow): Promise<number> {
  const row = await published(d.ctx.db, window).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
