// The citation module's public face: the only file other modules import.
import type { CitationService } from './citation.service.ts';

export type { CitationService, CitationBox, ExportAnswer } from './citation.service.ts';
export type { CitationFormat } from './citation.formats.ts';

declare module '../../core/modules.ts' {
  interface ServiceRegistry {
    citation: CitationService;
  }
}
