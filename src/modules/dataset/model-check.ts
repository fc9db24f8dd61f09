// The dataset module's own check of a model text (staging and upload), made with the UVL
// library directly: dataset does not require modeltool (coupling rules 3 and 5 name only the
// DOI page as depending on it), so staging and uploading keep working without that module.
import { countModel, formatDiagnostic, parseUvl } from '../../../packages/uvl/src/index.ts';

export interface ModelCheck {
  valid: boolean;
  /** `Line <l>:<c> - <message>` (decisions section 6). */
  errors: string[];
  /** Tab hints and the like: they do not make a model invalid. */
  warnings: string[];
  /** Features as flamapy counts them (DSMetrics, decisions section 4); 0 for a model with syntax errors. */
  features: number;
}

/** One parse gives the syntax check and the feature count. Imports are not followed: a staged file has no dataset yet. */
export function checkModelText(text: string): ModelCheck {
  const { model, diagnostics } = parseUvl(text);
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const d of diagnostics) (d.severity === 'error' ? errors : warnings).push(formatDiagnostic(d));
  const valid = errors.length === 0;
  return { valid, errors, warnings, features: valid ? countModel(model).features : 0 };
}
