// The upload page and its submission (specification, dataset; decisions section 4).
import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '../../../core/modules.ts';
import { flash } from '../../../core/http/context.ts';
import { PUBLICATION_TYPES } from '../../../core/publication-types.ts';
import { LICENSES } from '../licenses.ts';
import { MAX_FEATURE_MODELS } from '../upload-form.ts';
import { parseId, uploadFields } from '../dataset.http.ts';

export async function uploadRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const datasets = () => ctx.services.dataset;

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
      // The page stages as many files at once as its checks may hold jobs (extensions section 10).
      stagingAtOnce: ctx.scheduler.backgroundShare,
    });
  });

  app.post('/dataset/upload', { config: { loginRequired: true, json: true, csrfInMultipart: true } }, async (request, reply) => {
    const outcome = await datasets().upload(request.user!.id, await uploadFields(request));
    if (outcome.status === 'invalid') return reply.code(400).send({ errors: outcome.errors });
    // A new version the deposit refused: nothing was saved (dataset.versions.ts), so no dataset_id.
    if (outcome.status === 'failed') return reply.code(502).send({ errors: { version_of: [outcome.message] } });
    if (outcome.status === 'draft') {
      flash(request, 'success', 'Draft saved: nothing is deposited and it has no DOI until you publish it. Only you can see it.');
      return { status: 'draft', dataset_id: outcome.datasetId, url: outcome.href };
    }
    if (outcome.status === 'partial') {
      flash(request, 'warning', outcome.message);
      return { status: 'partial', dataset_id: outcome.datasetId, message: outcome.message };
    }
    flash(request, 'success', `Dataset published with DOI ${outcome.doi}.`);
    return { status: 'ok', dataset_id: outcome.datasetId, doi: outcome.doi, url: outcome.url };
  });
}
