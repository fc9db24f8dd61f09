// The names of the staging area (decisions section 4): what a client's file name becomes, the
// ` (n)` suffix of a taken name, and which names are plain staged names.
import { basename, extname } from 'node:path';
import { hasControlCharacters } from '../../../core/http/forms.ts';
import { ACCEPTED_FILES, MODEL_EXTENSIONS } from './converted-upload.ts';

/** Longest client name: the file column is varchar(255), and file systems allow 255 bytes. */
const MAX_NAME_BYTES = 200;
/** Longest stored name: a client name plus a collision suffix ` (n)`. */
export const MAX_STORED_NAME_BYTES = MAX_NAME_BYTES + 10;

export class StagingError extends Error {
  constructor(readonly kind: 'not_uvl' | 'bad_name' | 'too_large' | 'not_found' | 'full' | 'not_converted' | 'too_many_features', message: string, readonly errors: string[] = []) {
    super(message);
  }
}

/**
 * Reduces a client's file name to a safe base name (decisions section 4), or explains why not.
 * Windows browsers may send `C:\dir\model.uvl`, so both separators count.
 */
export function safeUvlName(raw: string): string {
  return safeName(raw, /\.uvl$/i, 'Only .uvl files are accepted.');
}

/** Like safeUvlName, for any file an upload takes: UVL or a format converted to it (issue 27). */
export function safeModelName(raw: string): string {
  return safeName(raw, MODEL_EXTENSIONS, ACCEPTED_FILES);
}

/** Bidirectional embeddings, overrides, isolates and marks (Unicode's Bidi_Control). */
const DIRECTION_CONTROLS = /\p{Bidi_Control}/u;

function safeName(raw: string, extension: RegExp, refusal: string): string {
  const base = basename(raw.replace(/\\/g, '/'));
  if (!extension.test(base)) throw new StagingError('not_uvl', refusal);
  // Leading dots would hide the file and could meet the temporary names used while writing.
  // A name that is only blanks before its extension is as unreadable as a hidden one.
  if (base.startsWith('.') || /[\u0000-\u001f\u007f/]/.test(base) || base.slice(0, base.length - extname(base).length).trim() === '') {
    throw new StagingError('bad_name', 'This file name cannot be stored. Rename the file and try again.');
  }
  // A direction control shows a name as another: `report\u202Eldu.uvl` reads as `reportlvu.ldu`.
  if (DIRECTION_CONTROLS.test(base)) {
    throw new StagingError('bad_name', 'This file name holds a text-direction control character, which makes it show as another name. Rename the file and try again.');
  }
  if (Buffer.byteLength(base) > MAX_NAME_BYTES) {
    throw new StagingError('bad_name', `The file name is too long (at most ${MAX_NAME_BYTES} bytes).`);
  }
  return base;
}

/** `model.uvl`, `model (1).uvl`, `model (2).uvl`… like the original service. */
export function candidateName(name: string, n: number): string {
  if (n === 0) return name;
  const ext = extname(name);
  return `${name.slice(0, name.length - ext.length)} (${n})${ext}`;
}

/** A plain staged name: no separator, not hidden, no control character, not longer than a stored name. */
export function isStagedName(name: string): boolean {
  return typeof name === 'string' && name !== '' && name === basename(name) && !name.includes('\\') && !name.startsWith('.')
    && !hasControlCharacters(name) && Buffer.byteLength(name) <= MAX_STORED_NAME_BYTES;
}

/** The refusal of a model over MAX_FEATURES (extensions section 10): one error, at staging, naming the limit. */
export function tooManyFeatures(clientName: string, features: number, limit: number): StagingError {
  return new StagingError('too_many_features', `${safeModelName(clientName)} has ${features} features, more than the ${limit} this hub accepts (MAX_FEATURES).`);
}
