// The orcid module's public face: the only file other modules import.
import type { OrcidService } from './orcid.service.ts';

export type { OrcidService, OrcidStatus } from './orcid.service.ts';

declare module '../../core/modules.ts' {
  interface ServiceRegistry {
    orcid: OrcidService;
  }
}
