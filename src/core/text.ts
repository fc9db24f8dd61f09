// Text folding for comparisons (specification, explore rule 1; decisions section 7): accents
// removed, punctuation stripped, lowercased, so that `modelo` finds `Modélo` and `10.1234` finds
// `10.1234/x`. Mechanism shared by the searches of two modules (explore's index and analysis's
// feature-name filter), which must fold both sides of every comparison alike; so it lives in core.

// Letters that Unicode decomposition leaves whole but a reader treats as accented.
const FOLDED: Record<string, string> = {
  ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ħ: 'h', ŧ: 't',
};
const FOLDED_PATTERN = new RegExp(`[${Object.keys(FOLDED).join('')}]`, 'gu');

/**
 * Accent-free, lowercase text with punctuation and symbols removed (not replaced:
 * `state-of-the-art` becomes `stateoftheart`, on both sides) and whitespace collapsed.
 * What remains are letters, digits and single spaces, so `%`, `_` and `|` never
 * survive: LIKE patterns built from it need no escaping and `|` can separate columns.
 */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(FOLDED_PATTERN, (c) => FOLDED[c]!)
    .replace(/[\p{P}\p{S}]+/gu, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Another's message quoted inside a sentence of ours, which ends it with its own full stop:
 * `The model could not be read: ${withoutFinalStop(reason)}.` never ends with two.
 */
export function withoutFinalStop(message: string): string {
  return message.trimEnd().replace(/\.+$/, '');
}
