// Queries on file, file_view_record and file_download_record. Plain functions over a handle
// or a transaction; IN lists are cut into chunks so that every dialect accepts them.
import type { DbOrTrx } from '../../core/db/connect.ts';
import { inChunks, insertAndGetId, insertUnlessDuplicate } from '../../core/db/connect.ts';
import { nowIso } from '../../core/db/database.ts';

/** The file a model was converted from (issue 27): stored beside it under `name`. */
export interface FileOriginal {
  name: string;
  /** `featureide`, `sxfm` or `glencoe`. */
  format: string;
  size: number;
  sha256: string;
  /** What the conversion could not carry over; empty when nothing was lost. */
  losses: string[];
}

export interface FileRow {
  id: number;
  name: string;
  checksum: string;
  size: number;
  feature_model_id: number;
  original: FileOriginal | null;
}

const FILE_COLUMNS = ['id', 'name', 'checksum', 'size', 'feature_model_id', 'original_name', 'original_format', 'original_size', 'original_sha256', 'conversion_losses'] as const;

interface RawFileRow {
  id: number; name: string; checksum: string; size: number | string; feature_model_id: number;
  original_name: string | null; original_format: string | null; original_size: number | string | null; original_sha256: string | null; conversion_losses: string | null;
}

const toFileRow = (r: RawFileRow): FileRow => ({
  id: Number(r.id), name: r.name, checksum: r.checksum, size: Number(r.size), feature_model_id: Number(r.feature_model_id),
  original: r.original_name === null ? null : {
    name: r.original_name, format: r.original_format ?? '', size: Number(r.original_size ?? 0), sha256: r.original_sha256 ?? '',
    losses: r.conversion_losses ? JSON.parse(r.conversion_losses) as string[] : [],
  },
});

export function insertFile(db: DbOrTrx, featureModelId: number, file: { name: string; checksum: string; size: number; original?: FileOriginal | null }): Promise<number> {
  const o = file.original;
  return insertAndGetId(db, 'file', {
    name: file.name, checksum: file.checksum, size: file.size, feature_model_id: featureModelId,
    original_name: o?.name ?? null, original_format: o?.format ?? null, original_size: o?.size ?? null,
    original_sha256: o?.sha256 ?? null, conversion_losses: o ? JSON.stringify(o.losses) : null,
  });
}

export async function findFile(db: DbOrTrx, id: number): Promise<FileRow | undefined> {
  const row = await db.selectFrom('file').select(FILE_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row && toFileRow(row);
}

/** Files of the given feature models, in creation order. */
export async function listByFeatureModels(db: DbOrTrx, featureModelIds: readonly number[]): Promise<FileRow[]> {
  const rows: FileRow[] = [];
  for (const part of inChunks(featureModelIds)) {
    const found = await db.selectFrom('file').select(FILE_COLUMNS)
      .where('feature_model_id', 'in', part).orderBy('id').execute();
    for (const r of found) rows.push(toFileRow(r));
  }
  return rows;
}

/** Removes the files of the given feature models and every view and download record of them. */
export async function deleteByFeatureModels(db: DbOrTrx, featureModelIds: readonly number[]): Promise<void> {
  for (const part of inChunks(featureModelIds)) {
    const files = db.selectFrom('file').select('id').where('feature_model_id', 'in', part);
    await db.deleteFrom('file_view_record').where('file_id', 'in', files).execute();
    await db.deleteFrom('file_download_record').where('file_id', 'in', files).execute();
    await db.deleteFrom('file').where('feature_model_id', 'in', part).execute();
  }
}

export type RecordTable = 'file_view_record' | 'file_download_record';

/**
 * Writes one record unless this (user or anonymous, file, cookie) already has one. The unique
 * index decides, so two requests racing on two instances still leave a single row.
 * Answers whether a row was written.
 */
export async function insertRecordOnce(db: DbOrTrx, table: RecordTable, fileId: number, userId: number | null, cookie: string): Promise<boolean> {
  return insertUnlessDuplicate(db, table, { file_id: fileId, user_id: userId, user_key: userId ?? 0, cookie, date: nowIso() });
}

export async function countRecords(db: DbOrTrx, table: RecordTable, fileId?: number): Promise<number> {
  let query = db.selectFrom(table).select((eb) => eb.fn.countAll().as('n'));
  if (fileId !== undefined) query = query.where('file_id', '=', fileId);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}
