import { defineModule } from '../../core/modules.ts';
import { projectPath } from '../../core/config.ts';
import { createReviewService } from './review.service.ts';
import { reviewRoutes } from './review.routes.ts';
import './review.tables.ts';

// Review links for double-blind review (extensions section 8). Datasets and files are read through
// the dataset and hubfile services; the reviewer's page is this module's own, built from an
// anonymous view that carries no person.
export const reviewModule = defineModule({
  name: 'review',
  requires: ['dataset', 'hubfile', 'model', 'modeltool'],
  createService: (ctx) => createReviewService(ctx),
  routes: reviewRoutes,
  // The owner's page's Copy button (views/links.njk includes it only with a new link).
  assets: projectPath('src/modules/review/assets'),
  // The owner's actions (a dataset module view) offer "Review links" when this module is enabled.
  setup: (app) => {
    app.addHook('onRequest', (_request, reply, done) => {
      const withLocals = reply as unknown as { locals: Record<string, unknown> | null };
      withLocals.locals = { ...withLocals.locals, reviewLinks: true };
      done();
    });
  },
});
