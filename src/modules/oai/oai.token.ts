// Resumption tokens: the list's original arguments and the key of the last item sent (its
// source's set and its place in the (datestamp, id) order), not an offset, so items published
// between two pages neither shift a record out of the list nor send one twice. A token carries
// everything: the hub keeps no state per harvester and any instance can answer it.
import { OaiError } from './oai.arguments.ts';

export interface ListArguments {
  metadataPrefix: string;
  from?: string;
  until?: string;
  set?: string;
}

export interface ListPosition {
  args: ListArguments;
  /** The set of the last item sent, and its key there. */
  last: { set: string; datestamp: string; id: number };
  /** How many items were sent before the next page. */
  cursor: number;
}

export function encodeToken(position: ListPosition): string {
  const { args, last, cursor } = position;
  const parts = [1, args.metadataPrefix, args.from ?? '', args.until ?? '', args.set ?? '', last.set, last.datestamp, last.id, cursor];
  return Buffer.from(JSON.stringify(parts), 'utf8').toString('base64url');
}

const isText = (v: unknown): v is string => typeof v === 'string' && v.length <= 100;
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/** The position a token names; anything this hub did not write is badResumptionToken. */
export function decodeToken(token: string): ListPosition {
  const refused = new OaiError('badResumptionToken', 'The resumptionToken is not valid (it was not given by this repository, or was altered).');
  let parts: unknown;
  try {
    if (!/^[A-Za-z0-9_-]{1,1000}$/.test(token)) throw refused;
    parts = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw refused;
  }
  if (!Array.isArray(parts) || parts.length !== 9 || parts[0] !== 1) throw refused;
  const [, metadataPrefix, from, until, set, lastSet, datestamp, id, cursor] = parts;
  if (![metadataPrefix, from, until, set, lastSet, datestamp].every(isText) || !isCount(id) || !isCount(cursor)) throw refused;
  const args: ListArguments = { metadataPrefix };
  if (from) args.from = from;
  if (until) args.until = until;
  if (set) args.set = set;
  return { args, last: { set: lastSet, datestamp, id }, cursor };
}
