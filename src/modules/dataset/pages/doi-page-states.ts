// What tells whether a kept DOI page is current (dataset.doi-page.ts), read as rarely as the database allows.
import { changeStamp, type Db } from '../../../core/db/connect.ts';
import { LruMap } from '../../../core/lru-map.ts';
import * as repo from '../dataset.repository.ts';

export class DoiPageStates {
  /**
   * DOI page states read while the database's change stamp (core/db/connect.ts) had the value
   * kept with them: while it has not moved, nothing was written anywhere, so the state (views
   * and downloads included) is the same and the query is skipped. Only SQLite has such a stamp.
   */
  private readonly stamped = new LruMap<string, { stamp: number; state: repo.DoiPageState | undefined }>(2000);
  private readonly gathering = new Map<string, Promise<repo.DoiPageState | undefined>>();

  constructor(private readonly db: Db) {}

  async read(doi: string): Promise<Readonly<repo.DoiPageState> | undefined> {
    // Read before the query: a write after this moment moves the stamp and outdates what is kept.
    const stamp = changeStamp(this.db);
    if (stamp === undefined) return this.shared(doi);
    const kept = this.stamped.get(doi);
    if (kept !== undefined && kept.stamp === stamp) return kept.state;
    const state = await repo.doiPageState(this.db, doi);
    this.stamped.set(doi, { stamp, state });
    return state;
  }

  /**
   * Without a stamp (PostgreSQL, MariaDB) each answer needs the query, but the requests read in
   * one turn of the event loop can share it: the query is sent once that turn is over, so it
   * starts after every request that joined it had arrived, and sees every write that came
   * before any of them. A request that comes once it has been sent waits for the next one.
   */
  private shared(doi: string): Promise<repo.DoiPageState | undefined> {
    let state = this.gathering.get(doi);
    if (state === undefined) {
      state = new Promise((resolve, reject) => setImmediate(() => {
        this.gathering.delete(doi);
        repo.doiPageState(this.db, doi).then(resolve, reject);
      }));
      this.gathering.set(doi, state);
    }
    return state;
  }
}
