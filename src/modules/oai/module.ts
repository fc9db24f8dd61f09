import { defineModule } from '../../core/modules.ts';
import { createOaiService } from './oai.service.ts';
import { oaiRoutes } from './oai.routes.ts';

// OAI-PMH 2.0 for harvesters and the DataCite XML export (extensions section 13). Published
// datasets are read through the dataset service; published collections through the collection
// service when that module is enabled (asked, not required).
export const oaiModule = defineModule({
  name: 'oai',
  requires: ['dataset'],
  createService: (ctx) => createOaiService(ctx),
  routes: oaiRoutes,
});
