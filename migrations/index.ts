// One migration history for every dialect, in order. Never edit a migration after it landed.
import type { Migration } from 'kysely';
import * as initialSchema from './2026_11_22_0001_initial_schema.ts';
import * as exploreSearch from './2026_11_22_0010_explore_search.ts';
import * as modelAnalysis from './2026_11_23_0020_model_analysis.ts';
import * as searchRevision from './2026_11_23_0020_search_revision.ts';
import * as apiTokens from './2026_11_23_1300_api_tokens.ts';
import * as accountTokens from './2026_11_23_1830_account_tokens.ts';
import * as exploreReindexDois from './2026_11_23_1840_explore_reindex_dois.ts';
import * as datasetRecordCounts from './2026_11_24_0010_dataset_record_counts.ts';
import * as datasetLicense from './2026_11_24_0100_dataset_license.ts';
import * as datasetEditHistory from './2026_11_24_0101_dataset_edit_history.ts';
import * as datasetVersions from './2026_11_24_0200_dataset_versions.ts';
import * as recordCountTriggers from './2026_11_24_0300_record_count_triggers.ts';
import * as stagedClaims from './2026_11_25_0100_staged_claims.ts';
import * as cart from './2026_11_27_0100_cart.ts';
import * as orcidAccount from './2026_11_27_0200_orcid_account.ts';
import * as reviewLinks from './2026_11_27_0300_review_links.ts';
import * as depositClaimsAndFileNames from './2026_11_27_1000_deposit_claims_and_file_names.ts';
import * as fileOriginal from './2026_11_27_1000_file_original.ts';
import * as modelSamples from './2026_11_27_1100_model_samples.ts';
import * as stagedClaimSaved from './2026_11_27_1300_staged_claim_saved.ts';
import * as pendingDeposition from './2026_11_27_1600_pending_deposition.ts';
import * as orcidClaim from './2026_12_05_0400_orcid_claim.ts';
import * as modelSampleStored from './2026_12_05_0420_model_sample_stored.ts';
import * as compileFailures from './2026_12_05_0410_compile_failures.ts';
import * as stagingInstances from './2026_12_05_0440_staging_instances.ts';
import * as sharedConfigurations from './2026_12_05_0445_shared_configurations.ts';
import * as collections from './2026_12_05_0430_collections.ts';
import * as sampleStoreBound from './2026_12_05_0450_sample_store_bound.ts';
import * as collectionOneNextVersion from './2026_12_05_0460_collection_one_next_version.ts';
import * as datasetPublishedAt from './2026_12_06_0100_dataset_published_at.ts';
import * as userEmailBinary from './2026_12_06_0200_user_email_binary.ts';

export const migrations: Record<string, Migration> = {
  '2026_11_22_0001_initial_schema': initialSchema,
  '2026_11_22_0010_explore_search': exploreSearch,
  '2026_11_23_0020_model_analysis': modelAnalysis,
  '2026_11_23_0020_search_revision': searchRevision,
  '2026_11_23_1300_api_tokens': apiTokens,
  '2026_11_23_1830_account_tokens': accountTokens,
  '2026_11_23_1840_explore_reindex_dois': exploreReindexDois,
  '2026_11_24_0010_dataset_record_counts': datasetRecordCounts,
  '2026_11_24_0100_dataset_license': datasetLicense,
  '2026_11_24_0101_dataset_edit_history': datasetEditHistory,
  '2026_11_24_0200_dataset_versions': datasetVersions,
  '2026_11_24_0300_record_count_triggers': recordCountTriggers,
  '2026_11_25_0100_staged_claims': stagedClaims,
  '2026_11_27_0100_cart': cart,
  '2026_11_27_0200_orcid_account': orcidAccount,
  '2026_11_27_0300_review_links': reviewLinks,
  '2026_11_27_1000_deposit_claims_and_file_names': depositClaimsAndFileNames,
  '2026_11_27_1000_file_original': fileOriginal,
  '2026_11_27_1100_model_samples': modelSamples,
  '2026_11_27_1300_staged_claim_saved': stagedClaimSaved,
  '2026_11_27_1600_pending_deposition': pendingDeposition,
  '2026_12_05_0400_orcid_claim': orcidClaim,
  '2026_12_05_0420_model_sample_stored': modelSampleStored,
  '2026_12_05_0410_compile_failures': compileFailures,
  '2026_12_05_0440_staging_instances': stagingInstances,
  '2026_12_05_0445_shared_configurations': sharedConfigurations,
  '2026_12_05_0430_collections': collections,
  '2026_12_05_0450_sample_store_bound': sampleStoreBound,
  '2026_12_05_0460_collection_one_next_version': collectionOneNextVersion,
  '2026_12_06_0100_dataset_published_at': datasetPublishedAt,
  '2026_12_06_0200_user_email_binary': userEmailBinary,
};
