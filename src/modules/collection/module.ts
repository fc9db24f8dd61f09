import { defineModule } from '../../core/modules.ts';
import { createCollectionService } from './collection.service.ts';
import { collectionRoutes } from './collection.routes.ts';
import './collection.tables.ts';

// Collections (extensions section 13): models and whole datasets gathered by a user, with their
// facts, citations and one zip (the cart's), publishable with a DOI. Files, datasets and feature
// models come from their modules' services; analysis and citation are used when enabled.
export const collectionModule = defineModule({
  name: 'collection',
  requires: ['dataset', 'featuremodel', 'hubfile', 'modeltool', 'cart'],
  createService: (ctx) => createCollectionService(ctx),
  routes: collectionRoutes,
  nav: { label: 'Collections', path: '/collections', order: 45, icon: 'collection' },
});
