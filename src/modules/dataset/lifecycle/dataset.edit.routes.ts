// The owner's pages for one dataset (extensions section 2): edit its metadata, and for an
// unsynchronized dataset publish it again or delete it. Anyone but the owner gets 404.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ModuleContext } from '../../../core/modules.ts';
import { HttpError, notFound } from '../../../core/http/errors.ts';
import { flash } from '../../../core/http/context.ts';
import type { FieldErrors } from '../../../core/http/forms.ts';
import { PUBLICATION_TYPES } from '../../../core/publication-types.ts';
import { LICENSES } from '../licenses.ts';
import { metadataOf } from './dataset.edit.ts';
import { parseId, uploadFields } from '../dataset.http.ts';
import type { DatasetService, DatasetSummary } from '../dataset.service.ts';

interface AuthorValues { index: number; name: string; affiliation: string; orcid: string }

/** The form's values: the fields' names of the upload form, authors with the index they were posted under. */
interface EditValues {
  title: string;
  desc: string;
  publication_type: string;
  publication_doi: string;
  tags: string;
  license: string;
  authors: AuthorValues[];
}

function storedValues(dataset: DatasetSummary): EditValues {
  const m = metadataOf(dataset);
  return {
    title: m.title, desc: m.description, publication_type: m.publicationType, publication_doi: m.publicationDoi ?? '',
    tags: m.tags ?? '', license: m.license,
    authors: m.authors.map((a, index) => ({ index, name: a.name, affiliation: a.affiliation ?? '', orcid: a.orcid ?? '' })),
  };
}

/** What was posted, shown again with its errors; author rows keep their index so the errors point at them. */
function postedValues(fields: Record<string, string>): EditValues {
  const rows = new Map<number, AuthorValues>();
  for (const [key, value] of Object.entries(fields)) {
    const match = /^authors-(\d{1,6})-(name|affiliation|orcid)$/.exec(key);
    if (!match) continue;
    const index = Number(match[1]);
    const row = rows.get(index) ?? { index, name: '', affiliation: '', orcid: '' };
    row[match[2] as 'name' | 'affiliation' | 'orcid'] = value;
    rows.set(index, row);
  }
  return {
    title: fields.title ?? '', desc: fields.desc ?? '', publication_type: fields.publication_type ?? '',
    publication_doi: fields.publication_doi ?? '', tags: fields.tags ?? '', license: fields.license ?? '',
    authors: [...rows.values()].sort((a, b) => a.index - b.index),
  };
}

export async function datasetEditRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const datasets = () => ctx.services.dataset;

  const idOf = (request: FastifyRequest): number => {
    const id = parseId((request.params as { id: string }).id);
    if (id === undefined) throw notFound('No such dataset among yours.', { message: 'DataSet not found' });
    return id;
  };

  function editPage(reply: FastifyReply, dataset: DatasetSummary, values: EditValues, errors: FieldErrors, failure: string | null) {
    return reply.page('dataset/views/edit.njk', {
      title: `Edit ${dataset.title}`,
      dataset,
      values,
      errors,
      failure,
      publicationTypes: PUBLICATION_TYPES,
      licenses: LICENSES,
      // The next free author index, for rows the page's script adds.
      nextAuthor: values.authors.reduce((max, a) => Math.max(max, a.index + 1), 0),
    });
  }

  app.get('/dataset/:id/edit', { config: { loginRequired: true } }, async (request, reply) => {
    const dataset = await datasets().editable(idOf(request), request.user!.id);
    return editPage(reply, dataset, storedValues(dataset), {}, null);
  });

  app.post('/dataset/:id/edit', { config: { loginRequired: true, csrfInMultipart: true } }, async (request, reply) => {
    const id = idOf(request);
    const fields = await uploadFields(request);
    let outcome: Awaited<ReturnType<DatasetService['edit']>>;
    try {
      outcome = await datasets().edit(id, request.user!.id, fields);
    } catch (error) {
      // A publish of the dataset under way (409): the form comes back as posted, with the reason.
      if (!(error instanceof HttpError) || error.status !== 409) throw error;
      const dataset = await datasets().editable(id, request.user!.id);
      reply.code(409);
      return editPage(reply, dataset, postedValues(fields), {}, error.message);
    }
    if (outcome.status === 'invalid' || outcome.status === 'deposit_failed') {
      const dataset = await datasets().editable(id, request.user!.id);
      // 400 for the form's own mistakes; 502 when the deposit repository failed (nothing changed).
      reply.code(outcome.status === 'invalid' ? 400 : 502);
      return editPage(reply, dataset, postedValues(fields), outcome.status === 'invalid' ? outcome.errors : {},
        outcome.status === 'deposit_failed' ? outcome.message : null);
    }
    const dataset = await datasets().editable(id, request.user!.id);
    if (outcome.status === 'unchanged') flash(request, 'info', 'Nothing was changed.');
    else flash(request, 'success', `Saved. Changed: ${outcome.labels.join(', ')}.${dataset.synchronized && dataset.depositionId !== null ? ' The deposit was updated; the DOI stays the same.' : ''}`);
    return reply.redirect(dataset.href, 302);
  });

  // The upload's JSON answer (decisions section 4); the page's script follows it.
  app.post('/dataset/:id/publish', { config: { loginRequired: true, json: true } }, async (request) => {
    const outcome = await datasets().publishOwn(idOf(request), request.user!.id);
    if (outcome.status === 'partial') {
      flash(request, 'warning', outcome.message);
      return { status: 'partial', dataset_id: outcome.datasetId, message: outcome.message };
    }
    flash(request, 'success', `Dataset published with DOI ${outcome.doi}.`);
    return { status: 'ok', dataset_id: outcome.datasetId, doi: outcome.doi, url: outcome.url };
  });

  app.post('/dataset/:id/delete', { config: { loginRequired: true } }, async (request, reply) => {
    const id = idOf(request);
    const dataset = await datasets().editable(id, request.user!.id);
    await datasets().deleteOwn(id, request.user!.id);
    flash(request, 'success', `The dataset "${dataset.title}" was deleted, with its files.`);
    return reply.redirect('/dataset/list', 302);
  });
}
