// The DOI landing page's reads (specification, Landing page rules): resolving a DOI, superseded
// DOIs (hub doi:map), the owner's view of an unsynchronized dataset and the zip download.
import type { Readable } from 'node:stream';
import { notFound } from '../../../core/http/errors.ts';
import * as repo from '../dataset.repository.ts';
import type { DatasetSummary, DoiResolution } from '../dataset.types.ts';
import type { DatasetDeps } from '../dataset.deps.ts';
import { summariesOf, summary } from './dataset.parts.ts';

const DOI_PATTERN = /^10\.\d{4,9}\/\S+$/;

export async function resolveDoi(d: DatasetDeps, doi: string): Promise<DoiResolution> {
  const { db } = d.ctx;
  // A superseded DOI redirects even while a dataset still carries it (specification, Landing page rules).
  const moved = await repo.findNewDoi(db, doi);
  if (moved !== undefined) return { kind: 'moved', doi: moved };
  const row = await repo.findByDoi(db, doi);
  // DOIs are case-insensitive (DOI Handbook 3.4): another spelling redirects to the stored one
  // (MariaDB's collation already matched it above, the other databases look again ignoring case).
  if (row && row.dataset_doi !== null && row.dataset_doi !== doi) return { kind: 'moved', doi: row.dataset_doi };
  if (!row) {
    const stored = await repo.findDoiIgnoringCase(db, doi);
    return stored !== undefined && stored !== doi ? { kind: 'moved', doi: stored } : { kind: 'missing' };
  }
  const [dataset] = await summariesOf(d, [row], [row.id]);
  return { kind: 'dataset', dataset: dataset! };
}

/** Records that `oldDoi` was superseded by `newDoi` (hub doi:map); the landing page then redirects. */
export async function mapDoi(d: DatasetDeps, oldDoi: string, newDoi: string): Promise<void> {
  const { db } = d.ctx;
  const from = oldDoi.trim();
  const to = newDoi.trim();
  for (const doi of [from, to]) {
    if (!DOI_PATTERN.test(doi) || doi.length > 255) throw new Error(`"${doi}" is not a DOI (expected 10.<registrant>/<suffix>).`);
  }
  if (from === to) throw new Error('A DOI cannot replace itself.');
  // Following the chain from the new DOI must not lead back to the old one, or the redirects would loop.
  const seen = new Set([from]);
  let last = to;
  for (let next: string | undefined = to; next !== undefined; next = await repo.findNewDoi(db, next)) {
    if (seen.has(next)) throw new Error(`Mapping ${from} to ${to} would make the redirects loop.`);
    seen.add(next);
    last = next;
  }
  // A redirect that ends on no dataset would only move the visitor from one 404 to another.
  if (!(await repo.findByDoi(db, last))) throw new Error(`No dataset has the DOI ${last}: map to the DOI of a published dataset.`);
  await repo.saveDoiMapping(db, from, to);
}

/** The owner's view of a dataset without DOI; anyone else, and any synchronized dataset, gets nothing. */
export async function getUnsynchronized(d: DatasetDeps, datasetId: number, userId: number): Promise<DatasetSummary | undefined> {
  const ref = await repo.findOwnerRef(d.ctx.db, datasetId);
  if (!ref || ref.userId !== userId || ref.doi !== null) return undefined;
  return summary(d, datasetId);
}

/**
 * What the zip of a dataset holds, every file checked on disk first, so that a missing one
 * answers 404 before anything is sent or counted. Unsynchronized datasets only for their owner.
 */
export async function zipContents(d: DatasetDeps, datasetId: number, viewerId: number | null): Promise<{ root: string; files: { name: string; open: () => Promise<Readable | undefined> }[] }> {
  const dataset = await summary(d, datasetId);
  if (!dataset || (!dataset.synchronized && dataset.userId !== viewerId)) throw notFound('Dataset not found.');
  const { hubfile } = d.ctx.services;
  // Models converted from another format bring their original, beside them (issue 27).
  const names = dataset.files.flatMap((f) => (f.original ? [f.name, f.original.name] : [f.name]));
  for (const name of names) {
    if (!(await hubfile.existsByName(dataset.userId, dataset.id, name))) throw notFound(`A file of this dataset is missing: ${name}.`);
  }
  // Each file is opened only when the zip reaches it (core/storage lazyStream).
  const files = names.map((name) => ({ name, open: () => hubfile.openByName(dataset.userId, dataset.id, name) }));
  return { root: `dataset_${datasetId}`, files };
}

/** One record per (user or anonymous, dataset, cookie); answers whether this one was new. */
export function recordView(d: DatasetDeps, datasetId: number, userId: number | null, cookie: string): false | Promise<boolean> {
  return d.records.recordOnce('ds_view_record', datasetId, userId, cookie);
}

export function recordDownload(d: DatasetDeps, datasetId: number, userId: number | null, cookie: string): false | Promise<boolean> {
  return d.records.recordOnce('ds_download_record', datasetId, userId, cookie);
}

export function counts(d: DatasetDeps, datasetId: number): Promise<{ views: number; downloads: number }> {
  return repo.recordCounts(d.ctx.db, datasetId);
}

/** What tells whether a kept DOI page is current (dataset.doi-page.ts). */
export function doiPageState(d: DatasetDeps, doi: string): Promise<Readonly<repo.DoiPageState> | undefined> {
  return d.pageStates.read(doi);
}
