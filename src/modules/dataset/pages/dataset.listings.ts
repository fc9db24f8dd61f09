// Lists of datasets: the owner's, the landing page's (decisions section 3) and what explore reads
// for its index (service contract).
import * as repo from '../dataset.repository.ts';
import type { DatasetListItem, DatasetSummary } from '../dataset.types.ts';
import type { DatasetDeps } from '../dataset.deps.ts';
import { searchResult } from '../rest/dataset.presenter.ts';
import { listItem, summaries, summariesOf } from './dataset.parts.ts';

export async function listUserDatasets(d: DatasetDeps, userId: number, page: number, perPage: number): Promise<{ items: DatasetListItem[]; total: number }> {
  const [rows, total] = await Promise.all([
    repo.listForUser(d.ctx.db, userId, perPage, (page - 1) * perPage),
    repo.countForUser(d.ctx.db, userId),
  ]);
  return { items: rows.map(listItem), total };
}

/** The owner's datasets for /dataset/list, newest first, split by state. */
export async function listOwnDatasets(d: DatasetDeps, userId: number): Promise<{ synchronized: DatasetSummary[]; unsynchronized: DatasetSummary[] }> {
  const rows = await repo.listAllForUser(d.ctx.db, userId);
  const all = await summaries(d, rows.map((r) => r.id));
  return { synchronized: all.filter((s) => s.synchronized), unsynchronized: all.filter((s) => !s.synchronized) };
}

export function getOwnerRef(d: DatasetDeps, datasetId: number): Promise<{ datasetId: number; userId: number; doi: string | null } | undefined> {
  return repo.findOwnerRef(d.ctx.db, datasetId);
}

/** Counted in the database (specification, Landing page rules). */
export async function statistics(d: DatasetDeps): Promise<{ synchronizedDatasets: number; datasetDownloads: number; datasetViews: number }> {
  const [synchronizedDatasets, datasetDownloads, datasetViews] = await Promise.all([
    repo.countSynchronized(d.ctx.db),
    repo.countRecords(d.ctx.db, 'ds_download_record'),
    repo.countRecords(d.ctx.db, 'ds_view_record'),
  ]);
  return { synchronizedDatasets, datasetDownloads, datasetViews };
}

export async function latestSynchronized(d: DatasetDeps, limit: number): Promise<DatasetSummary[]> {
  return summaries(d, await repo.latestSynchronizedIds(d.ctx.db, limit));
}

export async function hasData(d: DatasetDeps): Promise<boolean> {
  return (await repo.countAll(d.ctx.db)) > 0;
}

export async function getSearchDocuments(d: DatasetDeps, datasetIds: number[]) {
  // The revision comes with the dataset row, read before its parts: a write in between leaves
  // the row one revision behind (re-indexed by that write's event, or at the next start), never
  // marked as current.
  const rows = await repo.findByIds(d.ctx.db, datasetIds);
  const revisions = new Map(rows.map((r) => [r.id, r.revision]));
  return (await summariesOf(d, rows, datasetIds)).map((s) => ({
    id: s.id,
    revision: revisions.get(s.id)!,
    synchronized: s.synchronized,
    featureModelCount: s.featureModels.length,
    createdAt: s.createdAt,
    publicationType: s.publicationType,
    tags: s.tags,
    // The eleven searchable columns of explore rule 2, raw, and (issue 10) the dataset's own
    // DOI and publication DOI, which the search box promises too.
    texts: [
      s.title, s.description, s.tags.join(', '), s.doi ?? '', s.publicationDoi ?? '',
      ...[...s.authors, ...s.featureModels.flatMap((m) => m.authors)].flatMap((a) => [a.name, a.affiliation ?? '', a.orcid ?? '']),
      ...s.featureModels.flatMap((m) => [
        m.meta.uvl_filename, m.meta.title, m.meta.description, m.meta.publication_doi ?? '', m.meta.tags.join(', '),
      ]),
    ].filter((t) => t !== ''),
  }));
}

export async function listSearchResults(d: DatasetDeps, datasetIds: number[]) {
  return (await summaries(d, datasetIds)).map(searchResult);
}

export function allDatasetIds(d: DatasetDeps): Promise<number[]> {
  return repo.allIds(d.ctx.db);
}

/** Every dataset's id and revision (the search index catches up on the ones whose revision moved). */
export function allDatasetRevisions(d: DatasetDeps): Promise<{ id: number; revision: number }[]> {
  return repo.allRevisions(d.ctx.db);
}
