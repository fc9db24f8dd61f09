import { defineModule } from '../../core/modules.ts';
import { projectPath } from '../../core/config.ts';
import { createEditorService } from './editor.service.ts';
import { editorRoutes } from './editor.routes.ts';

// The model editor (extensions section 12). It opens stored models through hubfile, saves drafts
// and new versions through dataset, and draws with the model module's diagram (bundled for the
// browser from the same source).
export const editorModule = defineModule({
  name: 'editor',
  requires: ['auth', 'dataset', 'hubfile', 'model'],
  createService: (ctx) => createEditorService(ctx),
  routes: editorRoutes,
  assets: projectPath('src/modules/editor/assets'),
});
