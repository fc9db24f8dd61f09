// Search normalization (specification, explore rule 1; decisions section 7): the words and
// column texts of the search index, folded by core's normalizeText (src/core/text.ts).
import { normalizeText } from '../../core/text.ts';

export { normalizeText };

/** The distinct words of a normalized query (explore rule 1). */
export function queryWords(query: string): string[] {
  const normalized = normalizeText(query);
  return normalized ? [...new Set(normalized.split(' '))] : [];
}

/** Column values joined so that no query word can match across two of them. */
export const COLUMN_SEPARATOR = '|';

export function searchText(values: (string | null | undefined)[]): string {
  return values.map((v) => normalizeText(v ?? '')).filter(Boolean).join(COLUMN_SEPARATOR);
}
