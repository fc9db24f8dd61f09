// The dataset page: at its DOI (the landing page, decisions section 7) for everyone, and the
// owner's view of an unsynchronized dataset. Pages for visitors who are not logged in are kept
// (dataset.doi-page.ts) while nothing about the dataset changed.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ModuleContext } from '../../../core/modules.ts';
import { notFound, serverError } from '../../../core/http/errors.ts';
import { countOnSuccess, recordWhenBuilt } from '../../../core/http/tracking.ts';
import { slotMarker, type ReusablePage } from '../../../core/http/reusable-page.ts';
import type { KeptAnswer } from '../../../core/http/anonymous-answers.ts';
import { licenseLabel, licenseUrl } from '../licenses.ts';
import { doiPath, type DatasetSummary } from '../dataset.types.ts';
import { withQueryOf } from '../../../core/http/canonical-address.ts';
import { parseId } from '../dataset.http.ts';
import { KeptDoiPages } from './dataset.doi-page.ts';
import { DOI_PAGE_EXTENSIONS, DoiPageExtensions, type DoiPageCitations } from './doi-page.extensions.ts';

/** The plain citation line of a page without the citation module: the year is the publication's. */
function citation(dataset: DatasetSummary): string {
  const authors = dataset.authors.map((a) => a.name).join('; ');
  const year = (dataset.publishedAt ?? dataset.createdAt).slice(0, 4);
  return `${authors ? `${authors} ` : ''}(${year}). ${dataset.title} [Data set]. UVL Hub. https://doi.org/${dataset.doi}`;
}

/** Where a page is kept: the DOI page's stamp, read before the dataset. */
type KeepAs = { id: number; stamp: string };

/** What the DOI routes share: the kept pages, the citation part (null without the citation module) and the other modules' items with DOIs. */
type DoiPage = { ctx: ModuleContext; kept: KeptDoiPages; citations: DoiPageCitations | null; extensions: DoiPageExtensions };

export async function doiPageRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const kept = new KeptDoiPages();
  // The citation module, when enabled, puts its part of the page here (doi-page.extensions.ts).
  const extensions = new DoiPageExtensions();
  await ctx.events.emit(DOI_PAGE_EXTENSIONS, extensions);
  const page: DoiPage = { ctx, kept, citations: extensions.citations, extensions };

  app.get('/doi/*', {
    onSend: recordWhenBuilt('view_cookie'),
    // A visitor who is not logged in gets a kept page before the session is loaded (core/http/anonymous-answers.ts).
    config: { keptAnswer: (request, reply) => keptDoiAnswer(page, request, reply) },
  }, (request, reply) => answerDoi(page, request, reply));

  app.get('/dataset/unsynchronized/:id', async (request, reply) => {
    const id = parseId((request.params as { id: string }).id);
    if (id === undefined) throw notFound('No such dataset.');
    return reply.redirect(withQueryOf(request.url, `/dataset/unsynchronized/${id}/`), 301);
  });

  app.get('/dataset/unsynchronized/:id/', { config: { loginRequired: true } }, async (request, reply) => {
    const id = parseId((request.params as { id: string }).id);
    // Another user's dataset answers exactly like a missing one (decisions section 4).
    const dataset = id === undefined ? undefined : await ctx.services.dataset.getUnsynchronized(id, request.user!.id);
    if (!dataset) throw notFound('No such dataset among your unsynchronized datasets.');
    // `?preview=1`: the page as visitors will see it once published (no owner's buttons), still without a DOI.
    const preview = (request.query as { preview?: unknown }).preview === '1';
    return renderDataset(page, reply, dataset, !preview, undefined, preview);
  });
}

/** `/doi/*`: a citation export, a redirect, a kept page, or the page built. */
async function answerDoi(page: DoiPage, request: FastifyRequest, reply: FastifyReply) {
  const { ctx, citations } = page;
  const datasets = ctx.services.dataset;
  const raw = (request.params as { '*': string })['*'];
  if (!raw) throw notFound('Give a DOI: /doi/<doi>/.');
  // `/doi/<doi>/export/<format>` (extensions section 2) reaches this wildcard too: a router
  // wildcard can only end a path. The citation module answers it (its part of the page).
  const exported = citations?.answerExport(raw, request, reply);
  if (exported) return exported;
  // The canonical address ends with a slash (decisions section 7).
  if (!raw.endsWith('/')) return reply.redirect(withQueryOf(request.url, `/doi/${doiPath(raw)}/`), 301);
  const doi = raw.slice(0, -1);
  if (doi === '' || doi.endsWith('/')) throw notFound('No dataset has this DOI.');
  // A citation format asked for by Accept (extensions section 2) is answered instead of the page, and not counted as a view.
  const negotiated = citations?.negotiate(request.headers.accept) ?? null;
  // Coupling rule 5: the page links the model tools, so it cannot be built without them.
  const pageAllowed = ctx.isEnabled('modeltool');
  // A kept page for a visitor who is not logged in: one query says whether it is current.
  let keepAs: KeepAs | undefined;
  if (!negotiated && pageAllowed && reply.pageIsReusable()) {
    const found = await keptDoiPage(page, doi);
    if (found.kept) return reply.sendReusablePage(answerKept(page, request, reply, found.kept).page, found.kept.values);
    keepAs = found.keepAs;
  }
  const resolved = await datasets.resolveDoi(doi);
  if (resolved.kind === 'moved') return reply.redirect(withQueryOf(request.url, `/doi/${doiPath(resolved.doi)}/`), 302);
  if (resolved.kind === 'missing') {
    // A concept DOI names all versions: it leads to the newest (extensions section 2).
    const newest = await datasets.versions.newestByConceptDoi(doi);
    if (newest !== undefined) return reply.redirect(withQueryOf(request.url, `/doi/${doiPath(newest)}/`), 302);
    // Another module's item with this DOI (a published collection) has its own page.
    const elsewhere = await page.extensions.landingOf(doi);
    if (elsewhere !== undefined) return reply.redirect(elsewhere, 302);
    throw notFound('No dataset has this DOI.');
  }
  if (negotiated && citations) return citations.sendNegotiated(request, reply, resolved.dataset, negotiated);
  if (!pageAllowed) throw serverError('The model tools module is not enabled, so the dataset page cannot be built.');
  const user = request.user;
  countOnSuccess(request, (cookie) => datasets.recordView(resolved.dataset.id, user?.id ?? null, cookie));
  return renderDataset(page, reply, resolved.dataset, user?.id === resolved.dataset.userId, keepAs);
}

/** The kept DOI page of `doi` when it is current; else where a page built now may be kept. */
async function keptDoiPage(page: DoiPage, doi: string): Promise<{ kept?: KeptDoi; keepAs?: KeepAs }> {
  const state = await page.ctx.services.dataset.doiPageState(doi);
  if (!state || state.movedTo !== null || state.doi !== doi) return {};
  const kept = page.kept.get(state.id, state.stamp);
  if (!kept) return { keepAs: { id: state.id, stamp: state.stamp } };
  return { kept: { datasetId: state.id, page: kept.page, link: kept.link, values: { views: state.views, downloads: state.downloads } } };
}

type KeptDoi = { datasetId: number; page: ReusablePage; link: string | null; values: { views: number; downloads: number } };

/** A kept page goes out: counted as a view, with the citation module's Link header. */
function answerKept(page: DoiPage, request: FastifyRequest, reply: FastifyReply, kept: KeptDoi): KeptAnswer {
  countOnSuccess(request, (cookie) => page.ctx.services.dataset.recordView(kept.datasetId, null, cookie));
  if (kept.link !== null) reply.header('link', kept.link).header('vary', 'Accept');
  return { page: kept.page, values: kept.values };
}

/**
 * `/doi/<doi>/` for a visitor who is not logged in, before the session is loaded: the kept page
 * when it is current and the address asks for the page (not an export, not a format by Accept).
 */
async function keptDoiAnswer(page: DoiPage, request: FastifyRequest, reply: FastifyReply): Promise<KeptAnswer | undefined> {
  const raw = (request.params as { '*': string })['*'];
  // An export's address never ends with a slash; one without it is redirected by the route.
  if (!raw || !raw.endsWith('/')) return undefined;
  const doi = raw.slice(0, -1);
  if (doi === '' || doi.endsWith('/') || !page.ctx.isEnabled('modeltool')) return undefined;
  if ((page.citations?.negotiate(request.headers.accept) ?? null) !== null) return undefined;
  const found = await keptDoiPage(page, doi);
  return found.kept ? answerKept(page, request, reply, found.kept) : undefined;
}

/**
 * The dataset page. `keepAs` (the DOI page's stamp, read before the dataset) lets the page be
 * kept for other visitors who are not logged in (dataset.doi-page.ts).
 */
async function renderDataset(page: DoiPage, reply: FastifyReply, dataset: DatasetSummary, owner: boolean, keepAs?: KeepAs, preview = false) {
  const { ctx, kept, citations } = page;
  const datasets = ctx.services.dataset;
  const [counts, history, versionNav] = await Promise.all([
    datasets.counts(dataset.id), datasets.history(dataset.id), datasets.versions.navigation(dataset),
  ]);
  // Extensions section 2: the citation box and signposting links, from the citation module.
  const citationBox = dataset.doi && citations ? citations.box(dataset) : null;
  if (citationBox) reply.header('link', citationBox.links).header('vary', 'Accept');
  const data = {
    title: dataset.title,
    dataset,
    counts,
    versionNav,
    owner,
    preview,
    history,
    licenseInfo: { id: dataset.license, label: licenseLabel(dataset.license), url: licenseUrl(dataset.license) },
    modeltool: ctx.isEnabled('modeltool'),
    // The model pages (/model/<file id>/) exist only with the model module; the link follows it.
    modelPages: ctx.isEnabled('model'),
    citation: dataset.doi ? citation(dataset) : null,
    citationBox,
    doiUrl: dataset.doi ? `https://doi.org/${doiPath(dataset.doi)}` : null,
  };
  if (keepAs?.id !== dataset.id || owner || preview || !reply.pageIsReusable()) return reply.page('dataset/views/view.njk', data);
  const built = await reply.renderReusablePage('dataset/views/view.njk', { ...data, counts: { views: slotMarker('views'), downloads: slotMarker('downloads') } });
  kept.set(dataset.id, keepAs.stamp, built, citationBox?.links ?? null);
  return reply.sendReusablePage(built, counts);
}
