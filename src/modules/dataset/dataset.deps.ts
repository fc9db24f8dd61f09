// What the dataset service's operations work with, passed to each of them explicitly: the module
// context, the two staging areas, the deposit loader and the caches that live as long as the service.
import * as repo from './dataset.repository.ts';
import type { ModuleContext } from '../../core/modules.ts';
import type { Config } from '../../core/config.ts';
import { claimLedger } from './staging/staging.repository.ts';
import { StagingArea } from './staging/staging.ts';
import { StagingInstances } from './staging/instances.ts';
import { StagedChecks } from './staging/staged-checks.ts';
import { checkOff } from './staging/check-in-worker.ts';
import { CompareModels } from './lifecycle/compare-models.ts';
import { DatasetParts } from './pages/dataset.parts.ts';
import { VisitRecords } from './pages/visit-records.ts';
import { DoiPageStates } from './pages/doi-page-states.ts';
import { doiPath } from './dataset.types.ts';

export type DepositModule = typeof import('./deposit/index.ts');

/** Named points of an operation where a race test puts another request's step (see `step`). */
export type DatasetStep = 'version:failed-before-removal';

export interface DatasetServiceOptions {
  /** How the deposit module is reached; tests replace it to prove that only the upload depends on it. */
  loadDeposit?: () => Promise<DepositModule>;
  /** Awaited at each named step; race tests run another request there (by default nothing waits). */
  step?: (name: DatasetStep, datasetId: number) => Promise<void>;
}

export interface DatasetDeps {
  ctx: ModuleContext;
  /** The deposit client, loaded only when a dataset is pushed or its deposit updated (coupling rule 6). */
  loadDeposit: () => Promise<DepositModule>;
  /** Race tests' hook at named steps (DatasetServiceOptions.step); resolves at once otherwise. */
  step: (name: DatasetStep, datasetId: number) => Promise<void>;
  /** This instance in the claims of staged files, and which others are gone; stopped when the app closes. */
  instances: StagingInstances;
  /** The browser's staging area. */
  staging: StagingArea;
  /** Files sent to the API pass through a staging area of their own (same checks and limits). */
  apiStaging: StagingArea;
  /** The staged files' checks, remembered by content (the upload page lists them on every visit). */
  stagedChecks: StagedChecks;
  /** The comparison page's reading of each model text, remembered by content. */
  compareModels: CompareModels;
  parts: DatasetParts;
  records: VisitRecords;
  pageStates: DoiPageStates;
}

export function createDatasetDeps(ctx: ModuleContext, options: DatasetServiceOptions = {}): DatasetDeps {
  // One ledger in the database for both areas: it decides which upload takes a staged file.
  const instances = new StagingInstances(ctx.db);
  const ledger = claimLedger(ctx.db, instances);
  return {
    ctx,
    instances,
    loadDeposit: options.loadDeposit ?? (() => import('./deposit/index.ts')),
    step: options.step ?? (() => Promise.resolve()),
    staging: new StagingArea(ctx.store, ledger, ctx.scheduler, ctx.config.maxFeatures),
    apiStaging: new StagingArea(ctx.store, ledger, ctx.scheduler, ctx.config.maxFeatures, 'temp/.api/'),
    stagedChecks: new StagedChecks((bytes, requester, background) => checkOff(ctx.scheduler, requester, bytes, background)),
    compareModels: new CompareModels(),
    parts: new DatasetParts(),
    records: new VisitRecords(ctx.db),
    pageStates: new DoiPageStates(ctx.db),
  };
}

/** The built-in fake deposit's DOIs (deposit/fake-deposit.ts, not imported: rule 6). */
export const FAKE_DOI_PREFIX = '10.1234/fakenodo.';

/** The public DOI URL `http://<DOMAIN>/doi/<doi>`. */
export function publicUrl(config: Config, doi: string): string {
  return `http://${config.domain}/doi/${doiPath(doi)}`;
}

/** Every write of a dataset's searchable content: raise its revision, then tell the search index. */
export async function contentChanged(d: DatasetDeps, datasetId: number): Promise<void> {
  await repo.bumpRevision(d.ctx.db, datasetId);
  await d.ctx.events.emit('dataset.saved', { datasetId });
}
