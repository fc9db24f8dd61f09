// checkUvl: the validation result the hub returns from /modeltool/check_uvl and the staging
// upload, with the warnings of extensions section 9 (a valid model can still be suspicious).

import { formatDiagnostic, type Diagnostic } from './diagnostics.ts';
import { parseUvl, type ParseOptions } from './parser.ts';
import type { UvlModel } from './ast.ts';
import { modelWarnings } from './warnings.ts';

export interface CheckResult {
  /** No errors; warnings (tab hints, unresolved imports, suspicious models) do not make a model invalid. */
  valid: boolean;
  /** `Line <line>:<column> - <message>` for each syntax error. */
  errors: string[];
  /** `Line <line>:<column> - <message>` for each warning. */
  warnings: string[];
}

/** The error of a file that is not UTF-8 text: one, not one per byte. */
export const NOT_TEXT_ERROR = 'Line 1:0 - not UTF-8 text';

export function checkUvl(text: string, options?: ParseOptions): CheckResult {
  return checkParsed(parseUvl(text, options));
}

/**
 * The check of a file's bytes: one error (NOT_TEXT_ERROR) when they are not UTF-8 text (a NUL
 * byte, or an invalid sequence), else checkUvl of the text.
 */
export function checkUvlBytes(bytes: Uint8Array, options?: ParseOptions): CheckResult {
  const text = decodeUtf8Text(bytes);
  if (text === undefined) return { valid: false, errors: [NOT_TEXT_ERROR], warnings: [] };
  return checkUvl(text, options);
}

/** The text of UTF-8 bytes (a byte order mark dropped), or undefined when they are not text. */
export function decodeUtf8Text(bytes: Uint8Array): string | undefined {
  // A NUL byte is valid UTF-8, but no text file holds one: it marks a binary file.
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The result of a parse already at hand: its diagnostics, and the model's warnings when it has no error. */
export function checkParsed(parsed: { model: UvlModel; diagnostics: readonly Diagnostic[] }): CheckResult {
  const result = checkDiagnostics(parsed.diagnostics);
  // A model with syntax errors is partial: what it seems to lack may be what failed to parse.
  if (!result.valid) return result;
  const warnings = [...parsed.diagnostics.filter((d) => d.severity === 'warning'), ...modelWarnings(parsed.model)];
  warnings.sort((a, b) => a.offset - b.offset);
  return { ...result, warnings: warnings.map(formatDiagnostic) };
}

/** The validation result of diagnostics alone (syntax errors and the parser's warnings, not the model's). */
export function checkDiagnostics(diagnostics: readonly Diagnostic[]): CheckResult {
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const d of diagnostics) (d.severity === 'error' ? errors : warnings).push(formatDiagnostic(d));
  return { valid: errors.length === 0, errors, warnings };
}

/** At most `max` entries of a list of errors or warnings, and how many more there are. */
export function limitDiagnostics(list: readonly string[], max = 20): { shown: string[]; more: number } {
  return { shown: list.slice(0, max), more: Math.max(0, list.length - max) };
}
