import { defineModule } from '../../core/modules.ts';
import { DOI_PAGE_EXTENSIONS, type DoiPageExtensions } from '../dataset/index.ts';
import { createCollectionService } from './collection.service.ts';
import { collectionRoutes } from './collection.routes.ts';
import './collection.tables.ts';

// Collections (extensions section 13): models and whole datasets gathered by a user, with their
// facts, citations and one zip (the cart's), publishable with a DOI. Files, datasets and feature
// models come from their modules' services; analysis and citation are used when enabled.
export const collectionModule = defineModule({
  name: 'collection',
  requires: ['dataset', 'featuremodel', 'hubfile', 'modeltool', 'cart'],
  createService: (ctx) => {
    const service = createCollectionService(ctx);
    // `/doi/<doi>/` is the dataset module's route: a published collection's DOI leads from there to its page.
    ctx.events.on(DOI_PAGE_EXTENSIONS, (page: DoiPageExtensions) => page.addLanding((doi) => service.landingOf(doi)));
    return service;
  },
  routes: collectionRoutes,
  nav: { label: 'Collections', path: '/collections', order: 45, icon: 'collection' },
});
