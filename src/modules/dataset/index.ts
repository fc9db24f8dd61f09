// The dataset module's public face: the only file other modules import.
import type { DatasetService } from './dataset.service.ts';

export type { DatasetService, DatasetListItem, DatasetSummary, StagedCheck, UploadOutcome } from './dataset.service.ts';
export type { RelatedIdentifier } from './staging/import-sources.ts';
export type { MonthlyActivity } from './dataset.statistics.ts';
export type { RecordDepositRequest, RecordDepositOutcome } from './publication/record-deposit.ts';
export { datasetHref, doiPath, StagingError } from './dataset.service.ts';
export { DEFAULT_LICENSE, licenseLabel, licenseUrl } from './licenses.ts';
// The DOI page's extension point: the citation module adds its part through it (no import back).
export { DOI_PAGE_EXTENSIONS, type DoiPageCitations, type DoiPageExtensions } from './pages/doi-page.extensions.ts';
export type { HarvestedDataset, HarvestKey, HarvestWindow } from './pages/dataset.harvest.ts';

declare module '../../core/modules.ts' {
  interface ServiceRegistry {
    dataset: DatasetService;
  }
}
