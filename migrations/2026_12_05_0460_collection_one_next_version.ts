// One newer version per collection (extensions section 13: a published collection changes only by
// a new version): a unique index on collection.previous_id, so that two "New version" requests at
// once (a double click, two tabs) make one row; the other finds it. A first version's NULL may
// repeat on every dialect.
// Versions made twice before: the first published one (else the first made) stays the newer
// version; each other one is kept, with its members, as a collection of its own (no previous_id;
// an unpublished one becomes a first version, without the concept DOI it was to share).
import { MysqlAdapter, type Kysely } from 'kysely';

/** The ids of the rows that lose their previous_id: all but one per previous_id. */
function extraVersions(rows: { id: number; previous_id: number; doi: string | null }[]): number[] {
  const kept = new Map<number, { id: number; published: boolean }>();
  const extra: number[] = [];
  for (const row of rows) {
    const id = Number(row.id);
    const published = row.doi !== null;
    const first = kept.get(Number(row.previous_id));
    if (first === undefined) kept.set(Number(row.previous_id), { id, published });
    else if (published && !first.published) {
      extra.push(first.id);
      kept.set(Number(row.previous_id), { id, published });
    } else extra.push(id);
  }
  return extra;
}

export async function up(db: Kysely<any>): Promise<void> {
  const rows = await db.selectFrom('collection').select(['id', 'previous_id', 'doi'])
    .where('previous_id', 'is not', null).orderBy('id').execute();
  for (const id of extraVersions(rows)) {
    await db.updateTable('collection').set({ previous_id: null }).where('id', '=', id).execute();
    await db.updateTable('collection').set({ version: 1, concept_doi: null }).where('id', '=', id).where('doi', 'is', null).execute();
  }
  await db.schema.createIndex('collection_previous_unique').on('collection').column('previous_id').unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const drop = db.schema.dropIndex('collection_previous_unique');
  await (db.getExecutor().adapter instanceof MysqlAdapter ? drop.on('collection') : drop).execute();
}
