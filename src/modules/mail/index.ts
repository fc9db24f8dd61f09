// The mail module's public face: the only file other modules import.
import type { MailService } from './mail.service.ts';

export type { MailService, MailMessage } from './mail.service.ts';
export { composeMessage } from './compose.ts';

declare module '../../core/modules.ts' {
  interface ServiceRegistry {
    mail: MailService;
  }
}
