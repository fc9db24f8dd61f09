// The dataset upload form (decisions section 4): WTForms-style field names
// (`authors-<i>-name`, `feature_models-<j>-authors-<k>-orcid`, …) read into typed values,
// with every problem reported under the name of the field that caused it.
import { FormErrors, type FieldErrors } from '../../core/http/forms.ts';
import { isPublicationType } from '../../core/publication-types.ts';
import { normalizeTags } from '../../core/tags.ts';
import { DEFAULT_LICENSE, isLicense, UNKNOWN_LICENSE } from './licenses.ts';

export const MAX_FEATURE_MODELS = 200;
const MAX_AUTHORS = 100;
const MAX_TITLE = 255;
/** MariaDB's TEXT holds 65535 bytes: this many characters fit even at four bytes each. */
export const MAX_DESCRIPTION = 16000;
const MAX_TAGS = 2000;

/** Four groups of four digits, the last character may be the checksum X (decisions section 7). */
export const ORCID_PATTERN = /^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/;
/** A DOI, bare (`10.1234/abc`) or as a doi.org link. */
const DOI_PATTERN = /^(?:https?:\/\/(?:dx\.)?doi\.org\/)?10\.\d{4,9}\/\S+$/i;

export interface AuthorInput {
  name: string;
  affiliation: string | null;
  orcid: string | null;
}

export interface FeatureModelInput {
  /** The j of the form, so that problems found later (syntax errors) name the right field. */
  index: number;
  uvlFilename: string;
  title: string;
  description: string;
  publicationType: string;
  publicationDoi: string | null;
  tags: string | null;
  version: string | null;
  authors: AuthorInput[];
}

/** The dataset's own metadata: the upload form without its models, and the whole edit form. */
export interface MetadataInput {
  title: string;
  description: string;
  publicationType: string;
  publicationDoi: string | null;
  tags: string | null;
  authors: AuthorInput[];
  /** An SPDX identifier of licenses.ts. */
  license: string;
}

export interface UploadInput extends MetadataInput {
  featureModels: FeatureModelInput[];
}

const optional = (value: string | undefined): string | null => {
  const v = (value ?? '').trim();
  return v === '' ? null : v;
};

function checkDoi(errors: FormErrors, field: string, value: string | null): void {
  errors.plainText(field, value ?? undefined);
  if (value !== null && (value.length > 255 || !DOI_PATTERN.test(value))) {
    errors.add(field, 'Enter a DOI such as 10.1234/abcd or https://doi.org/10.1234/abcd.');
  }
}

function checkTags(errors: FormErrors, field: string, value: string | null): void {
  errors.plainText(field, value ?? undefined);
  if (value !== null && value.length > MAX_TAGS) errors.add(field, `Tags cannot be longer than ${MAX_TAGS} characters.`);
}

/** Groups `prefix-<i>-<rest>` fields by i, in numeric order; the client may leave gaps (removed rows). */
function indexed(fields: Record<string, string>, prefix: string): Map<number, Record<string, string>> {
  const groups = new Map<number, Record<string, string>>();
  const pattern = new RegExp(`^${prefix}-(\\d{1,6})-(.+)$`);
  for (const [key, value] of Object.entries(fields)) {
    const match = pattern.exec(key);
    if (!match) continue;
    const index = Number(match[1]);
    const group = groups.get(index) ?? {};
    group[match[2]!] = value;
    groups.set(index, group);
  }
  return new Map([...groups].sort((a, b) => a[0] - b[0]));
}

function readAuthors(errors: FormErrors, fields: Record<string, string>, prefix: string): AuthorInput[] {
  const authors: AuthorInput[] = [];
  const groups = indexed(fields, prefix);
  if (groups.size > MAX_AUTHORS) errors.add(prefix, `At most ${MAX_AUTHORS} authors.`);
  for (const [i, group] of groups) {
    const name = optional(group.name);
    const affiliation = optional(group.affiliation);
    const orcid = optional(group.orcid);
    // A row left blank is not an author: the page always offers one empty row.
    if (name === null && affiliation === null && orcid === null) continue;
    const field = (f: string) => `${prefix}-${i}-${f}`;
    errors.plainText(field('name'), name ?? undefined);
    errors.plainText(field('affiliation'), affiliation ?? undefined);
    if (name === null) errors.add(field('name'), 'The author name is required.');
    else errors.maxLength(field('name'), name, 255);
    if (affiliation !== null) errors.maxLength(field('affiliation'), affiliation, 255);
    if (orcid !== null && !ORCID_PATTERN.test(orcid)) errors.add(field('orcid'), 'ORCID must have the format 0000-0000-0000-0000.');
    authors.push({ name: name ?? '', affiliation, orcid });
  }
  return authors;
}

/** The dataset's metadata fields (title, desc, publication_type, publication_doi, tags, authors-<i>-*, license). */
function readMetadataFields(errors: FormErrors, fields: Record<string, string>): MetadataInput {
  const title = (fields.title ?? '').trim();
  const description = (fields.desc ?? '').trim();
  const publicationType = (fields.publication_type ?? '').trim();
  errors.required('title', title, 'Title');
  errors.maxLength('title', title, MAX_TITLE);
  errors.plainText('title', title);
  errors.required('desc', description, 'Description');
  errors.maxLength('desc', description, MAX_DESCRIPTION);
  errors.multilineText('desc', description);
  if (!isPublicationType(publicationType)) errors.add('publication_type', 'Not a valid choice.');
  const publicationDoi = optional(fields.publication_doi);
  checkDoi(errors, 'publication_doi', publicationDoi);
  const tags = normalizeTags(fields.tags);
  checkTags(errors, 'tags', tags);
  const authors = readAuthors(errors, fields, 'authors');
  // Absent or left empty: the default licence (extensions section 2).
  const license = (fields.license ?? '').trim() || DEFAULT_LICENSE;
  if (!isLicense(license)) errors.add('license', UNKNOWN_LICENSE);
  return { title, description, publicationType, publicationDoi, tags, authors, license };
}

/** Reads and validates the edit form: the upload form's metadata, under the same rules. */
export function readMetadataForm(fields: Record<string, string>): { ok: true; value: MetadataInput } | { ok: false; errors: FieldErrors } {
  const errors = new FormErrors();
  const value = readMetadataFields(errors, fields);
  return errors.empty ? { ok: true, value } : { ok: false, errors: errors.errors };
}

/** Reads and validates the form; staged-file existence and syntax are checked by the service. */
export function readUploadForm(fields: Record<string, string>): { ok: true; value: UploadInput } | { ok: false; errors: FieldErrors } {
  const errors = new FormErrors();
  const metadata = readMetadataFields(errors, fields);

  const models = indexed(fields, 'feature_models');
  const featureModels: FeatureModelInput[] = [];
  if (models.size === 0) errors.add('feature_models', 'Add at least one feature model.');
  if (models.size > MAX_FEATURE_MODELS) errors.add('feature_models', `A dataset holds at most ${MAX_FEATURE_MODELS} feature models.`);
  const seen = new Set<string>();
  for (const [j, group] of models) {
    const field = (f: string) => `feature_models-${j}-${f}`;
    const uvlFilename = (group.uvl_filename ?? '').trim();
    if (uvlFilename === '') errors.add(field('uvl_filename'), 'The staged file name is required.');
    else if (seen.has(uvlFilename)) errors.add(field('uvl_filename'), 'This file is already part of the dataset.');
    seen.add(uvlFilename);
    const fmTitle = (group.title ?? '').trim() || uvlFilename.replace(/\.uvl$/i, '');
    errors.maxLength(field('title'), fmTitle, MAX_TITLE);
    errors.plainText(field('title'), fmTitle);
    const fmDescription = (group.desc ?? '').trim();
    errors.maxLength(field('desc'), fmDescription, MAX_DESCRIPTION);
    errors.multilineText(field('desc'), fmDescription);
    const fmType = (group.publication_type ?? '').trim() || 'none';
    if (!isPublicationType(fmType)) errors.add(field('publication_type'), 'Not a valid choice.');
    const fmDoi = optional(group.publication_doi);
    checkDoi(errors, field('publication_doi'), fmDoi);
    const fmTags = normalizeTags(group.tags);
    checkTags(errors, field('tags'), fmTags);
    const version = optional(group.version);
    if (version !== null && version.length > 50) errors.add(field('version'), 'Field cannot be longer than 50 characters.');
    errors.plainText(field('version'), version ?? undefined);
    const fmAuthors = readAuthors(errors, fields, `feature_models-${j}-authors`);
    featureModels.push({
      index: j, uvlFilename, title: fmTitle, description: fmDescription, publicationType: fmType,
      publicationDoi: fmDoi, tags: fmTags, version, authors: fmAuthors,
    });
  }
  if (!errors.empty) return { ok: false, errors: errors.errors };
  return { ok: true, value: { ...metadata, featureModels } };
}
