// Routes of dataset versions (extensions section 2): the new-version action of a DOI page and the
// comparison of two versions of one dataset.
import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '../../../core/modules.ts';
import { notFound } from '../../../core/http/errors.ts';
import { withQueryOf } from '../../../core/http/canonical-address.ts';
import { parseId } from '../dataset.http.ts';

export async function datasetVersionRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const datasets = () => ctx.services.dataset;

  // Copies of the files go to the owner's staging area; the upload page carries version_of.
  app.post('/dataset/:id/new-version', { config: { loginRequired: true } }, async (request, reply) => {
    const id = parseId((request.params as { id: string }).id);
    if (id === undefined) throw notFound('No such dataset.');
    await datasets().versions.startNewVersion(id, request.user!.id);
    return reply.redirect(`/dataset/upload?version_of=${id}`, 302);
  });

  app.get('/dataset/:id/compare/:other', async (request, reply) => {
    const params = request.params as { id: string; other: string };
    const id = parseId(params.id);
    const other = parseId(params.other);
    if (id === undefined || other === undefined) throw notFound('No such dataset.');
    return reply.redirect(withQueryOf(request.url, `/dataset/${id}/compare/${other}/`), 301);
  });

  app.get('/dataset/:id/compare/:other/', async (request, reply) => {
    const params = request.params as { id: string; other: string };
    const id = parseId(params.id);
    const other = parseId(params.other);
    if (id === undefined || other === undefined) throw notFound('These are not two versions of one dataset that you can see.');
    const comparison = await datasets().compareVersions(id, other, request.user?.id ?? null);
    return reply.page('dataset/views/compare.njk', {
      title: `Changes from version ${comparison.before.version} to ${comparison.after.version}: ${comparison.after.title}`,
      ...comparison,
      editClassLabels: EDIT_CLASS_LABELS,
      pending: comparison.models.some((m) => m.editClass === 'pending'),
    });
  });

  // What the page asks while edit classes are being decided: each changed model's class, after
  // waiting a moment for those still pending (the page asks again while any is).
  app.get('/dataset/:id/compare/:other/edit-classes.json', async (request) => {
    const params = request.params as { id: string; other: string };
    const id = parseId(params.id);
    const other = parseId(params.other);
    if (id === undefined || other === undefined) throw notFound('These are not two versions of one dataset that you can see.');
    const comparison = await datasets().compareVersions(id, other, request.user?.id ?? null, POLL_WAIT_MS);
    const models = comparison.models.filter((m) => m.editClass !== null)
      .map((m) => ({ name: m.name, edit_class: m.editClass, label: EDIT_CLASS_LABELS[m.editClass!] }));
    return { pending: models.some((m) => m.edit_class === 'pending'), models };
  });
}

/** How long one poll of the comparison page waits for classes still being decided. */
const POLL_WAIT_MS = 2_000;

/** How each edit class reads on the page (extensions section 2). */
const EDIT_CLASS_LABELS: Record<string, string> = {
  refactoring: 'refactoring (the same configurations)',
  generalization: 'generalization (the new configurations include the old ones)',
  specialization: 'specialization (the old configurations include the new ones)',
  arbitrary: 'arbitrary (neither includes the other)',
  unknown: 'not decided (the time budget ran out)',
  invalid: 'not decided (a version cannot be read on its own, e.g. it imports other files)',
  unavailable: 'not decided (the analysis module is not enabled)',
  pending: 'being decided…',
};
