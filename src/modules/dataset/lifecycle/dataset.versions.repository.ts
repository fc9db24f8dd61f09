// Queries on the versions of a dataset (migration 0200): a concept is its first version's id;
// later versions point at it through data_set.concept_id.
import { inChunks, type DbOrTrx } from '../../../core/db/connect.ts';

export interface VersionRow {
  id: number;
  userId: number;
  versionNumber: number;
  doi: string | null;
  depositionId: number | null;
  conceptDoi: string | null;
}

function versionRows(db: DbOrTrx) {
  return db.selectFrom('data_set as ds')
    .innerJoin('ds_meta_data as md', 'md.id', 'ds.ds_meta_data_id')
    .select(['ds.id', 'ds.user_id', 'ds.version_number', 'md.dataset_doi', 'md.deposition_id', 'md.concept_doi']);
}

function toVersion(r: { id: unknown; user_id: unknown; version_number: unknown; dataset_doi: string | null; deposition_id: unknown; concept_doi: string | null }): VersionRow {
  return {
    id: Number(r.id),
    userId: Number(r.user_id),
    versionNumber: Number(r.version_number),
    doi: r.dataset_doi ?? null,
    depositionId: r.deposition_id === null || r.deposition_id === undefined ? null : Number(r.deposition_id),
    conceptDoi: r.concept_doi ?? null,
  };
}

/** Every version of the concept, oldest first (synchronized or not). */
export async function listVersions(db: DbOrTrx, conceptId: number): Promise<VersionRow[]> {
  return (await listVersionsOfConcepts(db, [conceptId])).get(conceptId) ?? [];
}

/** The versions of several concepts at once, each list oldest first. */
export async function listVersionsOfConcepts(db: DbOrTrx, conceptIds: number[]): Promise<Map<number, VersionRow[]>> {
  const byConcept = new Map<number, VersionRow[]>();
  for (const part of inChunks([...new Set(conceptIds)])) {
    if (part.length === 0) continue;
    const rows = await versionRows(db).select('ds.concept_id')
      .where((eb) => eb.or([eb('ds.id', 'in', part), eb('ds.concept_id', 'in', part)]))
      .orderBy('ds.version_number').orderBy('ds.id').execute();
    for (const r of rows) {
      const concept = r.concept_id === null ? Number(r.id) : Number(r.concept_id);
      byConcept.set(concept, [...(byConcept.get(concept) ?? []), toVersion(r)]);
    }
  }
  return byConcept;
}

/** The versions carrying this concept DOI, oldest first. */
export async function findByConceptDoi(db: DbOrTrx, conceptDoi: string): Promise<VersionRow[]> {
  const rows = await versionRows(db).where('md.concept_doi', '=', conceptDoi).orderBy('ds.version_number').orderBy('ds.id').execute();
  return rows.map(toVersion);
}

/** Stores the concept DOI on every version of the concept (it is learned at a publish). */
export async function setConceptDoi(db: DbOrTrx, conceptId: number, conceptDoi: string): Promise<void> {
  const metaIds = (await db.selectFrom('data_set').select('ds_meta_data_id')
    .where((eb) => eb.or([eb('id', '=', conceptId), eb('concept_id', '=', conceptId)])).execute()).map((r) => Number(r.ds_meta_data_id));
  if (metaIds.length === 0) return;
  await db.updateTable('ds_meta_data').set({ concept_doi: conceptDoi }).where('id', 'in', metaIds).execute();
}
