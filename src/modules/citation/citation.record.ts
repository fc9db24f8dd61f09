// The plain input of every citation format (extensions section 2): what a dataset says about
// itself, with no database, request or template behind it, so the builders stay pure.
import type { DatasetSummary } from '../dataset/index.ts';

export interface CitationAuthor {
  /** As stored: "Family, Given" (Zenodo's creator format, the hub's default) or one free name. */
  name: string;
  affiliation: string | null;
  /** Bare ORCID iD, `0000-0002-1825-0097`. */
  orcid: string | null;
}

export interface CitationFile {
  name: string;
  /** Absolute download URL. */
  url: string;
  size: number;
}

export interface CitationRecord {
  doi: string;
  /** The public landing page, `http://<DOMAIN>/doi/<doi>`. */
  url: string;
  title: string;
  description: string;
  authors: CitationAuthor[];
  tags: string[];
  /** The publication type's value (`article`, `none`, ...) and its label. */
  publicationType: string;
  publicationTypeLabel: string;
  /** The DOI of the publication the dataset supplements, bare (`10.1000/x`). */
  publicationDoi: string | null;
  year: number;
  /** Publication date, `YYYY-MM-DD`. */
  date: string;
  files: CitationFile[];
  /** Absolute URL of the dataset's zip. */
  zipUrl: string;
  /** SPDX identifier; absent means the hub's default, CC-BY-4.0. */
  license?: string;
  /** Omitted from every format when absent. */
  version?: string;
  /** The DOI shared by all versions, when the dataset has versions. */
  conceptDoi?: string;
  /**
   * Where the dataset's models were imported from (extensions section 13): a URL or a bare DOI.
   * DataCite's `IsDerivedFrom` related identifiers, schema.org's `isBasedOn`; absent when none.
   */
  derivedFrom?: CitationSource[];
}

export interface CitationSource {
  identifier: string;
  scheme: 'url' | 'doi';
}

export const PUBLISHER = 'UVL Hub';
export { DEFAULT_LICENSE } from '../dataset/index.ts';

/** A family and given name, split from "Family, Given"; a name without a comma is one literal name. */
export function splitName(name: string): { family: string; given: string } | { literal: string } {
  const comma = name.indexOf(',');
  if (comma > 0) {
    const family = name.slice(0, comma).trim();
    const given = name.slice(comma + 1).trim();
    if (family && given) return { family, given };
  }
  return { literal: name.trim() };
}

/** A bare DOI from a stored publication DOI, which may be a doi.org link (the upload form accepts both). */
export function bareDoi(doi: string): string {
  return doi.trim().replace(/^https?:\/\/(dx\.)?doi\.org\//i, '').replace(/^doi:/i, '');
}

/** The dataset page's citation record. Only a synchronized dataset (it has a DOI) is cited. */
export function citationRecordOf(dataset: DatasetSummary): CitationRecord | null {
  if (!dataset.doi || !dataset.url) return null;
  const origin = new URL(dataset.url).origin;
  // Cited as published (BibTeX year, CSL issued, DataCite publicationYear, CFF date-released,
  // JSON-LD datePublished): a draft made in one year and published in the next is of the next.
  const date = (dataset.publishedAt ?? dataset.createdAt).slice(0, 10);
  return {
    doi: dataset.doi,
    url: dataset.url,
    title: dataset.title,
    description: dataset.description,
    authors: dataset.authors.map((a) => ({ name: a.name, affiliation: a.affiliation, orcid: a.orcid })),
    tags: dataset.tags,
    publicationType: dataset.publicationType,
    publicationTypeLabel: dataset.publicationTypeLabel,
    publicationDoi: dataset.publicationDoi ? bareDoi(dataset.publicationDoi) : null,
    year: Number(date.slice(0, 4)),
    date,
    files: dataset.files.map((f) => ({ name: f.name, url: `${origin}/file/download/${f.id}`, size: Number(f.size) })),
    zipUrl: dataset.downloadUrl,
    license: dataset.license,
    // A first version is cited without a version number (most datasets have one version, and
    // "Version 1" would say nothing); later versions cite theirs. The concept DOI (docs/versions.md)
    // is cited whenever it is known.
    version: dataset.version > 1 ? String(dataset.version) : undefined,
    conceptDoi: dataset.conceptDoi ?? undefined,
    derivedFrom: dataset.importSources.length > 0 ? dataset.importSources.map((s) => ({ identifier: s.identifier, scheme: s.scheme })) : undefined,
  };
}
