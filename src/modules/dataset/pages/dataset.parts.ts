// A dataset's summary: its row with its authors and feature models, the parts kept per dataset.
import { humanSize } from '../../../core/http/filters.ts';
import type { Config } from '../../../core/config.ts';
import * as repo from '../dataset.repository.ts';
import type { FeatureModelView } from '../../featuremodel/index.ts';
import { publicationTypeLabel } from '../../../core/publication-types.ts';
import { splitTags } from '../../../core/tags.ts';
import { datasetHref, type DatasetListItem, type DatasetSummary } from '../dataset.types.ts';
import { relatedIdentifiersByDataset, type RelatedIdentifier } from '../staging/import-sources.ts';
import { FAKE_DOI_PREFIX, publicUrl, type DatasetDeps } from '../dataset.deps.ts';

const PARTS_KEPT = 2000;

/**
 * A dataset's authors, feature models (with their authors and files) and import sources, kept per dataset with
 * the revision they were read at. The dataset row itself is always read; its revision, raised
 * by every write of these parts (contentChanged), says whether the kept parts are still current,
 * so every instance sees another's writes at once. Least recently used first out.
 */
export class DatasetParts {
  private readonly kept = new Map<number, { revision: number; authors: repo.AuthorRow[]; models: FeatureModelView[]; sources: RelatedIdentifier[] }>();

  /** The rows whose kept parts are missing or older than the row. */
  outdated(rows: repo.DatasetRow[]): repo.DatasetRow[] {
    return rows.filter((r) => this.kept.get(r.id)?.revision !== r.revision);
  }

  keep(row: repo.DatasetRow, authors: repo.AuthorRow[], models: FeatureModelView[], sources: RelatedIdentifier[]): void {
    this.kept.delete(row.id);
    this.kept.set(row.id, { revision: row.revision, authors, models, sources });
    while (this.kept.size > PARTS_KEPT) this.kept.delete(this.kept.keys().next().value!);
  }

  get(id: number) {
    return this.kept.get(id)!;
  }
}

/**
 * `get_zenodo_url()`: the record page on the configured deposit repository, when both the DOI
 * and the deposition exist. DOIs of the built-in fake have no record anywhere, so no link.
 */
function zenodoUrl(config: Config, doi: string | null, depositionId: number | null): string | null {
  if (!doi || depositionId === null || doi.startsWith(FAKE_DOI_PREFIX)) return null;
  let origin = 'https://zenodo.org';
  if (config.zenodoApiUrl) {
    try { origin = new URL(config.zenodoApiUrl).origin; } catch { /* keep zenodo.org */ }
  }
  return `${origin}/records/${depositionId}`;
}

function summarize(config: Config, row: repo.DatasetRow, authors: repo.AuthorRow[], models: FeatureModelView[], sources: RelatedIdentifier[]): DatasetSummary {
  const files = models.flatMap((m) => m.files);
  const totalSize = files.reduce((sum, f) => sum + Number(f.size), 0);
  return {
    id: row.id,
    userId: row.user_id,
    createdAt: row.created_at,
    title: row.title,
    description: row.description,
    publicationType: row.publication_type,
    publicationTypeLabel: publicationTypeLabel(row.publication_type),
    publicationDoi: row.publication_doi,
    doi: row.dataset_doi,
    publishedAt: row.published_at,
    depositionId: row.deposition_id,
    synchronized: row.dataset_doi !== null,
    tags: splitTags(row.tags),
    authors,
    license: row.license,
    numberOfModels: row.number_of_models,
    numberOfFeatures: row.number_of_features,
    featureModels: models,
    files,
    totalSize,
    totalSizeHuman: humanSize(totalSize),
    url: row.dataset_doi ? publicUrl(config, row.dataset_doi) : null,
    zenodoUrl: zenodoUrl(config, row.dataset_doi, row.deposition_id),
    downloadUrl: `http://${config.domain}/dataset/download/${row.id}`,
    href: datasetHref(row.id, row.dataset_doi),
    version: row.version_number,
    versionCount: row.version_count,
    conceptId: row.concept_id,
    conceptDoi: row.concept_doi,
    importSources: sources,
  };
}

/** Summaries of these rows in the order of `ids`, their outdated parts read with three queries (per chunk of ids). */
export async function summariesOf(d: DatasetDeps, rows: repo.DatasetRow[], ids: number[]): Promise<DatasetSummary[]> {
  const missing = d.parts.outdated(rows);
  if (missing.length > 0) {
    const [authors, models, sources] = await Promise.all([
      repo.authorsByMetaIds(d.ctx.db, missing.map((r) => r.meta_id)),
      d.ctx.services.featuremodel.listByDatasets(missing.map((r) => r.id)),
      relatedIdentifiersByDataset(d.ctx.db, missing.map((r) => r.id)),
    ]);
    for (const r of missing) d.parts.keep(r, authors.get(r.meta_id) ?? [], models.get(r.id) ?? [], sources.get(r.id) ?? []);
  }
  const byId = new Map(rows.map((r) => {
    const kept = d.parts.get(r.id);
    return [r.id, summarize(d.ctx.config, r, kept.authors, kept.models, kept.sources)];
  }));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

/** Summaries in the order of `ids`, with a fixed number of queries whatever their count. */
export async function summaries(d: DatasetDeps, ids: number[]): Promise<DatasetSummary[]> {
  if (ids.length === 0) return [];
  return summariesOf(d, await repo.findByIds(d.ctx.db, ids), ids);
}

export async function summary(d: DatasetDeps, id: number): Promise<DatasetSummary | undefined> {
  return (await summaries(d, [id]))[0];
}

export function listItem(r: { id: number; title: string; publication_type: string; dataset_doi: string | null; created_at: string; version_number: unknown; version_count: unknown }): DatasetListItem {
  return {
    id: Number(r.id),
    title: r.title,
    publicationType: r.publication_type,
    publicationTypeLabel: publicationTypeLabel(r.publication_type),
    doi: r.dataset_doi,
    createdAt: r.created_at,
    href: datasetHref(Number(r.id), r.dataset_doi),
    version: Number(r.version_number ?? 1),
    versionCount: Number(r.version_count ?? 1),
  };
}
