// Routes of the dataset module (specification, dataset; decisions section 4): staging, the
// upload form and its submission, the owner's list, the DOI landing page, the unsynchronized
// view and the zip download.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ZipArchive } from 'archiver';
import type { ModuleContext } from '../../../core/modules.ts';
import { badRequest, notFound, payloadTooLarge, serverError, type HttpError } from '../../../core/http/errors.ts';
import type { MultipartFile } from '@fastify/multipart';
import { flash } from '../../../core/http/context.ts';
import { formFields } from '../../../core/http/forms.ts';
import { PUBLICATION_TYPES } from '../publication-types.ts';
import { LICENSES, licenseLabel, licenseUrl } from '../licenses.ts';
import { doiPath, StagingError, type DatasetSummary } from '../dataset.service.ts';
import { MAX_FEATURE_MODELS } from '../upload-form.ts';
import { countOnSuccess, recordWhenBuilt } from '../../../core/http/tracking.ts';
import { slotMarker } from '../../../core/http/reusable-page.ts';
import { KeptDoiPages } from './dataset.doi-page.ts';
import { lazyStream } from '../../../core/storage/lazy-stream.ts';
import { exportPathOf, negotiateFormat, sendCitationFile } from '../../citation/index.ts';

/** Ids are integers of the database's INTEGER range; anything else names no dataset. */
export function parseId(raw: unknown): number | undefined {
  if (typeof raw !== 'string' || !/^\d{1,10}$/.test(raw)) return undefined;
  const id = Number(raw);
  return id >= 1 && id <= 2147483647 ? id : undefined;
}

function citation(dataset: DatasetSummary): string {
  const authors = dataset.authors.map((a) => a.name).join('; ');
  const year = dataset.createdAt.slice(0, 4);
  return `${authors ? `${authors} ` : ''}(${year}). ${dataset.title} [Data set]. UVL Hub. https://doi.org/${dataset.doi}`;
}

/** Fields of the upload form, urlencoded or multipart (decisions section 4); files are not taken here. */
export async function uploadFields(request: FastifyRequest): Promise<Record<string, string>> {
  if (!request.isMultipart()) return formFields(request.body);
  const fields: Record<string, string> = {};
  // The global multipart limit suits one staged file; a form with 200 models has thousands of fields.
  for await (const part of request.parts({ limits: { fields: 20000, fieldSize: 100_000, files: 1 } })) {
    if (part.type === 'file') {
      part.file.resume();
      if (request.csrfPending) await request.checkCsrf(fields.csrf_token);
      throw badRequest('Stage the files through /dataset/file/upload first; this form takes their stored names.', {
        errors: { feature_models: ['Files are staged separately; send their stored names.'] },
      });
    }
    fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value ?? '');
  }
  // Decisions section 3: without the header, the form field csrf_token carries the token.
  if (request.csrfPending) await request.checkCsrf(fields.csrf_token);
  return fields;
}

/** The one part named `file` of a multipart request (staging and the API's file upload), or 400 `{"message"}`. */
export async function receiveFile(request: FastifyRequest): Promise<MultipartFile> {
  if (!request.isMultipart()) {
    // Not multipart, so the guard has already checked the token.
    throw badRequest('Send the model as multipart/form-data in the field "file".', { message: 'Send the model as multipart/form-data in the field "file".' });
  }
  let file: MultipartFile | undefined;
  let fieldToken: string | undefined;
  try {
    // Decisions section 3: the token may be the form field csrf_token, sent before the file part.
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        file = part;
        break;
      }
      if (part.fieldname === 'csrf_token' && typeof part.value === 'string') fieldToken = part.value;
    }
  } catch (error) {
    request.log.info({ err: error }, 'unreadable multipart upload');
    if (request.csrfPending) await request.checkCsrf(fieldToken);
    throw badRequest('The upload could not be read.', { message: 'The upload could not be read.' });
  }
  if (request.csrfPending) {
    try {
      await request.checkCsrf(fieldToken);
    } catch (error) {
      file?.file.resume();
      throw error;
    }
  }
  if (!file || file.fieldname !== 'file') {
    file?.file.resume();
    throw badRequest('No file was sent in the field "file".', { message: 'No file was sent in the field "file".' });
  }
  return file;
}

/** A refused staged file (decisions section 4): too large 413, anything else 400, both `{"message"}`. */
export function stagingRefusal(error: StagingError, maxUploadBytes: number): HttpError {
  if (error.kind === 'too_large') {
    const message = `The file is larger than the upload limit of ${Math.floor(maxUploadBytes / 1048576) || maxUploadBytes} ${maxUploadBytes >= 1048576 ? 'MiB' : 'bytes'}.`;
    return payloadTooLarge(message, { message });
  }
  return badRequest(error.message, { message: error.message });
}

export async function datasetRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const datasets = () => ctx.services.dataset;

  // ---- staging -------------------------------------------------------------------------------

  app.post('/dataset/file/upload', { config: { loginRequired: true, json: true, csrfInMultipart: true } }, async (request) => {
    const file = await receiveFile(request);
    try {
      const staged = await datasets().stageFile(request.user!.id, file.filename, file.file, () => file.file.truncated);
      return {
        message: staged.valid ? 'File staged: a valid UVL model.' : 'File staged, but the model has syntax errors.',
        filename: staged.filename,
        valid: staged.valid,
        errors: staged.errors,
        warnings: staged.warnings,
      };
    } catch (error) {
      file.file.resume();
      throw error instanceof StagingError ? stagingRefusal(error, ctx.config.maxUploadBytes) : error;
    }
  });

  app.post('/dataset/file/delete', { config: { loginRequired: true, json: true } }, async (request) => {
    const body = request.body as Record<string, unknown> | undefined;
    const name = body && typeof body === 'object' ? body.file : undefined;
    if (typeof name !== 'string' || name === '') {
      throw badRequest('Name the staged file: {"file": <stored name>}.', { error: 'Name the staged file: {"file": <stored name>}.' });
    }
    try {
      await datasets().deleteStagedFile(request.user!.id, name);
    } catch (error) {
      if (error instanceof StagingError) throw notFound(error.message, { error: error.message });
      throw error;
    }
    return { message: `${name} was removed from the staging area.` };
  });

  // ---- upload ----------------------------------------------------------------------------------

  app.get('/dataset/upload', { config: { loginRequired: true } }, async (request, reply) => {
    const user = request.user!;
    // A new version (POST /dataset/<id>/new-version) starts from the current version's metadata.
    const versionOf = parseId((request.query as { version_of?: unknown }).version_of);
    const draft = versionOf === undefined ? undefined : await datasets().versions.draftOf(versionOf, user.id);
    const [profile, staged] = await Promise.all([
      ctx.services.profile.getByUserId(user.id),
      datasets().listStagedFiles(user.id),
    ]);
    return reply.page('dataset/views/upload.njk', {
      title: draft ? `New version of ${draft.title}` : 'Upload dataset',
      draft,
      draftAuthorsJson: draft ? JSON.stringify(draft.authors) : '',
      // The licence select (partials/license-select.njk) preselects the current version's licence.
      values: draft ? { license: draft.license } : undefined,
      publicationTypes: PUBLICATION_TYPES,
      licenses: LICENSES,
      profile,
      stagedJson: JSON.stringify(staged),
      maxUploadBytes: ctx.config.maxUploadBytes,
      maxFiles: MAX_FEATURE_MODELS,
    });
  });

  app.post('/dataset/upload', { config: { loginRequired: true, json: true, csrfInMultipart: true } }, async (request, reply) => {
    const outcome = await datasets().upload(request.user!.id, await uploadFields(request));
    if (outcome.status === 'invalid') return reply.code(400).send({ errors: outcome.errors });
    // A new version the deposit refused: nothing was saved (dataset.versions.ts), so no dataset_id.
    if (outcome.status === 'failed') return reply.code(502).send({ errors: { version_of: [outcome.message] } });
    if (outcome.status === 'partial') {
      flash(request, 'warning', outcome.message);
      return { status: 'partial', dataset_id: outcome.datasetId, message: outcome.message };
    }
    flash(request, 'success', `Dataset published with DOI ${outcome.doi}.`);
    return { status: 'ok', dataset_id: outcome.datasetId, doi: outcome.doi, url: outcome.url };
  });

  // ---- the owner's list ------------------------------------------------------------------------

  const listPage = async (request: FastifyRequest, reply: import('fastify').FastifyReply) => {
    const lists = await datasets().listOwnDatasets(request.user!.id);
    return reply.page('dataset/views/list.njk', { title: 'My datasets', ...lists });
  };
  app.get('/dataset/list', { config: { loginRequired: true } }, listPage);
  // Reading the list changes nothing, so like the read-only POST /explore it needs no CSRF token
  // (decisions section 3 asks it of state-changing requests); the login redirect still comes first.
  app.post('/dataset/list', { config: { loginRequired: true, csrf: false } }, listPage);

  // ---- pages of one dataset ------------------------------------------------------------------

  const keptDoiPages = new KeptDoiPages();

  /**
   * The dataset page. `keepAs` (the DOI page's stamp, read before the dataset) lets the page be
   * kept for other visitors who are not logged in (dataset.doi-page.ts).
   */
  async function renderDataset(reply: import('fastify').FastifyReply, dataset: DatasetSummary, owner: boolean, keepAs?: { id: number; stamp: string }) {
    const [counts, history, versionNav] = await Promise.all([
      datasets().counts(dataset.id), datasets().history(dataset.id), datasets().versions.navigation(dataset),
    ]);
    // Extensions section 2: the citation box and signposting links, from the citation module.
    const citationBox = dataset.doi && ctx.isEnabled('citation') ? ctx.services.citation.box(dataset) : null;
    if (citationBox) reply.header('link', citationBox.links).header('vary', 'Accept');
    const data = {
      title: dataset.title,
      dataset,
      counts,
      versionNav,
      owner,
      history,
      licenseInfo: { id: dataset.license, label: licenseLabel(dataset.license), url: licenseUrl(dataset.license) },
      modeltool: ctx.isEnabled('modeltool'),
      // The model pages (/model/<file id>/) exist only with the model module; the link follows it.
      modelPages: ctx.isEnabled('model'),
      citation: dataset.doi ? citation(dataset) : null,
      citationBox,
      doiUrl: dataset.doi ? `https://doi.org/${doiPath(dataset.doi)}` : null,
    };
    if (keepAs?.id !== dataset.id || owner || !reply.pageIsReusable()) return reply.page('dataset/views/view.njk', data);
    const page = await reply.renderReusablePage('dataset/views/view.njk', { ...data, counts: { views: slotMarker('views'), downloads: slotMarker('downloads') } });
    keptDoiPages.set(dataset.id, keepAs.stamp, page, citationBox?.links ?? null);
    return reply.sendReusablePage(page, counts);
  }

  app.get('/doi/*', { onSend: recordWhenBuilt('view_cookie') }, async (request, reply) => {
    const raw = (request.params as { '*': string })['*'];
    if (!raw) throw notFound('Give a DOI: /doi/<doi>/.');
    // `/doi/<doi>/export/<format>` (extensions section 2) reaches this wildcard too: a router
    // wildcard can only end a path. The citation module answers it.
    const exportPath = ctx.isEnabled('citation') ? exportPathOf(raw) : null;
    if (exportPath) {
      const answer = await ctx.services.citation.exportByDoi(exportPath.doi, exportPath.format);
      return answer.kind === 'moved' ? reply.redirect(answer.location, 302) : sendCitationFile(request, reply, answer.file, 'download');
    }
    // The canonical address ends with a slash (decisions section 7).
    if (!raw.endsWith('/')) return reply.redirect(`/doi/${doiPath(raw)}/`, 301);
    const doi = raw.slice(0, -1);
    if (doi === '' || doi.endsWith('/')) throw notFound('No dataset has this DOI.');
    // A citation format asked for by Accept (extensions section 2) is answered instead of the page, and not counted as a view.
    const negotiated = ctx.isEnabled('citation') ? negotiateFormat(request.headers.accept) : null;
    // Coupling rule 5: the page links the model tools, so it cannot be built without them.
    const pageAllowed = ctx.isEnabled('modeltool');
    // A kept page for a visitor who is not logged in: one query says whether it is current.
    let keepAs: { id: number; stamp: string } | undefined;
    if (!negotiated && pageAllowed && reply.pageIsReusable()) {
      const state = await datasets().doiPageState(doi);
      if (state && state.movedTo === null && state.doi === doi) {
        const kept = keptDoiPages.get(state.id, state.stamp);
        if (kept) {
          countOnSuccess(request, (cookie) => datasets().recordView(state.id, null, cookie));
          if (kept.link !== null) reply.header('link', kept.link).header('vary', 'Accept');
          return reply.sendReusablePage(kept.page, { views: state.views, downloads: state.downloads });
        }
        keepAs = { id: state.id, stamp: state.stamp };
      }
    }
    const resolved = await datasets().resolveDoi(doi);
    if (resolved.kind === 'moved') return reply.redirect(`/doi/${doiPath(resolved.doi)}/`, 302);
    if (resolved.kind === 'missing') {
      // A concept DOI names all versions: it leads to the newest (extensions section 2).
      const newest = await datasets().versions.newestByConceptDoi(doi);
      if (newest !== undefined) return reply.redirect(`/doi/${doiPath(newest)}/`, 302);
      throw notFound('No dataset has this DOI.');
    }
    if (negotiated) return sendCitationFile(request, reply, ctx.services.citation.fileFor(resolved.dataset, negotiated), 'negotiated');
    if (!pageAllowed) throw serverError('The model tools module is not enabled, so the dataset page cannot be built.');
    const user = request.user;
    countOnSuccess(request, (cookie) => datasets().recordView(resolved.dataset.id, user?.id ?? null, cookie));
    return renderDataset(reply, resolved.dataset, user?.id === resolved.dataset.userId, keepAs);
  });

  app.get('/dataset/unsynchronized/:id', async (request, reply) => {
    const id = parseId((request.params as { id: string }).id);
    if (id === undefined) throw notFound('No such dataset.');
    return reply.redirect(`/dataset/unsynchronized/${id}/`, 301);
  });

  app.get('/dataset/unsynchronized/:id/', { config: { loginRequired: true } }, async (request, reply) => {
    const id = parseId((request.params as { id: string }).id);
    // Another user's dataset answers exactly like a missing one (decisions section 4).
    const dataset = id === undefined ? undefined : await datasets().getUnsynchronized(id, request.user!.id);
    if (!dataset) throw notFound('No such dataset among your unsynchronized datasets.');
    return renderDataset(reply, dataset, true);
  });

  // ---- the zip -------------------------------------------------------------------------------------

  // Streamed to the client as it is built, from the stored files: memory does not grow with the
  // dataset and nothing half-written is left behind (the specification's temporary folder is not used).
  app.get('/dataset/download/:id', { onSend: recordWhenBuilt('download_cookie') }, async (request, reply) => {
    const id = parseId((request.params as { id: string }).id);
    if (id === undefined) throw notFound('No such dataset.');
    const user = request.user;
    const zip = await datasets().zipContents(id, user?.id ?? null);
    const archive = new ZipArchive({ zlib: { level: 6 } });
    archive.on('warning', (error) => request.log.warn({ err: error }, 'zip warning'));
    archive.on('error', (error) => {
      request.log.error({ err: error, datasetId: id }, 'the zip could not be completed');
      reply.raw.destroy(error);
    });
    for (const file of zip.files) archive.append(lazyStream(file.open, `The stored file ${file.name}`), { name: `${zip.root}/${file.name}` });
    archive.finalize().catch(() => { /* reported through the error event */ });
    countOnSuccess(request, (cookie) => datasets().recordDownload(id, user?.id ?? null, cookie));
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="dataset_${id}.zip"`)
      .header('cache-control', 'no-store')
      .send(archive);
  });
}
