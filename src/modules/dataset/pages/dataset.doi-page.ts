// DOI pages kept rendered for visitors who are not logged in (issue 12, item 1). A page is kept
// under its dataset's stamp (the dataset's revision and its versions', read in one query before
// anything else), so a write on any instance shows at once; the view and download counts and the
// CSRF token are slots filled on every answer. The History names editors by their profile, which
// can change without the dataset changing: a kept page is therefore rebuilt after a minute at most.
import type { ReusablePage } from '../../../core/http/reusable-page.ts';

const KEPT_DATASETS = 1000;
const KEPT_MS = 60_000;

interface KeptPage {
  stamp: string;
  page: ReusablePage;
  /** The citation module's signposting Link header, or null without it. */
  link: string | null;
  keptAt: number;
}

export class KeptDoiPages {
  private readonly pages = new Map<number, KeptPage>();

  get(datasetId: number, stamp: string, now = Date.now()): KeptPage | undefined {
    const kept = this.pages.get(datasetId);
    if (kept === undefined) return undefined;
    if (kept.stamp !== stamp || now - kept.keptAt > KEPT_MS) {
      this.pages.delete(datasetId);
      return undefined;
    }
    return kept;
  }

  set(datasetId: number, stamp: string, page: ReusablePage, link: string | null, now = Date.now()): void {
    this.pages.delete(datasetId);
    this.pages.set(datasetId, { stamp, page, link, keptAt: now });
    // Oldest first (each set goes last): pages past their minute would only be rebuilt, so they
    // go now rather than when the same page is asked for again, which may be never.
    for (const [id, kept] of this.pages) {
      if (this.pages.size <= KEPT_DATASETS && now - kept.keptAt <= KEPT_MS) break;
      this.pages.delete(id);
    }
  }

  get size(): number {
    return this.pages.size;
  }
}
