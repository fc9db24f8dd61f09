// The dataset module's own check of a model text (staging and upload), made with the UVL
// library directly: dataset does not require modeltool (coupling rules 3 and 5 name only the
// DOI page as depending on it), so staging and uploading keep working without that module.
import { checkParsed, countModel, decodeUtf8Text, NOT_TEXT_ERROR, parseUvl, type CheckResult } from '../../../packages/uvl/src/index.ts';

export interface ModelCheck extends CheckResult {
  /** Features as flamapy counts them (DSMetrics, decisions section 4); 0 for a model with syntax errors. */
  features: number;
}

/**
 * One parse gives the check (errors, and warnings such as the library's empty-model one) and
 * the feature count. Imports are not followed: a staged file has no dataset yet.
 */
export function checkModelText(text: string): ModelCheck {
  const parsed = parseUvl(text);
  const check = checkParsed(parsed);
  return { ...check, features: check.valid ? countModel(parsed.model).features : 0 };
}

/** The check of a file's bytes: bytes that are not UTF-8 text get one error, not one per byte (extensions section 9). */
export function checkModelBytes(bytes: Uint8Array): ModelCheck {
  const text = decodeUtf8Text(bytes);
  if (text === undefined) return { valid: false, errors: [NOT_TEXT_ERROR], warnings: [], features: 0 };
  return checkModelText(text);
}
