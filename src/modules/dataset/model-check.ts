// The dataset module's own check of a model text (staging and upload), made with the UVL
// library directly: dataset does not require modeltool (coupling rules 3 and 5 name only the
// DOI page as depending on it), so staging and uploading keep working without that module.
import { checkDiagnostics, countModel, parseUvl, type CheckResult } from '../../../packages/uvl/src/index.ts';

export interface ModelCheck extends CheckResult {
  /** Features as flamapy counts them (DSMetrics, decisions section 4); 0 for a model with syntax errors. */
  features: number;
}

export const NO_FEATURES = 'The model declares no features: it is valid UVL, but holds nothing to analyse.';

/** One parse gives the syntax check and the feature count. Imports are not followed: a staged file has no dataset yet. */
export function checkModelText(text: string): ModelCheck {
  const { model, diagnostics } = parseUvl(text);
  const check = checkDiagnostics(diagnostics);
  const features = check.valid ? countModel(model).features : 0;
  // An empty file is valid UVL for the reference parser too; the uploader is told it holds nothing (issue 10).
  const warnings = check.valid && features === 0 ? [...check.warnings, NO_FEATURES] : check.warnings;
  return { ...check, warnings, features };
}
