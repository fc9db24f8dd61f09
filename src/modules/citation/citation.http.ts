// HTTP parts of citation (extensions section 2) that the DOI route uses: which format an Accept
// header asks for, the signposting Link header, and how a citation file is answered. The DOI
// route belongs to the dataset module (a router wildcard can only end a path, so
// `/doi/<doi>/export/<format>` arrives there too); citation hands it `doiPageCitations` through
// the page's extension point (dataset's DOI_PAGE_EXTENSIONS event), so dataset never imports citation.
import { createHash } from 'node:crypto';
import Negotiator from 'negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientHasCurrent } from '../../core/http/conditional.ts';
import type { DatasetSummary, DoiPageCitations } from '../dataset/index.ts';
import type { CitationFormat } from './citation.formats.ts';
import type { CitationService } from './citation.service.ts';

/** Media types a client may ask for on the DOI page, HTML first: it stays the default. */
const PAGE_TYPES: [string, CitationFormat | null][] = [
  ['text/html', null],
  ['application/xhtml+xml', null],
  ['application/x-bibtex', 'bibtex'],
  ['application/x-research-info-systems', 'ris'],
  ['application/vnd.citationstyles.csl+json', 'csl'],
  ['application/ld+json', 'jsonld'],
  ['application/vnd.datacite.datacite+json', 'datacite'],
];

/**
 * The citation format an Accept header prefers over HTML, or null for the page. Negotiator ranks
 * by quality, then specificity, then the header's order; a tie with HTML or a missing header
 * keeps the page, and so does an Accept naming nothing we have (no 406 for a landing page).
 */
export function negotiateFormat(accept: string | undefined): CitationFormat | null {
  if (!accept) return null;
  // Offered with the charset every answer has, so that a range naming it (`application/x-bibtex;
  // charset=utf-8`) matches too: a range with parameters matches only types that carry them.
  const offered = PAGE_TYPES.map(([type]) => `${type}; charset=utf-8`);
  const best = new Negotiator({ headers: { accept } }).mediaType(offered);
  return best === undefined ? null : PAGE_TYPES[offered.indexOf(best)]?.[1] ?? null;
}

/** `/doi/<doi>/export/<format>` read from the DOI route's wildcard (`<doi>/export/<format>`). */
export function exportPathOf(rest: string): { doi: string; format: string } | null {
  const match = /^(.+)\/export\/([^/]+)$/.exec(rest);
  return match ? { doi: match[1]!, format: match[2]! } : null;
}

export interface CitationFile {
  body: string;
  contentType: string;
  fileName: string;
}

/**
 * Answers a citation file with a strong ETag of its content (304 for a current copy). An export
 * is a download with its file name; the DOI page's negotiated answer varies with Accept.
 */
export function sendCitationFile(request: FastifyRequest, reply: FastifyReply, file: CitationFile, as: 'download' | 'negotiated') {
  const tag = createHash('sha256').update(file.body).digest('base64url').slice(0, 27);
  reply.header('etag', `"${tag}"`);
  // Public data, but edited datasets change it: caches keep it and ask again each time.
  reply.header('cache-control', 'public, no-cache');
  if (as === 'negotiated') reply.header('vary', 'Accept');
  reply.header('content-disposition', `${as === 'download' ? 'attachment' : 'inline'}; filename="${file.fileName}"`);
  if (clientHasCurrent(request, tag, Number.NaN)) return reply.code(304).send();
  return reply.type(file.contentType).send(file.body);
}

/** The DOI page's citation part: exports, formats asked for by Accept, the citation box. */
export function doiPageCitations(citation: CitationService): DoiPageCitations {
  return {
    answerExport(rest, request, reply) {
      const path = exportPathOf(rest);
      if (!path) return undefined;
      return citation.exportByDoi(path.doi, path.format).then((answer) => (answer.kind === 'moved'
        ? reply.redirect(answer.location, 302)
        : sendCitationFile(request, reply, answer.file, 'download')));
    },
    negotiate: negotiateFormat,
    sendNegotiated: (request, reply, dataset: DatasetSummary, format) =>
      sendCitationFile(request, reply, citation.fileFor(dataset, format as CitationFormat), 'negotiated'),
    box: (dataset) => citation.box(dataset),
  };
}
