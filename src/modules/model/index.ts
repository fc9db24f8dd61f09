// The model module's public face: the only file other modules import.
import type { ModelService } from './model.service.ts';

export type { ModelService, ModelPageData } from './model.service.ts';
export { renderDiagram, parseDiagramQuery, DiagramQueryError, COLLAPSE_THRESHOLD, COLLAPSED_DEPTH } from './diagram.ts';
// The review module's anonymous model page shows the same facts (issue 37, item 10).
export { factLabel, type FactLabel } from './fact-label.ts';

/** Where a file's model page lives (the DOI page links it for every file). */
export const modelHref = (fileId: number) => `/model/${fileId}/`;

declare module '../../core/modules.ts' {
  interface ServiceRegistry {
    model: ModelService;
  }
}
