// The JSON shapes of the dataset module (design habit 11): the REST dataset object
// (specification, JSON shapes; decisions section 7) and the search result object (decisions section 4).
import type { ServiceRegistry } from '../../../core/modules.ts';
import type { DatasetSummary } from '../dataset.service.ts';

/** A file's analysis summary, as the analysis service gives it (optional: dataset does not require analysis). */
type ModelSummary = Awaited<ReturnType<ServiceRegistry['analysis']['summaries']>>[number];

/**
 * The REST object: `doi` is exactly `http://<DOMAIN>/doi/<doi>`, null while unsynchronized.
 * `models` (each file's analysis summary) only when the analysis module is enabled.
 */
export function restDataset(
  d: DatasetSummary,
  versions: { version: number; concept_doi: string | null; versions: { id: number; version: number; doi: string | null; url: string | null }[] },
  models?: ModelSummary[],
) {
  return {
    dataset_id: d.id,
    created: d.createdAt,
    name: d.title,
    doi: d.url,
    license: d.license,
    files: d.files.map((f) => ({ file_id: f.id, file_name: f.name, size: f.sizeHuman })),
    version: versions.version,
    concept_doi: versions.concept_doi,
    versions: versions.versions,
    ...(models ? { models } : {}),
  };
}

export function searchResult(d: DatasetSummary) {
  const created = new Date(d.createdAt);
  return {
    id: d.id,
    title: d.title,
    description: d.description,
    authors: d.authors.map((a) => ({ name: a.name, affiliation: a.affiliation, orcid: a.orcid })),
    tags: d.tags,
    publication_type: d.publicationTypeLabel,
    publication_doi: d.publicationDoi,
    dataset_doi: d.doi,
    url: d.url,
    download: d.downloadUrl,
    zenodo: d.zenodoUrl,
    created_at: d.createdAt,
    created_at_timestamp: Math.floor(created.getTime() / 1000),
    files: d.files.map((f) => ({ id: f.id, name: f.name, size: f.size, size_human: f.sizeHuman })),
    files_count: d.files.length,
    total_size_in_bytes: d.totalSize,
    total_size_in_human_format: d.totalSizeHuman,
    // Versions told apart in every list (extensions section 9): this one's number and how many there are.
    version: d.version,
    version_count: d.versionCount,
  };
}
