// Profile service (specification, profile): the person behind a user and the own-datasets summary.
// Each operation is an exported function taking the module context first, bound once below.
import type { DbOrTrx } from '../../core/db/connect.ts';
import type { FieldErrors } from '../../core/http/forms.ts';
import { FormErrors, charCount } from '../../core/http/forms.ts';
import type { ModuleContext } from '../../core/modules.ts';
import { bindOperations } from '../../core/operations.ts';
import * as repo from './profile.repository.ts';
import type { UserProfileTable } from './profile.tables.ts';

export type UserProfile = Omit<UserProfileTable, 'id'> & { id: number };

/** Four groups of four digits, the last character may be the checksum X (decisions section 7). */
export const ORCID_PATTERN = /^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/;

export interface Pagination {
  page: number;
  perPage: number;
  total: number;
  pages: number;
  hasPrev: boolean;
  hasNext: boolean;
}

export function paginate(page: number, perPage: number, total: number): Pagination {
  const pages = Math.max(1, Math.ceil(total / perPage));
  return { page, perPage, total, pages, hasPrev: page > 1, hasNext: page < pages };
}

/** The fields the edit form may change; anything else a client posts (submit, csrf_token, user_id…) is ignored. */
const EDITABLE = ['name', 'surname', 'orcid', 'affiliation'] as const;

/** Only auth calls this, inside its signup transaction: profiles are born with their user. */
export async function createForNewUser(_ctx: ModuleContext, trx: DbOrTrx, userId: number, person: { name: string; surname: string }): Promise<number> {
  return repo.insertProfile(trx, { user_id: userId, name: person.name, surname: person.surname });
}

export async function getByUserId(ctx: ModuleContext, userId: number): Promise<UserProfile | undefined> {
  return repo.findByUserId(ctx.db, userId);
}

/**
 * Edit rules of the specification: a field absent from `form` keeps its stored value;
 * answers [instance, null] on success or [null, errors] when validation fails (nothing saved).
 */
export async function updateProfile(ctx: ModuleContext, profileId: number, form: Record<string, string | undefined>): Promise<[UserProfile, null] | [null, FieldErrors]> {
  const current = await repo.findById(ctx.db, profileId);
  if (!current) return [null, { profile: ['Profile not found.'] }];
  const errors = new FormErrors();
  const changes: repo.ProfileChanges = {};
  for (const key of EDITABLE) {
    const raw = form[key];
    if (raw === undefined) continue;
    const value = raw.trim();
    if (key === 'name' || key === 'surname') {
      errors.required(key, value, key === 'name' ? 'Name' : 'Surname');
      // Column string(100) (specification, Limits): longer is a field error, never a database error.
      errors.maxLength(key, value, 100);
      errors.plainText(key, value);
      changes[key] = value;
    } else if (key === 'orcid') {
      if (value !== '' && !ORCID_PATTERN.test(value)) {
        errors.add('orcid', 'ORCID must have the format 0000-0000-0000-0000.');
      }
      changes.orcid = value === '' ? null : value;
    } else {
      const length = charCount(value);
      if (value !== '' && (length < 5 || length > 100)) {
        errors.add('affiliation', 'Affiliation must be between 5 and 100 characters long.');
      }
      errors.plainText('affiliation', value);
      changes.affiliation = value === '' ? null : value;
    }
  }
  if (!errors.empty) return [null, errors.errors];
  await repo.updateProfile(ctx.db, profileId, changes);
  return [{ ...current, ...changes }, null];
}

/** The user's own datasets, `perPage` to a page, newest first, with the total count. */
export async function summaryForUser(ctx: ModuleContext, userId: number, page: number, perPage = 5) {
  const { items, total } = await ctx.services.dataset.listUserDatasets(userId, page, perPage);
  return { datasets: items, pagination: paginate(page, perPage, total), total };
}

export function createProfileService(ctx: ModuleContext) {
  return bindOperations(ctx, { createForNewUser, getByUserId, updateProfile, summaryForUser });
}

export type ProfileService = ReturnType<typeof createProfileService>;
