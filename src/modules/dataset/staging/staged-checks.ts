// The checks of staged files, remembered by the files' content: the upload page lists every
// staged file with its check on each visit, and a file with thousands of syntax errors (a binary
// renamed .uvl before the not-text check, a long broken model) took seconds to check again each
// time (issue 25). A check is small once its lists are cut to MAX_LISTED entries.
// The same holds for the conversion report of a staged original (FeatureIDE, SPLOT, Glencoe) and
// the full check the upload makes (extensions section 10): a 25 MB FeatureIDE file was converted
// again at every visit of the upload page (9-14 s each) and again when the draft was saved.
// Checks and conversions are made by the functions given (in workers of the scheduler:
// check-in-worker.ts, convert-in-worker.ts); a check that could not be made is not remembered.
import { createHash } from 'node:crypto';
import { limitDiagnostics } from '../../../../packages/uvl/src/index.ts';
import { checkModelBytes, type ModelCheck } from '../model-check.ts';
import { conversionOf, type Conversion } from './converted-upload.ts';

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

/** A conversion report is kept with at most this many loss lines (a report is short but for pathological files). */
const MAX_KEPT_LOSSES = 1000;

/** A Map that forgets its oldest entry past `limit` (Map keeps insertion order). */
function remember<V>(map: Map<string, V>, key: string, value: V, limit = MAX_CHECKS): V {
  if (map.size >= limit) map.delete(map.keys().next().value!);
  map.set(key, value);
  return value;
}

const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Makes the check of a model's bytes for a requester (the scheduler's fair queues' key). */
export type Checker = (bytes: Uint8Array, requester: string) => Promise<ModelCheck & { unchecked?: true }>;

export class StagedChecks {
  private readonly checks = new Map<string, CountedCheck>();
  private readonly fullChecks = new Map<string, ModelCheck>();
  private readonly conversions = new Map<string, Conversion>();
  /** Reads and checks actually made (not answered from memory), for tests. */
  readonly made = { checks: 0, conversions: 0, fullChecks: 0 };

  /** Without a checker (unit tests), the check is made on the calling thread. */
  constructor(private readonly checker: Checker = async (bytes) => checkModelBytes(bytes)) {}

  /**
   * The format and loss report of a staged original, from memory when the same name and bytes were
   * read before; otherwise `read` makes it (in a worker of the scheduler: convert-in-worker.ts).
   */
  async conversion(name: string, bytes: Uint8Array, read: (name: string, bytes: Uint8Array) => Promise<Conversion> = async (n, b) => conversionOf(n, b)): Promise<Conversion> {
    // The extension picks the reader (.xml: FeatureIDE or SPLOT), so it is part of the key.
    const key = `${name.slice(name.lastIndexOf('.')).toLowerCase()}\n${sha256Of(bytes)}`;
    const known = this.conversions.get(key);
    if (known) return known;
    this.made.conversions++;
    const conversion = await read(name, bytes);
    return conversion.losses.length <= MAX_KEPT_LOSSES ? remember(this.conversions, key, conversion) : conversion;
  }

  /** The whole check of a model (every error and warning, for the upload): kept when its lists are short. */
  async fullCheck(bytes: Uint8Array, requester: string): Promise<ModelCheck> {
    const key = sha256Of(bytes);
    const known = this.fullChecks.get(key);
    if (known) return known;
    this.made.fullChecks++;
    const { unchecked, ...check } = await this.checker(bytes, requester);
    return !unchecked && check.errors.length + check.warnings.length <= 2 * MAX_LISTED ? remember(this.fullChecks, key, check) : check;
  }

  /** The check of these bytes, from memory when the same bytes were checked before. */
  async check(bytes: Uint8Array, requester: string): Promise<CountedCheck> {
    const key = sha256Of(bytes);
    const known = this.checks.get(key);
    if (known) return known;
    this.made.checks++;
    const result = await this.checker(bytes, requester);
    const errors = limitDiagnostics(result.errors, MAX_LISTED);
    const warnings = limitDiagnostics(result.warnings, MAX_LISTED);
    const listed = { valid: result.valid, errors: errors.shown, errors_more: errors.more, warnings: warnings.shown, warnings_more: warnings.more, features: result.features };
    return result.unchecked ? listed : remember(this.checks, key, listed);
  }
}
