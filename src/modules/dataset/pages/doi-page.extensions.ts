// What another module adds to the DOI page: the citation module's exports, formats by Accept and
// citation box (extensions section 2), and the pages of other items with DOIs (a published
// collection's). The page is the dataset module's and those modules require dataset, so the page
// may not import them: at start the page asks, by the event below, who extends it, and each
// answers by putting its part in the registry it is handed.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DatasetSummary } from '../dataset.types.ts';

/** Emitted once per application when the DOI routes are registered, with a `DoiPageExtensions`. */
export const DOI_PAGE_EXTENSIONS = 'dataset.doiPageExtensions';

/** The citation part of the DOI page; with the citation module disabled there is none. */
export interface DoiPageCitations {
  /** The answer to `/doi/<doi>/export/<format>` (`rest`: the route's wildcard), or undefined when `rest` is no export. */
  answerExport(rest: string, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> | undefined;
  /** The format an Accept header prefers over the page, or null for the page. */
  negotiate(accept: string | undefined): string | null;
  /** The dataset's citation in a format `negotiate` gave, answered instead of the page. */
  sendNegotiated(request: FastifyRequest, reply: FastifyReply, dataset: DatasetSummary, format: string): FastifyReply;
  /** The page's citation box, whose `links` is the signposting Link header, or null. */
  box(dataset: DatasetSummary): { links: string } | null;
}

/** The address of the page of another module's item with this DOI (say `/collection/7/`), or undefined. */
export type DoiLanding = (doi: string) => Promise<string | undefined>;

/** The registry handed to the listeners of DOI_PAGE_EXTENSIONS: one per application. */
export class DoiPageExtensions {
  #citations: DoiPageCitations | null = null;
  readonly #landings: DoiLanding[] = [];

  /** `/doi/<doi>/` of a DOI that names no dataset leads to the page of the item that has it. */
  addLanding(landing: DoiLanding): void {
    this.#landings.push(landing);
  }

  /** The page of another module's item with this DOI, asked of each module in turn. */
  async landingOf(doi: string): Promise<string | undefined> {
    for (const landing of this.#landings) {
      const found = await landing(doi);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  get citations(): DoiPageCitations | null {
    return this.#citations;
  }

  useCitations(citations: DoiPageCitations): void {
    this.#citations = citations;
  }
}
