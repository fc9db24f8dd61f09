// Where imported models came from (extensions section 13): the URL given (and a Zenodo record's
// DOI) becomes a related identifier of the dataset that holds them. A model staged from a URL is
// remembered by its staged name until an upload takes it; one added by the API names its dataset.
import type { Generated } from 'kysely';
import type { DbOrTrx } from '../../../core/db/connect.ts';
import { inChunks } from '../../../core/db/connect.ts';
import { nowIso } from '../../../core/db/database.ts';

export interface ImportSourceTable {
  id: Generated<number>;
  user_id: number;
  dataset_id: number | null;
  staged_name: string | null;
  url: string;
  doi: string | null;
  created_at: string;
}

declare module '../../../core/db/database.ts' {
  interface Database {
    import_source: ImportSourceTable;
  }
}

/** A source as a related identifier: Zenodo's metadata spelling (`isDerivedFrom`, `url`, `doi`). */
export interface RelatedIdentifier { identifier: string; relation: 'isDerivedFrom'; scheme: 'url' | 'doi' }

export async function recordStaged(db: DbOrTrx, userId: number, source: { url: string; doi: string | null }, stagedNames: string[]): Promise<void> {
  // A name staged again from another URL now stands for that one.
  await forgetStaged(db, userId, stagedNames);
  for (const name of stagedNames) {
    await db.insertInto('import_source').values({ user_id: userId, dataset_id: null, staged_name: name, url: source.url, doi: source.doi, created_at: nowIso() }).execute();
  }
}

/**
 * These staged names no longer stand for what was imported under them: the staged file was
 * removed, or another file (an upload, another import) took the name. Without this, a model
 * uploaded later under the name would be published as derived from the old source.
 */
export async function forgetStaged(db: DbOrTrx, userId: number, stagedNames: string[]): Promise<void> {
  for (const chunk of inChunks(stagedNames)) {
    await db.deleteFrom('import_source').where('user_id', '=', userId).where('dataset_id', 'is', null).where('staged_name', 'in', chunk).execute();
  }
}

export async function recordForDataset(db: DbOrTrx, userId: number, datasetId: number, source: { url: string; doi: string | null }): Promise<void> {
  await db.insertInto('import_source').values({ user_id: userId, dataset_id: datasetId, staged_name: null, url: source.url, doi: source.doi, created_at: nowIso() }).execute();
}

/**
 * The upload took these staged files into the dataset: their sources now belong to it. Run in the
 * transaction that saves the dataset. The staged name is kept, so that a dataset removed again
 * before its files go back to the staging area can give the sources back with them.
 */
export async function attachStaged(db: DbOrTrx, userId: number, datasetId: number, stagedNames: string[]): Promise<void> {
  for (const chunk of inChunks(stagedNames)) {
    await db.updateTable('import_source').set({ dataset_id: datasetId })
      .where('user_id', '=', userId).where('dataset_id', 'is', null).where('staged_name', 'in', chunk).execute();
  }
}

/**
 * The dataset is removed and the staged files it was made of go back to the staging area (a new
 * version whose publish failed): their sources go back with them, for the next upload. Run in
 * the transaction that removes the dataset, before its rows go (they would take the sources).
 */
export async function giveBackStaged(db: DbOrTrx, datasetId: number): Promise<void> {
  await db.updateTable('import_source').set({ dataset_id: null })
    .where('dataset_id', '=', datasetId).where('staged_name', 'is not', null).execute();
}

/** A new version made from `fromDatasetId` holds its models, so it is derived from the same sources. */
export async function inheritSources(db: DbOrTrx, fromDatasetId: number, toDatasetId: number): Promise<void> {
  const rows = await db.selectFrom('import_source').select(['user_id', 'url', 'doi']).where('dataset_id', '=', fromDatasetId).orderBy('id').execute();
  const createdAt = nowIso();
  for (const row of rows) {
    await db.insertInto('import_source').values({ user_id: row.user_id, dataset_id: toDatasetId, staged_name: null, url: row.url, doi: row.doi, created_at: createdAt }).execute();
  }
}

/** The dataset's sources as related identifiers (each once): the URL, and the record's DOI. */
export async function relatedIdentifiersOf(db: DbOrTrx, datasetId: number): Promise<RelatedIdentifier[]> {
  return (await relatedIdentifiersByDataset(db, [datasetId])).get(datasetId) ?? [];
}

/**
 * The sources of several datasets, one query per chunk of ids (the summaries of an OAI page read
 * them together); a dataset without any is absent from the map.
 */
export async function relatedIdentifiersByDataset(db: DbOrTrx, datasetIds: readonly number[]): Promise<Map<number, RelatedIdentifier[]>> {
  const byDataset = new Map<number, { url: string; doi: string | null }[]>();
  for (const chunk of inChunks([...new Set(datasetIds)])) {
    const rows = await db.selectFrom('import_source').select(['dataset_id', 'url', 'doi']).where('dataset_id', 'in', chunk).orderBy('id').execute();
    for (const row of rows) {
      const id = Number(row.dataset_id);
      let ofDataset = byDataset.get(id);
      if (ofDataset === undefined) byDataset.set(id, (ofDataset = []));
      ofDataset.push(row);
    }
  }
  return new Map([...byDataset].map(([id, rows]) => [id, identifiersOf(rows)]));
}

function identifiersOf(rows: { url: string; doi: string | null }[]): RelatedIdentifier[] {
  const seen = new Set<string>();
  const result: RelatedIdentifier[] = [];
  const add = (identifier: string, scheme: RelatedIdentifier['scheme']) => {
    if (seen.has(`${scheme}:${identifier}`)) return;
    seen.add(`${scheme}:${identifier}`);
    result.push({ identifier, relation: 'isDerivedFrom', scheme });
  };
  for (const row of rows) {
    if (row.doi) add(row.doi, 'doi');
    if (/^https?:\/\//i.test(row.url) && !/^https?:\/\/(dx\.)?doi\.org\//i.test(row.url)) add(row.url, 'url');
  }
  return result;
}
