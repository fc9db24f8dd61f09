// The dataset module's public face: the only file other modules import.
import type { DatasetService } from './dataset.service.ts';

export type { DatasetService, DatasetListItem, DatasetSummary, StagedCheck, UploadOutcome } from './dataset.service.ts';
export type { MonthlyActivity } from './dataset.statistics.ts';
export { datasetHref, doiPath } from './dataset.service.ts';
export { PUBLICATION_TYPES, isPublicationType, publicationTypeLabel } from './publication-types.ts';
export { normalizeTags, splitTags } from './upload-form.ts';
export { DEFAULT_LICENSE, licenseLabel, licenseUrl } from './licenses.ts';
export type { HarvestedDataset, HarvestKey, HarvestWindow } from './pages/dataset.harvest.ts';

declare module '../../core/modules.ts' {
  interface ServiceRegistry {
    dataset: DatasetService;
  }
}
