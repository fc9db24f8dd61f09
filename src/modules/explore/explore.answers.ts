// Search answers kept while the database stands still (POST /explore). On SQLite the database's
// change stamp (core/db/connect.ts) moves with every write on this connection and with every
// commit of another one (another instance, the CLI, an analysis): an answer kept under the stamp
// read before its queries is the answer those queries would give again while the stamp has not
// moved. Without a stamp (PostgreSQL, MariaDB) only a query can tell, but the same searches read
// in one turn of the event loop share theirs, as the DOI page's state does
// (dataset/pages/doi-page-states.ts): the queries start once that turn is over, after every
// request that joined them had arrived, so they see every write that came before any of them.
import { changeStamp, type Db } from '../../core/db/connect.ts';
import { LruMap } from '../../core/lru-map.ts';
import type { SearchRequest } from './explore.service.ts';

/** Searches kept: distinct requests (words, filters, page), each with its JSON answer. */
const KEPT_SEARCHES = 256;
/** Longer requests are not kept (the key is the whole request). */
const MAX_KEY = 2048;
/** Larger answers (a blank search without a limit over many datasets) are not kept: at most 16 MB in all. */
const MAX_KEPT_ANSWER = 64 * 1024;

/** The request as a key; undefined when it nests too deeply for JSON.stringify (a body of 100 000 nested objects). */
function keyOf(request: SearchRequest): string | undefined {
  try {
    return JSON.stringify(request);
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

export class SearchAnswers {
  private readonly kept = new LruMap<string, { stamp: number; json: string }>(KEPT_SEARCHES);
  private readonly gathering = new Map<string, Promise<string>>();

  constructor(private readonly db: Db) {}

  /** The JSON answer of `request`: kept, or made by `search` (and kept when it may be). */
  async answer(request: SearchRequest, search: () => Promise<object[]>): Promise<string> {
    // Read before the queries: a write after this moment moves the stamp and outdates the answer.
    const stamp = changeStamp(this.db);
    const key = keyOf(request);
    // A request too deeply nested to be a key (its `models` is read only by the search, which refuses it): not kept.
    if (key === undefined) return JSON.stringify(await search());
    if (stamp === undefined) return key.length <= MAX_KEY ? this.shared(key, search) : JSON.stringify(await search());
    const kept = key.length <= MAX_KEY ? this.kept.get(key) : undefined;
    if (kept !== undefined && kept.stamp === stamp) return kept.json;
    const json = JSON.stringify(await search());
    if (key.length <= MAX_KEY && json.length <= MAX_KEPT_ANSWER) this.kept.set(key, { stamp, json });
    return json;
  }

  /** The answer of the searches equal to this one read in this turn, their queries run once it is over. */
  private shared(key: string, search: () => Promise<object[]>): Promise<string> {
    let answer = this.gathering.get(key);
    if (answer === undefined) {
      answer = new Promise<string>((resolve, reject) => setImmediate(() => {
        this.gathering.delete(key);
        search().then((results) => resolve(JSON.stringify(results)), reject);
      }));
      this.gathering.set(key, answer);
    }
    return answer;
  }
}
