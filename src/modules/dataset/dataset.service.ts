// Dataset service (specification, dataset; decisions section 4): the operations other modules
// and the routes call, each an exported function of its room taking the dataset's dependencies
// (dataset.deps.ts) first; here they are given those dependencies once. It never sees the
// request or the session.
import type { ModuleContext } from '../../core/modules.ts';
import { bindOperations } from '../../core/operations.ts';
import { createDatasetDeps, type DatasetServiceOptions } from './dataset.deps.ts';
import { deleteStagedFile, listStagedFiles, stageFile } from './staging/staged-files.ts';
import { createFromFiles, upload } from './publication/upload.ts';
import {
  counts, doiPageState, getUnsynchronized, mapDoi, recordDownload, recordView, resolveDoi, zipContents,
} from './pages/dataset.doi.ts';
import { monthlyActivity, unpublishedDatasetIds } from './dataset.statistics.ts';
import {
  allDatasetIds, allDatasetRevisions, getOwnerRef, getSearchDocuments, hasData, latestSynchronized, listOwnDatasets,
  listSearchResults, listUserDatasets, statistics,
} from './pages/dataset.listings.ts';
import { addFile, apiCreate, apiDelete, apiGet, apiList, publish, removeFile } from './rest/dataset.rest.ts';
import { apiUpdate, deleteOwn, edit, editable, history, publishOwn } from './lifecycle/dataset.edit.ts';
import {
  createUnsynchronizedVersion, draftOf, navigation, newestByConceptDoi, previousDeposition, recordConceptDoi, restFields,
  startNewVersion, uploadVersion,
} from './lifecycle/dataset.versions.ts';
import { compareVersions } from './lifecycle/dataset.compare.ts';
import { StagingError } from './staging/staging.ts';
import { importUrl, importUrlToDataset } from './staging/url-import.ts';
import { depositRecord } from './publication/record-deposit.ts';
import { summaries } from './pages/dataset.parts.ts';
import { harvestByDoi, harvestCount, harvestPage } from './pages/dataset.harvest.ts';

// The shapes and addresses live in dataset.types.ts; importers of the service keep finding them here.
export * from './dataset.types.ts';
export type { DatasetServiceOptions } from './dataset.deps.ts';

export function createDatasetService(ctx: ModuleContext, options: DatasetServiceOptions = {}) {
  const d = createDatasetDeps(ctx, options);
  return {
    stagingFolder: (userId: number) => d.staging.folderOf(userId),
    /** Conversion reports and checks of staged files actually made, not answered from memory (tests). */
    stagedWorkDone: () => ({ ...d.stagedChecks.made }),
    /** Deletes this instance's row when the app closes: claims it left are free at once. */
    stopStaging: () => d.instances.stop(),
    versions: bindOperations(d, {
      navigation, restFields, newestByConceptDoi, startNewVersion, draftOf, uploadVersion, createUnsynchronizedVersion,
      previousDeposition, recordConceptDoi,
    }),
    ...bindOperations(d, {
      compareVersions,
      // staging (decisions section 4)
      stageFile, deleteStagedFile, listStagedFiles,
      // import from a URL (extensions section 13)
      importUrl, importUrlToDataset,
      // a collection's deposit (extensions section 13)
      depositRecord,
      // the upload and the seeders' datasets
      upload, createFromFiles,
      // the DOI page, the owner's pages and the landing page
      resolveDoi, getUnsynchronized, counts, zipContents, recordView, recordDownload, doiPageState, mapDoi,
      listUserDatasets, listOwnDatasets, getOwnerRef, statistics, latestSynchronized, hasData,
      // explore (service contract)
      getSearchDocuments, listSearchResults, allDatasetIds, allDatasetRevisions,
      // the OAI-PMH harvest (extensions section 13)
      harvestPage, harvestCount, harvestByDoi,
      // the REST resource and the API's write flow
      apiList, apiGet, apiCreate, apiDelete, addFile, removeFile, publish,
      // editing, the API's PUT, the owner's publish and delete pages
      editable, edit, history, apiUpdate, publishOwn, deleteOwn,
    }),
    // the statistics module (extensions section 8) and the cart's list and citations
    unpublishedDatasetIds,
    monthlyActivity: () => monthlyActivity(ctx.db),
    summariesOf: (datasetIds: number[]) => summaries(d, datasetIds),
  };
}

export type DatasetService = ReturnType<typeof createDatasetService>;
export { StagingError };
