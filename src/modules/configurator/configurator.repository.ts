// Queries on model_sample. A result is computed once: the instance whose INSERT of the claimed
// row succeeds computes it (the unique key stops every other); a claim left by a stopped
// instance is taken over by one conditional UPDATE once it is older than the stale limit. A finished
// sample weighs `stored_bytes` against SAMPLE_STORE_MAX_BYTES; the least recently used go first
// (configurator.evict.ts), each deleted by id only while it is still finished and unused since.
import { sql } from 'kysely';
import { isUniqueViolation, type Db } from '../../core/db/connect.ts';
import { nowIso } from '../../core/db/database.ts';
import type { SampleStatus } from './configurator.tables.ts';

export interface SampleKey { sha256: string; kind: string; params: string; engine_version: string }

export interface SampleRow { id: number; status: SampleStatus; result: string | null; stored_key: string | null; error: string | null; claimed_at: string | null; last_used_at: string | null }

/** What a sample row holds besides its object or text (its key, parameters, dates), counted with it. */
export const ROW_BYTES = 256;

/** The summary of a stored result (commonality: the probabilities), undefined when not stored (yet). */
export async function findSummary(db: Db, key: SampleKey): Promise<string | null | undefined> {
  const row = await db.selectFrom('model_sample').select(['status', 'summary'])
    .where('sha256', '=', key.sha256).where('kind', '=', key.kind).where('params', '=', key.params)
    .where('engine_version', '=', key.engine_version).executeTakeFirst();
  return row?.status === 'done' ? row.summary : undefined;
}

export async function find(db: Db, key: SampleKey): Promise<SampleRow | undefined> {
  const row = await db.selectFrom('model_sample').select(['id', 'status', 'result', 'stored_key', 'error', 'claimed_at', 'last_used_at'])
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

/**
 * Stores the outcome of this instance's claim; false when the claim is not this instance's any more
 * (another one took it over). `stored_bytes`: the sample's weight (none for the commonality).
 */
export async function finish(db: Db, id: number, instance: string, outcome: { status: 'done' | 'failed'; result: string | null; stored_key?: string | null; stored_bytes?: number | null; summary: string | null; error: string | null }): Promise<boolean> {
  const now = nowIso();
  const result = await db.updateTable('model_sample').set({ ...outcome, finished_at: now, last_used_at: now })
    .where('id', '=', id).where('claimed_by', '=', instance).where('status', '=', 'running').executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A claim given back (the server stops): the next request claims it again at once. */
export async function release(db: Db, id: number, instance: string): Promise<void> {
  await db.deleteFrom('model_sample').where('id', '=', id).where('claimed_by', '=', instance).where('status', '=', 'running').execute();
}

/** A done row whose stored sample is gone (a store restored without it): computed again at the next request. */
export async function forget(db: Db, id: number, storedKey: string): Promise<void> {
  await db.deleteFrom('model_sample').where('id', '=', id).where('status', '=', 'done').where('stored_key', '=', storedKey).execute();
}

/** Dates a finished row served now, unless it was dated after `before` (by this or another instance): one write a minute at most. */
export async function touch(db: Db, id: number, before: string): Promise<void> {
  await db.updateTable('model_sample').set({ last_used_at: nowIso() })
    .where('id', '=', id).where('status', 'in', ['done', 'failed']).where('last_used_at', '<', before).execute();
}

/** The weight of the finished samples (the running ones weigh nothing yet). */
export async function storedTotal(db: Db): Promise<number> {
  const row = await db.selectFrom('model_sample').select((s) => sql<string | number | null>`sum(${s.ref('stored_bytes')})`.as('total'))
    .where('status', 'in', ['done', 'failed']).executeTakeFirst();
  return Number(row?.total ?? 0);
}

export interface EvictionCandidate { id: number; stored_key: string | null; stored_bytes: number; last_used_at: string | null }

/** The least recently used finished samples, oldest first; `keep`: ids left out (samples this instance just stored). */
export async function leastRecentlyUsed(db: Db, limit: number, keep: number[]): Promise<EvictionCandidate[]> {
  let query = db.selectFrom('model_sample').select(['id', 'stored_key', 'stored_bytes', 'last_used_at'])
    .where('status', 'in', ['done', 'failed']).where('stored_bytes', 'is not', null);
  if (keep.length > 0) query = query.where('id', 'not in', keep);
  const rows = await query.orderBy('last_used_at').orderBy('id').limit(limit).execute();
  return rows.map((r) => ({ id: Number(r.id), stored_key: r.stored_key, stored_bytes: Number(r.stored_bytes), last_used_at: r.last_used_at }));
}

/**
 * Deletes a finished sample's row unless it was served (dated again) or claimed since it was
 * chosen: true when this call deleted it (its object may then go). A reader that read the row
 * before finds no object and computes the sample again (configurator.service.ts `stored`).
 */
export async function evict(db: Db, row: EvictionCandidate): Promise<boolean> {
  let query = db.deleteFrom('model_sample').where('id', '=', row.id).where('status', 'in', ['done', 'failed']);
  query = row.last_used_at === null ? query.where('last_used_at', 'is', null) : query.where('last_used_at', '=', row.last_used_at);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Packed samples stored before their size was kept (migration 2026_12_05_0450): measured in the store by the cleanup. */
export async function unmeasured(db: Db, limit: number): Promise<{ id: number; stored_key: string }[]> {
  const rows = await db.selectFrom('model_sample').select(['id', 'stored_key'])
    .where('status', '=', 'done').where('kind', '<>', 'commonality').where('stored_bytes', 'is', null).where('stored_key', 'is not', null)
    .orderBy('id').limit(limit).execute();
  return rows.map((r) => ({ id: Number(r.id), stored_key: r.stored_key! }));
}

export async function measure(db: Db, id: number, bytes: number): Promise<void> {
  await db.updateTable('model_sample').set({ stored_bytes: bytes }).where('id', '=', id).where('stored_bytes', 'is', null).execute();
}
