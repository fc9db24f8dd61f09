// ListIdentifiers and ListRecords: one page of at most PAGE_SIZE items over the sources in their
// fixed order, each in its (datestamp, id) order, resumed after the key a token carries.
import { OaiError, parseUtcDate } from './oai.arguments.ts';
import type { HarvestItem, HarvestWindow, ItemSource } from './oai.sources.ts';
import { decodeToken, encodeToken, type ListArguments } from './oai.token.ts';
import { metadataFormat } from './oai.metadata.ts';

export const PAGE_SIZE = 100;

export interface ListPage {
  args: ListArguments;
  items: { item: HarvestItem; set: string }[];
  /** Absent when the whole list fits one page; an empty token on the last page of a longer list. */
  resumption?: { token: string; completeListSize: number; cursor: number };
}

/** The datestamp window of from/until (both inclusive, at the granularity given). */
export function windowOf(args: ListArguments): HarvestWindow {
  const from = args.from === undefined ? undefined : parseUtcDate('from', args.from);
  const until = args.until === undefined ? undefined : parseUtcDate('until', args.until);
  if (from && until && from.granularity !== until.granularity) throw new OaiError('badArgument', 'from and until must have the same granularity.');
  if (from && until && from.time > until.time) throw new OaiError('badArgument', 'from must not be later than until.');
  // Stored times are ISO text with milliseconds; the bounds are cut before the "Z" so that text
  // comparison keeps every millisecond of the seconds (or day) named.
  const text = (time: number) => new Date(time).toISOString().slice(0, 19);
  const window: HarvestWindow = {};
  if (from) window.from = text(from.time);
  const end = until && until.time + (until.granularity === 'day' ? 86_400_000 : 1000);
  // After 9999-12-31 the ISO text gets a sign and six digits and no longer sorts: no bound is needed there.
  if (end !== undefined && end < Date.UTC(10000, 0, 1)) window.before = text(end);
  return window;
}

function sourcesOf(sources: ItemSource[], set: string | undefined): ItemSource[] {
  if (set === undefined) return sources;
  const chosen = sources.filter((s) => s.set === set);
  if (chosen.length === 0) throw new OaiError('badArgument', `There is no set "${set}". Sets: ${sources.map((s) => s.set).join(', ')}.`);
  return chosen;
}

/** The page a request (its arguments, or a resumptionToken alone) asks for. */
export async function listPage(sources: ItemSource[], given: Record<string, string>): Promise<ListPage> {
  const position = given.resumptionToken === undefined ? null : decodeToken(given.resumptionToken);
  const args: ListArguments = position ? position.args : {
    metadataPrefix: given.metadataPrefix!, from: given.from, until: given.until, set: given.set,
  };
  let window: HarvestWindow;
  let chosen: ItemSource[];
  try {
    window = windowOf(args);
    chosen = sourcesOf(sources, args.set);
  } catch (error) {
    // A token whose arguments no longer hold is the token's fault, not the harvester's request.
    if (error instanceof OaiError && position) throw new OaiError('badResumptionToken', 'The resumptionToken is not valid.');
    throw error;
  }
  if (!metadataFormat(args.metadataPrefix)) {
    if (position) throw new OaiError('badResumptionToken', 'The resumptionToken is not valid.');
    throw new OaiError('cannotDisseminateFormat', `The metadata format "${args.metadataPrefix}" is not offered. Formats: oai_dc, oai_datacite.`);
  }
  let start = 0;
  if (position) {
    start = chosen.findIndex((s) => s.set === position.last.set);
    if (start < 0) throw new OaiError('badResumptionToken', 'The resumptionToken is not valid.');
  }
  const items: ListPage['items'] = [];
  // One more than a page tells whether another page follows.
  for (let i = start; i < chosen.length && items.length <= PAGE_SIZE; i++) {
    const source = chosen[i]!;
    const after = position && i === start ? { datestamp: position.last.datestamp, id: position.last.id } : null;
    for (const item of await source.page(window, after, PAGE_SIZE + 1 - items.length)) items.push({ item, set: source.set });
  }
  const cursor = position?.cursor ?? 0;
  if (items.length === 0 && !position) throw new OaiError('noRecordsMatch', 'No record matches these arguments.');
  const more = items.length > PAGE_SIZE;
  const page = items.slice(0, PAGE_SIZE);
  if (!more && !position) return { args, items: page };
  const completeListSize = (await Promise.all(chosen.map((s) => s.count(window)))).reduce((a, b) => a + b, 0);
  const last = page.at(-1);
  const token = more && last ? encodeToken({ args, last: { set: last.set, ...last.item.key }, cursor: cursor + page.length }) : '';
  return { args, items: page, resumption: { token, completeListSize, cursor } };
}
