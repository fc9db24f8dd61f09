// What a collection must be: its fields and its size (extensions section 13).
import { badRequest } from '../../core/http/errors.ts';
import { FormErrors } from '../../core/http/forms.ts';
import { normalizeTags } from '../../core/tags.ts';

/** A collection holds at most this many files: the zip and the deposit are built from all of them. */
export const MAX_COLLECTION_FILES = 1000;

/**
 * A publish claim older than this belongs to a process that died during the deposit (a live one
 * ends well within it, as for datasets: the deposit client's slowest step gives up after 5 minutes).
 */
export const STALE_PUBLISH_CLAIM_MS = 30 * 60 * 1000;

export const stalePublishBefore = (): string => new Date(Date.now() - STALE_PUBLISH_CLAIM_MS).toISOString();

/** Whether a live publish holds the collection (its members must not change meanwhile). */
export const publishUnderWay = (row: { publish_claimed_at: string | null }): boolean =>
  row.publish_claimed_at !== null && row.publish_claimed_at >= stalePublishBefore();

export const UNDER_WAY = 'A publish of this collection is under way: wait for its answer.';

/** The 409 of a publish that ran past STALE_PUBLISH_CLAIM_MS and lost its claim meanwhile. */
export const TAKEN_OVER = `This publish took more than ${STALE_PUBLISH_CLAIM_MS / 60_000} minutes, and another publish or change of this collection took over meanwhile: it recorded nothing. Reload the collection to see where it stands.`;

export const PUBLISHED = 'This collection is published: it changes only by a new version.';

export interface CollectionInput { title?: string; description?: string; tags?: string }

/** The fields checked; a 400 naming each bad field, never a half-made row. */
export function checkedInput(input: CollectionInput): { title: string; description: string; tags: string | null } {
  const form = new FormErrors();
  const title = (input.title ?? '').trim();
  const description = (input.description ?? '').trim();
  form.required('title', title, 'The title');
  form.maxLength('title', title, 200);
  form.plainText('title', title);
  form.plainText('tags', input.tags);
  // A description may hold line breaks and tabs, but no other control character (PostgreSQL cannot store U+0000).
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(description)) form.add('description', 'Field contains characters that are not allowed.');
  form.maxLength('description', description, 10000);
  const tags = normalizeTags(input.tags ?? '');
  form.maxLength('tags', tags ?? '', 500);
  if (Object.keys(form.errors).length > 0) {
    const first = Object.values(form.errors)[0]![0]!;
    throw badRequest(first, { message: first, errors: form.errors });
  }
  return { title, description, tags };
}
