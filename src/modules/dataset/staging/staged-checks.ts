// The checks of staged files, remembered by the files' content: the upload page lists every
// staged file with its check on each visit, and a file with thousands of syntax errors (a binary
// renamed .uvl before the not-text check, a long broken model) took seconds to check again each
// time (issue 25). A check is small once its lists are cut to MAX_LISTED entries.
// The same holds for the conversion report of a staged original (FeatureIDE, SPLOT, Glencoe) and
// the full check the upload makes (extensions section 10): a 25 MB FeatureIDE file was converted
// again at every visit of the upload page (9-14 s each) and again when the draft was saved.
// Checks and conversions are made by the functions given (in workers of the scheduler:
// check-in-worker.ts, convert-in-worker.ts); a check that could not be made is not remembered.
// One check of some bytes serves both forms (the listed one and the upload's full one), and a
// check asked for while the same bytes are being checked waits for that one: the upload page's
// checks took the uploader's share of heavy jobs, and a reload or the upload right after queued
// the same checks again (extensions section 10).
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

/**
 * Makes the check of a model's bytes for a requester (the scheduler's fair queues' key);
 * `background`: the page's own work (Submission.background), not what the person asked for.
 */
export type Checker = (bytes: Uint8Array, requester: string, background: boolean) => Promise<ModelCheck & { unchecked?: true }>;

type MadeCheck = ModelCheck & { unchecked?: true };

export class StagedChecks {
  private readonly checks = new Map<string, CountedCheck>();
  private readonly fullChecks = new Map<string, ModelCheck>();
  private readonly conversions = new Map<string, Conversion>();
  /** Checks being made, by SHA-256: asked again meanwhile, the same check answers. */
  private readonly checking = new Map<string, Promise<MadeCheck>>();
  /** Conversion reports being made, by extension and SHA-256, likewise. */
  private readonly converting = new Map<string, Promise<Conversion>>();
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
    const running = this.converting.get(key);
    if (running) return running;
    this.made.conversions++;
    const made = read(name, bytes).then((conversion) => (conversion.losses.length <= MAX_KEPT_LOSSES ? remember(this.conversions, key, conversion) : conversion))
      .finally(() => this.converting.delete(key));
    this.converting.set(key, made);
    return made;
  }

  /**
   * The check of `bytes` under `key`: the one being made, or a new one, whose result is
   * remembered in both forms (the whole one when its lists are short).
   */
  private checkOnce(key: string, bytes: Uint8Array, requester: string, background: boolean, counter: 'checks' | 'fullChecks'): Promise<MadeCheck> {
    const running = this.checking.get(key);
    if (running) return running;
    this.made[counter]++;
    const made = this.checker(bytes, requester, background).then((result) => {
      if (!result.unchecked) {
        remember(this.checks, key, listedOf(result));
        const { unchecked: _unchecked, ...check } = result;
        if (check.errors.length + check.warnings.length <= 2 * MAX_LISTED) remember(this.fullChecks, key, check);
      }
      return result;
    }).finally(() => this.checking.delete(key));
    this.checking.set(key, made);
    return made;
  }

  /**
   * The whole check of a model (every error and warning, for the upload): from memory when the
   * staging check of the same bytes had short lists, else made (and kept when its lists are short).
   */
  async fullCheck(bytes: Uint8Array, requester: string): Promise<ModelCheck> {
    const key = sha256Of(bytes);
    const known = this.fullChecks.get(key);
    if (known) return known;
    const { unchecked: _unchecked, ...check } = await this.checkOnce(key, bytes, requester, false, 'fullChecks');
    return check;
  }

  /**
   * The check of these bytes, from memory when the same bytes were checked before. The upload
   * page's own work (staging and listing): made as background work of `requester`.
   */
  async check(bytes: Uint8Array, requester: string): Promise<CountedCheck> {
    const key = sha256Of(bytes);
    const known = this.checks.get(key);
    if (known) return known;
    const result = await this.checkOnce(key, bytes, requester, true, 'checks');
    return this.checks.get(key) ?? listedOf(result);
  }
}

function listedOf(result: ModelCheck): CountedCheck {
  const errors = limitDiagnostics(result.errors, MAX_LISTED);
  const warnings = limitDiagnostics(result.warnings, MAX_LISTED);
  return { valid: result.valid, errors: errors.shown, errors_more: errors.more, warnings: warnings.shown, warnings_more: warnings.more, features: result.features };
}
