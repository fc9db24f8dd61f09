// The checks of staged files, remembered by the files' content: the upload page lists every
// staged file with its check on each visit, and a file with thousands of syntax errors (a binary
// renamed .uvl before the not-text check, a long broken model) took seconds to check again each
// time (issue 25). A check is small once its lists are cut to MAX_LISTED entries.
import { createHash } from 'node:crypto';
import { limitDiagnostics } from '../../../../packages/uvl/src/index.ts';
import { checkModelBytes } from '../model-check.ts';

/** Errors and warnings listed per file; the rest are counted (extensions section 9). */
export const MAX_LISTED = 20;
/** Checks remembered; each holds at most 2 × MAX_LISTED short lines. */
const MAX_CHECKS = 500;

export interface ListedCheck {
  valid: boolean;
  errors: string[];
  /** Errors beyond the listed ones. */
  errors_more: number;
  warnings: string[];
  warnings_more: number;
}

/** A check with the model's feature count (0 for a model with errors), which staging compares with MAX_FEATURES. */
export interface CountedCheck extends ListedCheck {
  features: number;
}

export class StagedChecks {
  private readonly checks = new Map<string, CountedCheck>();

  /** The check of these bytes, from memory when the same bytes were checked before. */
  check(bytes: Uint8Array): CountedCheck {
    const key = createHash('sha256').update(bytes).digest('hex');
    const known = this.checks.get(key);
    if (known) return known;
    const result = checkModelBytes(bytes);
    const errors = limitDiagnostics(result.errors, MAX_LISTED);
    const warnings = limitDiagnostics(result.warnings, MAX_LISTED);
    const listed = { valid: result.valid, errors: errors.shown, errors_more: errors.more, warnings: warnings.shown, warnings_more: warnings.more, features: result.features };
    // Oldest out first: Map keeps insertion order.
    if (this.checks.size >= MAX_CHECKS) this.checks.delete(this.checks.keys().next().value!);
    this.checks.set(key, listed);
    return listed;
  }
}
