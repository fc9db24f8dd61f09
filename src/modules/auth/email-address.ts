// Email addresses (extensions section 11): the one reading of an address that every form (sign-up,
// login, forgotten password, email change, ORCID's first sign-in) and the service use, so that two
// accounts can never hold addresses that look the same.
import { domainToASCII, domainToUnicode } from 'node:url';

export type EmailReading = { ok: true; email: string } | { ok: false; message: string };

/** The email column is string(256) (specification, Limits). */
export const EMAIL_MAX_LENGTH = 256;

// Control, format (zero-width spaces and joiners, bidirectional controls, soft hyphen), surrogate,
// private-use and line/paragraph separators, and every code point Unicode says renders as nothing
// (Hangul fillers, variation selectors): an address holding one looks like another.
// U+2800, the blank Braille pattern, is a symbol that renders as nothing but is none of these.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800]/u;
// Unquoted addresses only: characters that RFC 5322 reserves, and spaces of any kind.
const RESERVED = /[\s<>()[\]\\,;:"@]/u;
// Scripts whose letters pass for each other (Latin a, Cyrillic а, Greek α): one part may use one of them.
const CONFUSABLE_SCRIPTS: [string, RegExp][] = [
  ['Latin', /\p{Script=Latin}/u], ['Cyrillic', /\p{Script=Cyrillic}/u], ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u], ['Cherokee', /\p{Script=Cherokee}/u],
];

const INVALID = 'Invalid email address: enter one such as name@example.org.';

function mixesScripts(part: string): boolean {
  return CONFUSABLE_SCRIPTS.filter(([, script]) => script.test(part)).length > 1;
}

/** The domain as one spelling (Unicode, lower case), or undefined when it is no domain name. */
function canonicalDomain(domain: string): string | undefined {
  const labels = domain.split('.');
  if (labels.length < 2 || labels.some((label) => label === '' || label.length > 63)) return undefined;
  const ascii = domainToASCII(domain);
  if (!ascii) return undefined;
  return domainToUnicode(ascii).normalize('NFC');
}

/**
 * Reads an address as typed: trimmed and NFC-normalised, then refused with a message when it holds
 * invisible characters, mixes confusable scripts within its local part or one domain label, or is
 * not `local@domain`. The answer is lower-cased as a whole (stored addresses always were, so the
 * local part compares case-insensitively too) and its domain is given one spelling (an IDN's
 * `xn--` form and its Unicode form are the same address).
 */
export function readEmail(input: string): EmailReading {
  // White space only: String.prototype.trim also drops U+FEFF, a zero-width character refused below.
  const trimmed = input.replace(/^\p{White_Space}+|\p{White_Space}+$/gu, '').normalize('NFC');
  if (trimmed === '') return { ok: false, message: 'Email is required.' };
  if (INVISIBLE.test(trimmed)) {
    return { ok: false, message: 'Invalid email address: it contains invisible or control characters (such as a zero-width space). Type it again by hand.' };
  }
  const at = trimmed.lastIndexOf('@');
  const local = trimmed.slice(0, at);
  const rawDomain = trimmed.slice(at + 1);
  if (at <= 0 || RESERVED.test(local) || RESERVED.test(rawDomain) || local.startsWith('.') || local.endsWith('.') || local.includes('..')) {
    return { ok: false, message: INVALID };
  }
  const domain = canonicalDomain(rawDomain);
  if (domain === undefined) return { ok: false, message: INVALID };
  // Fullwidth letters, ligatures, superscripts and the like are other spellings of plain ones
  // (NFKC folds them): ｕser1 would pass for user1. The domain's are folded by its IDN reading.
  if (local.normalize('NFKC') !== local) {
    return { ok: false, message: 'Invalid email address: it contains letters in a special form (such as fullwidth "ｕ" or the ligature "ﬁ"). Type it again with ordinary letters.' };
  }
  if (mixesScripts(local) || domain.split('.').some(mixesScripts)) {
    return { ok: false, message: 'Invalid email address: it mixes letters of different alphabets (such as a Cyrillic "а" among Latin ones). Type it again by hand.' };
  }
  const email = `${local.toLowerCase()}@${domain}`.normalize('NFC');
  if ([...email].length > EMAIL_MAX_LENGTH) return { ok: false, message: `Field cannot be longer than ${EMAIL_MAX_LENGTH} characters.` };
  return { ok: true, email };
}

/**
 * The stored form of an address for a lookup (login, reset, seeders): the canonical one when it
 * reads, else trimmed and lower-cased as before these rules, so an account made earlier still logs in.
 */
export function normalizeEmail(input: string): string {
  const read = readEmail(input);
  return read.ok ? read.email : input.trim().toLowerCase();
}
