// A request's arguments checked as OAI-PMH 2.0 (section 3.1) requires before any data is read:
// a missing, repeated or unknown verb is badVerb; a repeated, unknown or missing argument, a bad
// date or a resumptionToken beside other arguments is badArgument.

export type OaiErrorCode =
  | 'badVerb' | 'badArgument' | 'cannotDisseminateFormat' | 'idDoesNotExist' | 'noRecordsMatch'
  | 'badResumptionToken' | 'noMetadataFormats' | 'noSetHierarchy';

export class OaiError extends Error {
  constructor(readonly code: OaiErrorCode, message: string) {
    super(message);
  }
}

export const VERBS = ['Identify', 'ListMetadataFormats', 'ListSets', 'ListIdentifiers', 'ListRecords', 'GetRecord'] as const;
export type Verb = (typeof VERBS)[number];

const ALLOWED: Record<Verb, { required: string[]; optional: string[]; exclusive?: string }> = {
  Identify: { required: [], optional: [] },
  ListMetadataFormats: { required: [], optional: ['identifier'] },
  ListSets: { required: [], optional: [], exclusive: 'resumptionToken' },
  ListIdentifiers: { required: ['metadataPrefix'], optional: ['from', 'until', 'set'], exclusive: 'resumptionToken' },
  ListRecords: { required: ['metadataPrefix'], optional: ['from', 'until', 'set'], exclusive: 'resumptionToken' },
  GetRecord: { required: ['identifier', 'metadataPrefix'], optional: [] },
};

export interface OaiRequest {
  verb: Verb;
  args: Record<string, string>;
}

/** The arguments as given (a GET's query string or a POST's form), each name with all its values. */
export type RawArguments = Map<string, string[]>;

export function rawArguments(params: URLSearchParams): RawArguments {
  const raw: RawArguments = new Map();
  for (const [name, value] of params) raw.set(name, [...(raw.get(name) ?? []), value]);
  return raw;
}

/** A percent-encoded component; a malformed escape or bytes that are not UTF-8 give U+FFFD, which checkArguments refuses. */
function strictDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return '\uFFFD';
  }
}

/**
 * A GET's raw query string as URLSearchParams splits it (a repeated argument stays visible), but
 * decoded strictly: URLSearchParams would keep `%zz` as it is and turn bytes that are not UTF-8
 * into U+FFFD silently, and a harvester sending either gets badArgument.
 */
export function queryArguments(query: string): RawArguments {
  const raw: RawArguments = new Map();
  for (const part of query.split('&')) {
    if (part === '') continue;
    const at = part.indexOf('=');
    const name = strictDecode(at < 0 ? part : part.slice(0, at));
    raw.set(name, [...(raw.get(name) ?? []), strictDecode(at < 0 ? '' : part.slice(at + 1))]);
  }
  return raw;
}

/**
 * What no argument can hold: control characters (a NUL included, which PostgreSQL cannot even
 * compare), U+FFFD (bytes that were not UTF-8, or a malformed escape) and the XML non-characters.
 */
const BAD_CHARACTER = /[\u0000-\u001F\u007F\uFFFD\uFFFE\uFFFF]/;

/** The verb and its arguments, or the OaiError the protocol asks for. */
export function checkArguments(raw: RawArguments): OaiRequest {
  const verbs = raw.get('verb') ?? [];
  if (verbs.length === 0) throw new OaiError('badVerb', 'The verb argument is missing.');
  if (verbs.length > 1) throw new OaiError('badVerb', 'The verb argument is repeated.');
  const verb = VERBS.find((v) => v === verbs[0]);
  if (!verb) throw new OaiError('badVerb', `"${verbs[0]}" is not an OAI-PMH verb. Verbs: ${VERBS.join(', ')}.`);
  const rule = ALLOWED[verb];
  const args: Record<string, string> = {};
  for (const [name, values] of raw) {
    if (name === 'verb') continue;
    if (![...rule.required, ...rule.optional, rule.exclusive].includes(name)) {
      throw new OaiError('badArgument', `${verb} does not take the argument "${name}".`);
    }
    if (values.length > 1) throw new OaiError('badArgument', `The argument "${name}" is repeated.`);
    if (BAD_CHARACTER.test(values[0]!)) {
      throw new OaiError('badArgument', `The argument "${name}" holds a control character or bytes that are not UTF-8 text.`);
    }
    args[name] = values[0]!;
  }
  if (rule.exclusive && args[rule.exclusive] !== undefined) {
    if (Object.keys(args).length > 1) throw new OaiError('badArgument', `${rule.exclusive} is an exclusive argument: give it alone with the verb.`);
    return { verb, args };
  }
  const missing = rule.required.filter((name) => args[name] === undefined);
  if (missing.length > 0) throw new OaiError('badArgument', `${verb} requires the argument${missing.length > 1 ? 's' : ''} ${missing.join(', ')}.`);
  return { verb, args };
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const SECONDS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;

export interface UtcDate {
  /** The instant the argument names (its first second, for a day). */
  time: number;
  granularity: 'day' | 'seconds';
}

/** A from/until value at either granularity the protocol allows; anything else is badArgument. */
export function parseUtcDate(name: string, value: string): UtcDate {
  const invalid = new OaiError('badArgument', `${name} must be a UTC date YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ, got "${value}".`);
  const seconds = SECONDS.exec(value);
  const match = seconds ?? DAY.exec(value);
  if (!match) throw invalid;
  const [y, mo, d, h, mi, s] = [...match.slice(1, 4), ...(seconds ? seconds.slice(4) : ['0', '0', '0'])].map(Number);
  // Date.UTC reads years 0-99 as 1900-1999, so the year is set apart (2000 is a leap year: 29 February stays until then).
  const date = new Date(Date.UTC(2000, mo! - 1, d!, h!, mi!, s!));
  const time = date.setUTCFullYear(y!);
  // Date.UTC rolls 2026-02-30 over into March: a value that does not come back the same is no date.
  const iso = Number.isNaN(time) ? '' : date.toISOString();
  if ((seconds ? `${iso.slice(0, 19)}Z` : iso.slice(0, 10)) !== value) throw invalid;
  return { time, granularity: seconds ? 'seconds' : 'day' };
}
