// What the REST resource reads from a request (decisions sections 4 and 7): the owner's dataset,
// and the JSON body of a create or update, checked by the rules of the upload form.
import { charCount, hasControlCharacters, type FieldErrors } from '../../../core/http/forms.ts';
import { badRequest, forbidden, notFound } from '../../../core/http/errors.ts';
import type { DbOrTrx } from '../../../core/db/connect.ts';
import * as repo from '../dataset.repository.ts';
import { isPublicationType } from '../../../core/publication-types.ts';
import { normalizeTags } from '../../../core/tags.ts';
import { MAX_DESCRIPTION, ORCID_PATTERN, type AuthorInput } from '../upload-form.ts';
import { isLicense, UNKNOWN_LICENSE } from '../licenses.ts';

export const NOT_FOUND_BODY = { message: 'DataSet not found' };

export async function ownedOrThrow(db: DbOrTrx, id: number, userId: number): Promise<repo.DatasetRow> {
  const row = await repo.findById(db, id);
  // Someone else's unsynchronized dataset is not revealed (decisions section 7).
  if (!row || (row.user_id !== userId && row.dataset_doi === null)) throw notFound('DataSet not found', NOT_FOUND_BODY);
  if (row.user_id !== userId) throw forbidden('You are not the owner of this dataset.', { message: 'You are not the owner of this dataset.' });
  return row;
}

/** The optional `authors` of the API's create: `[{name, affiliation?, orcid?}]`, like the upload form's authors. */
function restAuthors(value: unknown, add: (field: string, message: string) => void): AuthorInput[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length > 100) {
    add('authors', 'authors must be a list of at most 100 {"name", "affiliation", "orcid"} objects.');
    return undefined;
  }
  const authors: AuthorInput[] = [];
  for (const [i, a] of value.entries()) {
    const author = (a && typeof a === 'object' ? a : {}) as Record<string, unknown>;
    const text = (key: string, max: number, required: boolean): string | null => {
      const v = author[key];
      if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '' && !required)) return null;
      if (typeof v !== 'string' || v.trim() === '' || charCount(v.trim()) > max || hasControlCharacters(v)) {
        add(`authors.${i}.${key}`, `${key} must be ${required ? 'a non-empty' : 'a'} text of at most ${max} characters.`);
        return null;
      }
      return v.trim();
    };
    const name = text('name', 255, true);
    const affiliation = text('affiliation', 255, false);
    const orcid = text('orcid', 19, false);
    if (orcid !== null && !ORCID_PATTERN.test(orcid)) add(`authors.${i}.orcid`, 'ORCID must look like 0000-0000-0000-0000.');
    if (name !== null) authors.push({ name, affiliation, orcid });
  }
  return authors;
}

export function restInput(body: unknown, mode: 'create' | 'update') {
  if (!body || typeof body !== 'object' || Array.isArray(body) || Object.keys(body).length === 0) {
    throw badRequest('No input data provided', { message: 'No input data provided' });
  }
  const b = body as Record<string, unknown>;
  const errors: FieldErrors = {};
  const add = (f: string, m: string) => { (errors[f] ??= []).push(m); };
  const text = (key: string) => (b[key] === undefined || b[key] === null ? undefined : b[key]);
  const name = text('name');
  // Counted in characters (code points) and free of control characters, like the upload form's title.
  if (name !== undefined && (typeof name !== 'string' || name.trim() === '' || charCount(name.trim()) > 255 || hasControlCharacters(name))) add('name', 'name must be a non-empty text of at most 255 characters.');
  if (mode === 'create' && name === undefined) add('name', 'name is required.');
  const description = text('description');
  if (description !== undefined && (typeof description !== 'string' || charCount(description.trim()) > MAX_DESCRIPTION)) add('description', `description must be a text of at most ${MAX_DESCRIPTION} characters.`);
  const type = text('publication_type');
  if (mode === 'create' && type !== undefined && (typeof type !== 'string' || !isPublicationType(type))) add('publication_type', 'publication_type is not a known publication type.');
  const tags = text('tags');
  const tagsOk = tags === undefined || typeof tags === 'string' || (Array.isArray(tags) && tags.every((t) => typeof t === 'string'));
  if (!tagsOk) add('tags', 'tags must be a text of comma-separated tags or a list of texts.');
  const normalizedTags = tagsOk && tags !== undefined ? normalizeTags(tags as string | string[]) : undefined;
  if (normalizedTags && normalizedTags.length > 2000) add('tags', 'tags cannot be longer than 2000 characters.');
  const authors = mode === 'create' ? restAuthors(text('authors'), add) : undefined;
  const license = text('license');
  if (license !== undefined && (typeof license !== 'string' || !isLicense(license))) add('license', UNKNOWN_LICENSE);
  if (Object.keys(errors).length > 0) throw badRequest('Invalid input', { message: 'Invalid input', errors });
  return {
    authors,
    name: typeof name === 'string' ? name.trim() : undefined,
    description: typeof description === 'string' ? description.trim() : undefined,
    publicationType: typeof type === 'string' ? type : 'none',
    tags: normalizedTags,
    license: typeof license === 'string' ? license : undefined,
  };
}
