import { defineModule } from '../../core/modules.ts';
import { createMailService } from './mail.service.ts';
import './index.ts';

// A module rather than core: core holds no business rule, and only the accounts need mail today.
export const mailModule = defineModule({
  name: 'mail',
  requires: [],
  createService: (ctx) => createMailService(ctx),
  setup: (app, ctx) => {
    app.addHook('onClose', async () => { ctx.services.mail.close(); });
  },
});
