// Queries on model_sample. A result is computed once: the instance whose INSERT of the claimed
// row succeeds computes it (the unique key stops every other); a claim left by a stopped
// instance is taken over by one conditional UPDATE once it is older than the stale limit.
import { isUniqueViolation, type Db } from '../../core/db/connect.ts';
import { nowIso } from '../../core/db/database.ts';
import type { SampleStatus } from './configurator.tables.ts';

export interface SampleKey { sha256: string; kind: string; params: string; engine_version: string }

export interface SampleRow { id: number; status: SampleStatus; result: string | null; stored_key: string | null; error: string | null; claimed_at: string | null }

/** The summary of a stored result (commonality: the probabilities), undefined when not stored (yet). */
export async function findSummary(db: Db, key: SampleKey): Promise<string | null | undefined> {
  const row = await db.selectFrom('model_sample').select(['status', 'summary'])
    .where('sha256', '=', key.sha256).where('kind', '=', key.kind).where('params', '=', key.params)
    .where('engine_version', '=', key.engine_version).executeTakeFirst();
  return row?.status === 'done' ? row.summary : undefined;
}

export async function find(db: Db, key: SampleKey): Promise<SampleRow | undefined> {
  const row = await db.selectFrom('model_sample').select(['id', 'status', 'result', 'stored_key', 'error', 'claimed_at'])
    .where('sha256', '=', key.sha256).where('kind', '=', key.kind).where('params', '=', key.params)
    .where('engine_version', '=', key.engine_version).executeTakeFirst();
  return row && { ...row, id: Number(row.id) };
}

/** The new row's id when this instance claimed the key, else undefined (another one has it). */
export async function claimNew(db: Db, key: SampleKey, instance: string): Promise<number | undefined> {
  const now = nowIso();
  try {
    await db.insertInto('model_sample').values({ ...key, status: 'running', claimed_by: instance, claimed_at: now, created_at: now } as any).execute();
  } catch (error) {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
  return (await find(db, key))?.id;
}

/** Takes over a running row whose claim is older than `staleBefore`; true when this instance won it. */
export async function claimStale(db: Db, id: number, instance: string, staleBefore: string): Promise<boolean> {
  const result = await db.updateTable('model_sample').set({ claimed_by: instance, claimed_at: nowIso() })
    .where('id', '=', id).where('status', '=', 'running').where('claimed_at', '<', staleBefore).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function finish(db: Db, id: number, instance: string, outcome: { status: 'done' | 'failed'; result: string | null; stored_key?: string | null; summary: string | null; error: string | null }): Promise<void> {
  await db.updateTable('model_sample').set({ ...outcome, finished_at: nowIso() })
    .where('id', '=', id).where('claimed_by', '=', instance).execute();
}

/** A claim given back (the server stops): the next request claims it again at once. */
export async function release(db: Db, id: number, instance: string): Promise<void> {
  await db.deleteFrom('model_sample').where('id', '=', id).where('claimed_by', '=', instance).where('status', '=', 'running').execute();
}

/** A done row whose stored sample is gone (a store restored without it): computed again at the next request. */
export async function forget(db: Db, id: number): Promise<void> {
  await db.deleteFrom('model_sample').where('id', '=', id).where('status', '=', 'done').execute();
}
