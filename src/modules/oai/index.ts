// The oai module's public face: the only file other modules import.
import type { OaiService } from './oai.service.ts';

export type { OaiService } from './oai.service.ts';
export type { ItemSource, HarvestItem } from './oai.sources.ts';
export type { ItemMetadata } from './oai.metadata.ts';

declare module '../../core/modules.ts' {
  interface ServiceRegistry {
    oai: OaiService;
  }
}
