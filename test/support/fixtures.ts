// Row fixtures for tests that need data owned by a module not under test.
import type { Db } from '../../src/core/db/connect.ts';
import { insertAndGetId } from '../../src/core/db/connect.ts';

export async function userIdByEmail(db: Db, email: string): Promise<number> {
  const row = await db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  return row.id;
}

/** A bare dataset row with its metadata (no files), created at the given time. */
export async function insertDatasetRow(db: Db, userId: number, options: { title: string; doi?: string | null; createdAt: string }): Promise<number> {
  const metaId = await insertAndGetId(db, 'ds_meta_data', {
    title: options.title, description: `Description of ${options.title}`, publication_type: 'none',
    publication_doi: null, dataset_doi: options.doi ?? null, tags: 'tag1, tag2', deposition_id: null, ds_metrics_id: null,
  });
  return insertAndGetId(db, 'data_set', { user_id: userId, ds_meta_data_id: metaId, created_at: options.createdAt });
}
