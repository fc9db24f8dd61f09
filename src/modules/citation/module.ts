import { defineModule } from '../../core/modules.ts';
import { projectPath } from '../../core/config.ts';
import { createCitationService } from './citation.service.ts';

// Citation formats, signposting and the DOI page's citation box (extensions section 2). The DOI
// route is the dataset module's (`/doi/*`); it asks this module's service when it is enabled, so
// citation has no routes of its own. Datasets are read through the dataset service.
export const citationModule = defineModule({
  name: 'citation',
  requires: ['dataset'],
  createService: (ctx) => createCitationService(ctx),
  assets: projectPath('src/modules/citation/assets'),
  scripts: ['js/citation.js'],
});
