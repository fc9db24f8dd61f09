// checkUvl: the validation result the hub returns from /modeltool/check_uvl and the staging upload.

import { formatDiagnostic, type Diagnostic } from './diagnostics.ts';
import { parseUvl, type ParseOptions } from './parser.ts';

export interface CheckResult {
  /** No errors; warnings (tab hints, unresolved imports) do not make a model invalid. */
  valid: boolean;
  /** `Line <line>:<column> - <message>` for each syntax error. */
  errors: string[];
  /** `Line <line>:<column> - <message>` for each warning. */
  warnings: string[];
}

export function checkUvl(text: string, options?: ParseOptions): CheckResult {
  return checkDiagnostics(parseUvl(text, options).diagnostics);
}

/** The validation result of diagnostics already at hand (a caller that also needs the parsed model parses once). */
export function checkDiagnostics(diagnostics: readonly Diagnostic[]): CheckResult {
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const d of diagnostics) (d.severity === 'error' ? errors : warnings).push(formatDiagnostic(d));
  return { valid: errors.length === 0, errors, warnings };
}
