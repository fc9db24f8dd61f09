// Review links (extensions section 8). The owner: GET /dataset/<id>/review-links (the links and a
// form), POST /dataset/<id>/review-links (field `expires`, CSRF) answering the link
// /review/<token>/, POST /dataset/<id>/review-links/<link id>/revoke. A reviewer: /review/<token>/
// (the dataset without people), /review/<token>/model/<file id>/ (a model's facts, diagram and
// source), /review/<token>/file/<file id>, /review/<token>/export/<format>/<file id> (the model
// tools' exports) and /review/<token>/zip. A revoked
// or expired link answers 404 everywhere.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZipArchive } from 'archiver';
import type { ModuleContext } from '../../core/modules.ts';
import { badRequest, HttpError, notFound } from '../../core/http/errors.ts';
import { formFields, type FieldErrors } from '../../core/http/forms.ts';
import { lazyStream } from '../../core/storage/lazy-stream.ts';
import { attachmentHeader, parseFileId } from '../hubfile/index.ts';
import { DiagramQueryError } from '../model/index.ts';
import { EXPORT_TARGETS, exportFailure, type ExportTarget } from '../modeltool/index.ts';
import { requesterOf } from '../../core/scheduler/index.ts';
import { latestExpiry, type ReviewService } from './review.service.ts';
import { reviewConfiguratorRoutes } from './review.configurator.ts';
import { withFinalSlash } from '../../core/http/canonical-address.ts';

/** The exports the reviewer's page offers for each file, as the DOI page's Export menu names them. */
const REVIEW_EXPORTS = [
  { target: 'glencoe', label: 'Glencoe (JSON)' }, { target: 'splot', label: 'SPLOT (SXFM)' },
  { target: 'cnf', label: 'DIMACS CNF' }, { target: 'featureide', label: 'FeatureIDE (XML)' },
] as const satisfies readonly { target: ExportTarget; label: string }[];

/** What the owner's page shows besides the links: a new link, or the form as posted with its errors. */
interface PageState { created?: string; errors?: FieldErrors; values?: Record<string, string> }

/** A refusal of one form field by the service (a 400 whose body names the field), else undefined. */
function fieldErrorOf(error: unknown): FieldErrors | undefined {
  const field = error instanceof HttpError && error.status === 400 ? error.body?.field : undefined;
  return typeof field === 'string' ? { [field]: [(error as HttpError).message] } : undefined;
}

const idOf = (raw: string) => (/^\d{1,10}$/.test(raw) ? Number(raw) : undefined);

function datasetIdOf(request: FastifyRequest): number {
  const id = idOf((request.params as { id: string }).id);
  if (id === undefined) throw notFound('No such dataset among yours.');
  return id;
}

// Reviewers' pages are never indexed nor kept by shared caches: the link is the secret.
const privately = (reply: FastifyReply) => reply.header('cache-control', 'private, no-store').header('x-robots-tag', 'noindex').header('referrer-policy', 'no-referrer');

export async function reviewRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const review = ctx.services.review;
  ownerLinkRoutes(app, review);
  reviewerPageRoutes(app, ctx, review);
  await reviewConfiguratorRoutes(app, ctx);
  reviewerZipRoute(app, review);
}

/** The owner's page of review links, with the status it answers and what it shows besides the links. */
async function linksPage(review: ReviewService, request: FastifyRequest, reply: FastifyReply, status: number, state: PageState = {}) {
  const datasetId = datasetIdOf(request);
  const { links, published, doi } = await review.overview(datasetId, request.user!.id);
  const origin = `${request.protocol}://${request.host}`;
  return reply.code(status).page('review/views/links.njk', {
    title: 'Review links', datasetId, links, published, doi, errors: state.errors ?? {}, values: state.values ?? {},
    created: state.created ? `${origin}/review/${state.created}/` : null,
    today: new Date().toISOString().slice(0, 10), latest: latestExpiry(),
  });
}

/** The owner's side: the links of a dataset, a new link, a revoked one. */
function ownerLinkRoutes(app: FastifyInstance, review: ReviewService): void {
  app.get('/dataset/:id/review-links', { config: { loginRequired: true } }, (request, reply) => linksPage(review, request, reply, 200));

  app.post('/dataset/:id/review-links', { config: { loginRequired: true } }, async (request, reply) => {
    const fields = formFields(request.body);
    const expires = (fields.expires ?? '').trim();
    try {
      // Only `expires` (and the CSRF token) is read: a published dataset is warned about, never refused.
      const token = await review.create(datasetIdOf(request), request.user!.id, expires);
      return await linksPage(review, request, reply, 201, { created: token });
    } catch (error) {
      // The form comes back as posted, the reason under its field (not an error page).
      const errors = fieldErrorOf(error);
      if (!errors) throw error;
      return linksPage(review, request, reply, 400, { errors, values: { expires } });
    }
  });

  app.post('/dataset/:id/review-links/:linkId/revoke', { config: { loginRequired: true } }, async (request, reply) => {
    const datasetId = datasetIdOf(request);
    const linkId = idOf((request.params as { linkId: string }).linkId);
    if (linkId === undefined) throw notFound('No such review link.');
    await review.revoke(datasetId, request.user!.id, linkId);
    return reply.redirect(`/dataset/${datasetId}/review-links`, 303);
  });
}

/** The reviewer's side through the link: the dataset, a file, a model's page. */
function reviewerPageRoutes(app: FastifyInstance, ctx: ModuleContext, review: ReviewService): void {
  // The link ends with a slash; the same address without it (cut when pasted, typed) redirects to
  // it, as the DOI and model pages do, instead of a 404 that reads as a revoked link.
  const toSlash = (request: FastifyRequest, reply: FastifyReply) => privately(reply).redirect(withFinalSlash(request.url), 301);
  app.get('/review/:token', toSlash);
  app.get('/review/:token/model/:fileId', toSlash);

  app.get('/review/:token/', async (request, reply) => {
    const token = (request.params as { token: string }).token;
    const { dataset } = await review.anonymousView(token, true);
    return privately(reply).page('review/views/review.njk', { title: dataset.title, dataset, base: `/review/${token}`, exports: REVIEW_EXPORTS });
  });

  app.get('/review/:token/file/:fileId', async (request, reply) => {
    const { token, fileId } = request.params as { token: string; fileId: string };
    const id = parseFileId(fileId);
    if (id === undefined) throw notFound('No such file in this dataset.');
    const file = await review.file(token, id);
    return privately(reply).type('text/plain; charset=utf-8').header('content-disposition', attachmentHeader(file.name)).send(file.text);
  });

  // The model tools' exports (extensions section 8: the link reaches the dataset's exports), named as
  // the DOI page's are (`<name>_<format>.txt`).
  app.get('/review/:token/export/:target/:fileId', async (request, reply) => {
    const { token, target, fileId } = request.params as { token: string; target: string; fileId: string };
    const id = parseFileId(fileId);
    if (id === undefined || !Object.hasOwn(EXPORT_TARGETS, target)) throw notFound('No such export of a file in this dataset.');
    let exported;
    try {
      exported = await review.exported(token, id, target as ExportTarget, requesterOf(request));
    } catch (error) {
      throw exportFailure(error);
    }
    return privately(reply).type('text/plain; charset=utf-8').header('content-disposition', attachmentHeader(exported.downloadName)).send(exported.text);
  });

  // A model's page through the link (issue 37, item 10): facts, diagram and source, no DOI or person.
  app.get('/review/:token/model/:fileId/', async (request, reply) => {
    const { token, fileId } = request.params as { token: string; fileId: string };
    const id = parseFileId(fileId);
    if (id === undefined) throw notFound('No such file in this dataset.');
    let view;
    try {
      view = await review.model(token, id, request.query);
    } catch (error) {
      if (error instanceof DiagramQueryError) throw badRequest(error.message);
      throw error;
    }
    const { datasetTitle, model } = view;
    return privately(reply).page('review/views/model.njk', {
      title: `${model.title} (${model.fileName})`, datasetTitle, model, base: `/review/${token}`,
      configurator: ctx.isEnabled('configurator') && model.errors.length === 0,
    });
  });
}

/** The dataset's files as one zip, streamed as they are read from the store. */
function reviewerZipRoute(app: FastifyInstance, review: ReviewService): void {
  app.get('/review/:token/zip', async (request, reply) => {
    const zip = await review.zip((request.params as { token: string }).token);
    const archive = new ZipArchive({ zlib: { level: 6 } });
    archive.on('error', (error) => {
      request.log.error({ err: error }, 'the review zip could not be completed');
      reply.raw.destroy(error);
    });
    // The entries are named by the dataset's id and file names only, as in the dataset's own zip.
    for (const file of zip.files) archive.append(lazyStream(file.open, `The stored file ${file.name}`), { name: `dataset/${file.name}` });
    archive.finalize().catch(() => { /* reported through the error event */ });
    return privately(reply).header('content-type', 'application/zip').header('content-disposition', 'attachment; filename="dataset.zip"').send(archive);
  });
}
