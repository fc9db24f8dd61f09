import { defineModule } from '../../core/modules.ts';
import { projectPath } from '../../core/config.ts';
import { DOI_PAGE_EXTENSIONS, type DoiPageExtensions } from '../dataset/index.ts';
import { createCitationService } from './citation.service.ts';
import { doiPageCitations } from './citation.http.ts';

// Citation formats, signposting and the DOI page's citation box (extensions section 2). The DOI
// route is the dataset module's (`/doi/*`): this module puts its part of the page in the page's
// extension point when the DOI routes open (dataset never imports citation, which requires it), so
// citation has no routes of its own. Datasets are read through the dataset service.
export const citationModule = defineModule({
  name: 'citation',
  requires: ['dataset'],
  createService: (ctx) => {
    const service = createCitationService(ctx);
    ctx.events.on(DOI_PAGE_EXTENSIONS, (page: DoiPageExtensions) => page.useCitations(doiPageCitations(service)));
    return service;
  },
  assets: projectPath('src/modules/citation/assets'),
  scripts: ['js/citation.js'],
});
