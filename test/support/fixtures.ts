// Row fixtures for tests that need data owned by a module not under test.
import { createHash } from 'node:crypto';
import type { Db } from '../../src/core/db/connect.ts';
import { nowIso } from '../../src/core/db/database.ts';
import type { TestServer } from './server.ts';
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

let storedModels = 0;

/**
 * A dataset row (synchronized unless `doi` is null) with one feature model and one file, made
 * through the featuremodel and hubfile services, the file put in the store under the key hubfile
 * reads it from (the uploads folder, or the bucket with TEST_STORAGE=s3).
 */
export async function storeModelFile(
  server: TestServer,
  options: { label: string; content: string; owner?: string; doi?: string | null; name?: string; modelTitle?: string },
): Promise<{ datasetId: number; fileId: number; prefix: string; key: string; doi: string | null }> {
  const { db, ctx } = server.hub;
  const name = options.name ?? 'model.uvl';
  const userId = await userIdByEmail(db, options.owner ?? 'user1@example.com');
  storedModels += 1;
  const doi = options.doi === undefined ? `10.9999/${options.label.toLowerCase()}.${storedModels}` : options.doi;
  const datasetId = await insertDatasetRow(db, userId, { title: `${options.label} fixture ${storedModels}`, doi, createdAt: nowIso() });
  const fmId = await ctx.services.featuremodel.createFeatureModel(db, datasetId, {
    uvl_filename: name, title: options.modelTitle ?? 'Fixture model', description: '', publication_type: 'none',
    publication_doi: null, tags: null, uvl_version: null, authors: [],
  });
  const fileId = await ctx.services.hubfile.createFile(db, fmId, {
    name, checksum: createHash('md5').update(options.content).digest('hex'), size: Buffer.byteLength(options.content),
  });
  const prefix = ctx.services.hubfile.datasetPrefix(userId, datasetId);
  await ctx.store.put(`${prefix}${name}`, options.content);
  return { datasetId, fileId, prefix, key: `${prefix}${name}`, doi };
}

/**
 * A model importing a chain of `depth` files (main.uvl imports m1.uvl, which imports m2.uvl, …),
 * each adding one optional feature below the last: depth + 1 configurations once every level is
 * read, fewer when a reader gives up early (the missing level is one leaf, the rest is lost).
 */
export function importChain(depth: number): { main: string; files: Record<string, string>; configurations: string } {
  const files: Record<string, string> = {};
  for (let i = 1; i <= depth; i++) {
    const next = i < depth ? `imports\n    m${i + 1} as n\n` : '';
    files[`m${i}.uvl`] = `${next}features\n    F${i}\n${i < depth ? `        optional\n            n.F${i + 1}\n` : ''}`;
  }
  return { main: 'imports\n    m1 as n\nfeatures\n    Root\n        optional\n            n.F1\n', files, configurations: String(depth + 1) };
}
