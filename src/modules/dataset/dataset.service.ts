// Dataset service (specification, dataset; decisions section 4): staging, the upload
// transaction, the push to the deposit repository, pages' data, metrics, and what explore and
// the landing page read (the REST resource is dataset.rest.ts, its shapes dataset.types.ts). It never sees the request or the session.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { buffer as streamBytes } from 'node:stream/consumers';
import type { FieldErrors } from '../../core/http/forms.ts';
import { notFound } from '../../core/http/errors.ts';
import { humanSize } from '../../core/http/filters.ts';
import { nowIso } from '../../core/db/database.ts';
import { changeStamp, isUniqueViolation, type DbOrTrx } from '../../core/db/connect.ts';
import { groupCommit } from '../../core/db/group-commit.ts';
import { LruMap } from '../../core/lru-map.ts';
import type { ModuleContext } from '../../core/modules.ts';
import * as repo from './dataset.repository.ts';
import type { ObjectPlacement } from '../../core/storage/index.ts';
import { restDataset, searchResult } from './dataset.presenter.ts';
import type { FeatureModelView } from '../featuremodel/index.ts';
import { publicationTypeLabel } from './publication-types.ts';
import { claimLedger } from './staging.repository.ts';
import { createStaging, StagingError, type Claim, type StagedFile } from './staging.ts';
import { createDatasetVersions, type VersionUploadOutcome } from './dataset.versions.ts';
import { createComparison } from './dataset.compare.ts';
import { checkModelText } from './model-check.ts';
import {
  readUploadForm, splitTags,
  type AuthorInput, type FeatureModelInput, type MetadataInput, type UploadInput,
} from './upload-form.ts';
import { DEFAULT_LICENSE } from './licenses.ts';
import { createDatasetEditing, depositRequest } from './dataset.edit.ts';
import { createDatasetRest } from './dataset.rest.ts';
import { monthlyActivity, unpublishedDatasetIds } from './dataset.statistics.ts';
import {
  datasetHref, doiPath,
  type DatasetListItem, type DatasetSummary, type DoiResolution, type ModelOrigin, type PreparedModel, type StagedCheck, type UploadOutcome,
} from './dataset.types.ts';

// The shapes and addresses moved to dataset.types.ts; importers of the service keep finding them here.
export * from './dataset.types.ts';

type DepositModule = typeof import('../deposit/index.ts');

export interface DatasetServiceOptions {
  /** How the deposit module is reached; tests replace it to prove that only the upload depends on it. */
  loadDeposit?: () => Promise<DepositModule>;
}

/** The built-in fake deposit's DOIs (src/modules/deposit/fake-deposit.ts, not imported: rule 6). */
const FAKE_DOI_PREFIX = '10.1234/fakenodo.';
const DOI_PATTERN = /^10\.\d{4,9}\/\S+$/;

export function createDatasetService(ctx: ModuleContext, options: DatasetServiceOptions = {}) {
  const { db, config } = ctx;
  const loadDeposit = options.loadDeposit ?? (() => import('../deposit/index.ts'));
  // One ledger in the database for both areas: it decides which upload takes a staged file.
  const ledger = claimLedger(db);
  const staging = createStaging(ctx.store, ledger);
  // Files sent to the API pass through a staging area of their own (same checks and limits),
  // so they never mix with what the user staged in the browser.
  const apiStaging = createStaging(ctx.store, ledger, 'temp/.api/');

  const publicUrl = (doi: string) => `http://${config.domain}/doi/${doiPath(doi)}`;

  /**
   * `get_zenodo_url()`: the record page on the configured deposit repository, when both the DOI
   * and the deposition exist. DOIs of the built-in fake have no record anywhere, so no link.
   */
  function zenodoUrl(doi: string | null, depositionId: number | null): string | null {
    if (!doi || depositionId === null || doi.startsWith(FAKE_DOI_PREFIX)) return null;
    let origin = 'https://zenodo.org';
    if (config.zenodoApiUrl) {
      try { origin = new URL(config.zenodoApiUrl).origin; } catch { /* keep zenodo.org */ }
    }
    return `${origin}/records/${depositionId}`;
  }

  function summarize(row: repo.DatasetRow, authors: repo.AuthorRow[], models: FeatureModelView[]): DatasetSummary {
    const files = models.flatMap((m) => m.files);
    const totalSize = files.reduce((sum, f) => sum + Number(f.size), 0);
    return {
      id: row.id,
      userId: row.user_id,
      createdAt: row.created_at,
      title: row.title,
      description: row.description,
      publicationType: row.publication_type,
      publicationTypeLabel: publicationTypeLabel(row.publication_type),
      publicationDoi: row.publication_doi,
      doi: row.dataset_doi,
      depositionId: row.deposition_id,
      synchronized: row.dataset_doi !== null,
      tags: splitTags(row.tags),
      authors,
      license: row.license,
      numberOfModels: row.number_of_models,
      numberOfFeatures: row.number_of_features,
      featureModels: models,
      files,
      totalSize,
      totalSizeHuman: humanSize(totalSize),
      url: row.dataset_doi ? publicUrl(row.dataset_doi) : null,
      zenodoUrl: zenodoUrl(row.dataset_doi, row.deposition_id),
      downloadUrl: `http://${config.domain}/dataset/download/${row.id}`,
      href: datasetHref(row.id, row.dataset_doi),
      version: row.version_number,
      conceptId: row.concept_id,
      conceptDoi: row.concept_doi,
    };
  }

  /** Every write of a dataset's searchable content: raise its revision, then tell the search index. */
  async function contentChanged(datasetId: number): Promise<void> {
    await repo.bumpRevision(db, datasetId);
    await ctx.events.emit('dataset.saved', { datasetId });
  }

  /**
   * Records known to exist: the unique index makes a repeated one a no-op, so a returning
   * visitor's view need not reach the database. Records are never removed while their dataset
   * exists, and dataset ids are not reused, so a kept key never hides a record that is missing.
   */
  const knownRecords = new LruMap<string, true>(100_000);

  /**
   * DOI page states read while the database's change stamp (core/db/connect.ts) had the value
   * kept with them: while it has not moved, nothing was written anywhere, so the state (views
   * and downloads included) is the same and the query is skipped. Only SQLite has such a stamp.
   */
  const pageStates = new LruMap<string, { stamp: number; state: repo.DoiPageState | undefined }>(2000);

  /**
   * Without a stamp (PostgreSQL, MariaDB) each answer needs the query, but the requests read in
   * one turn of the event loop can share it: the query is sent once that turn is over, so it
   * starts after every request that joined it had arrived, and sees every write that came
   * before any of them. A request that comes once it has been sent waits for the next one.
   */
  const gatheringStates = new Map<string, Promise<repo.DoiPageState | undefined>>();
  function sharedPageState(doi: string): Promise<repo.DoiPageState | undefined> {
    let state = gatheringStates.get(doi);
    if (state === undefined) {
      state = new Promise((resolve, reject) => setImmediate(() => {
        gatheringStates.delete(doi);
        repo.doiPageState(db, doi).then(resolve, reject);
      }));
      gatheringStates.set(doi, state);
    }
    return state;
  }
  // Many first visits at once share their commits (core/db/group-commit.ts).
  const insertRecord = groupCommit(db, (db: DbOrTrx, r: { table: repo.RecordTable; values: Parameters<typeof repo.insertRecord>[2] }) => repo.insertRecord(db, r.table, r.values));

  async function recordOnce(table: repo.RecordTable, datasetId: number, userId: number | null, cookie: string): Promise<boolean> {
    const key = `${table}\n${datasetId}\n${userId ?? 0}\n${cookie}`;
    if (knownRecords.has(key)) return false;
    const added = await insertRecord({ table, values: { datasetId, userId, cookie, date: nowIso() } });
    knownRecords.set(key, true);
    return added;
  }

  /** Summaries in the order of `ids`, with a fixed number of queries whatever their count. */
  async function summaries(ids: number[]): Promise<DatasetSummary[]> {
    if (ids.length === 0) return [];
    return summariesOf(await repo.findByIds(db, ids), ids);
  }

  /**
   * A dataset's authors and feature models (with their authors and files), kept per dataset with
   * the revision they were read at. The dataset row itself is always read; its revision, raised
   * by every write of these parts (contentChanged), says whether the kept parts are still current,
   * so every instance sees another's writes at once. Least recently used first out.
   */
  const parts = new Map<number, { revision: number; authors: repo.AuthorRow[]; models: FeatureModelView[] }>();
  const PARTS_KEPT = 2000;

  async function summariesOf(rows: repo.DatasetRow[], ids: number[]): Promise<DatasetSummary[]> {
    const missing = rows.filter((r) => parts.get(r.id)?.revision !== r.revision);
    if (missing.length > 0) {
      const [authors, models] = await Promise.all([
        repo.authorsByMetaIds(db, missing.map((r) => r.meta_id)),
        ctx.services.featuremodel.listByDatasets(missing.map((r) => r.id)),
      ]);
      for (const r of missing) {
        parts.delete(r.id);
        parts.set(r.id, { revision: r.revision, authors: authors.get(r.meta_id) ?? [], models: models.get(r.id) ?? [] });
      }
      while (parts.size > PARTS_KEPT) parts.delete(parts.keys().next().value!);
    }
    const byId = new Map(rows.map((r) => {
      const kept = parts.get(r.id)!;
      return [r.id, summarize(r, kept.authors, kept.models)];
    }));
    return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  }

  /** REST objects, with each model's analysis summary from the analysis module when it is enabled. */
  async function restObjects(list: DatasetSummary[]) {
    const versionFields = await versions.restFields(list);
    if (!ctx.isEnabled('analysis')) return list.map((d) => restDataset(d, versionFields.get(d.id)!));
    const summaries = await ctx.services.analysis.summaries(list.flatMap((d) => d.files.map((f) => ({ id: f.id, name: f.name }))));
    const byFile = new Map(summaries.map((m) => [m.file_id, m]));
    return list.map((d) => restDataset(d, versionFields.get(d.id)!, d.files.flatMap((f) => (byFile.has(f.id) ? [byFile.get(f.id)!] : []))));
  }

  async function summary(id: number): Promise<DatasetSummary | undefined> {
    return (await summaries([id]))[0];
  }

  function listItem(r: { id: number; title: string; publication_type: string; dataset_doi: string | null; created_at: string }): DatasetListItem {
    return {
      id: Number(r.id),
      title: r.title,
      publicationType: r.publication_type,
      publicationTypeLabel: publicationTypeLabel(r.publication_type),
      doi: r.dataset_doi,
      createdAt: r.created_at,
      href: datasetHref(Number(r.id), r.dataset_doi),
    };
  }

  async function checkStaged(file: StagedFile): Promise<StagedCheck> {
    const result = checkModelText((await readStored(file.key)).toString('utf8'));
    return { filename: file.name, size: file.size, valid: result.valid, errors: result.errors, warnings: result.warnings };
  }

  /** The uploader's profile as the first author, when the form names none (decisions section 4). */
  async function defaultAuthors(userId: number): Promise<AuthorInput[]> {
    const profile = await ctx.services.profile.getByUserId(userId);
    if (!profile) return [];
    return [{ name: `${profile.surname}, ${profile.name}`, affiliation: profile.affiliation ?? null, orcid: profile.orcid ?? null }];
  }

  /**
   * Rows and files together (specification, States: one transaction). The copies are made while
   * the transaction is open and renamed after the commit; on any failure the copies go and, if
   * the commit already happened, so do the rows.
   */
  async function persist(
    userId: number,
    input: DatasetMetadata,
    models: PreparedModel[],
    extra: { doi?: string | null; createdAt?: string; version?: { conceptId: number; number: number; conceptDoi: string | null } } = {},
  ): Promise<{ datasetId: number; metaId: number }> {
    const { featuremodel, hubfile } = ctx.services;
    let placement: ObjectPlacement | undefined;
    let committed: { datasetId: number; metaId: number } | undefined;
    try {
      committed = await db.transaction().execute(async (trx) => {
        const ids = await repo.insertDataset(trx, {
          userId,
          createdAt: extra.createdAt ?? nowIso(),
          meta: {
            title: input.title, description: input.description, publication_type: input.publicationType,
            publication_doi: input.publicationDoi, tags: input.tags, dataset_doi: extra.doi ?? null,
            license: input.license ?? DEFAULT_LICENSE,
          },
          models: models.length,
          features: models.reduce((sum, m) => sum + m.features, 0),
          version: extra.version,
        });
        await repo.insertAuthors(trx, ids.metaId, input.authors);
        for (const m of models) {
          const fmId = await featuremodel.createFeatureModel(trx, ids.datasetId, {
            uvl_filename: m.name,
            title: m.input.title,
            description: m.input.description,
            publication_type: m.input.publicationType,
            publication_doi: m.input.publicationDoi,
            tags: m.input.tags,
            uvl_version: m.input.version,
            authors: m.input.authors,
          });
          await hubfile.createFile(trx, fmId, { name: m.name, checksum: m.checksum, size: m.size });
        }
        placement = hubfile.placeFiles(userId, ids.datasetId);
        await placement.stage(models.map((m) => ('key' in m.origin ? { sourceKey: m.origin.key, name: m.name } : { source: m.origin, name: m.name })));
        return ids;
      });
      await placement!.commit();
      return committed;
    } catch (error) {
      await placement?.abort().catch((e) => ctx.log.error({ err: e }, 'could not remove the copies of a failed upload'));
      if (committed) {
        const done = committed;
        await db.transaction().execute(async (trx) => {
          const row = await repo.findById(trx, done.datasetId);
          await featuremodel.deleteByDataset(trx, done.datasetId);
          if (row) await repo.deleteDatasetRows(trx, row);
        }).catch((e) => ctx.log.error({ err: e, datasetId: done.datasetId }, 'could not remove the rows of a dataset whose files failed'));
      }
      throw error;
    }
  }

  /** The bytes of a stored object (a staged, claimed or dataset file). */
  async function readStored(key: string): Promise<Buffer> {
    const content = await ctx.store.get(key);
    if (!content) throw new Error(`${key} is missing from the file store`);
    return streamBytes(content.body);
  }

  /** Reads and parses a model file once: syntax check, feature count, MD5 and size. */
  async function prepare(input: FeatureModelInput, origin: ModelOrigin, name: string) {
    const bytes = 'file' in origin ? await readFile(origin.file) : await readStored(origin.key);
    const check = checkModelText(bytes.toString('utf8'));
    const model: PreparedModel = {
      input, origin, name, size: bytes.length,
      checksum: createHash('md5').update(bytes).digest('hex'),
      features: check.features,
    };
    return { model, check };
  }

  /** The push as the upload form and the API answer it: ok with the DOI, or partial with the reason. */
  async function pushOutcome(datasetId: number): Promise<Exclude<UploadOutcome, { status: 'invalid' }>> {
    const pushed = await push(datasetId);
    if (!pushed.ok) return { status: 'partial', datasetId, message: pushed.message };
    return { status: 'ok', datasetId, doi: pushed.doi, url: publicUrl(pushed.doi) };
  }

  /** The push (specification, States): success stores the DOI; any failure leaves the dataset unsynchronized. */
  async function push(datasetId: number): Promise<{ ok: true; doi: string } | { ok: false; message: string }> {
    const saved = 'The dataset was saved, but it could not be published';
    const pushed = await depositDataset(datasetId);
    if (pushed.ok) return pushed;
    if (pushed.unavailable) return { ok: false, message: `${saved}: ${pushed.reason}. It stays unsynchronized.` };
    if (pushed.removed) return { ok: false, message: `${saved}: ${pushed.reason}.` };
    return { ok: false, message: `${saved} (${pushed.reason}). It stays unsynchronized; you can find it in your datasets.` };
  }

  /** The deposit of a saved dataset: a first publish, or a new version of the previous version's deposition. */
  async function depositDataset(datasetId: number): Promise<{ ok: true; doi: string } | { ok: false; reason: string; unavailable?: true; removed?: true }> {
    let deposit: DepositModule;
    try {
      deposit = await loadDeposit();
    } catch (error) {
      ctx.log.error({ err: error }, 'the deposit module could not be loaded');
      return { ok: false, reason: 'the deposit service is not available', unavailable: true };
    }
    const dataset = await summary(datasetId);
    const row = await repo.findById(db, datasetId);
    if (!dataset || !row) return { ok: false, reason: 'it was removed meanwhile', removed: true };
    try {
      const repository = deposit.createDepositRepository(config);
      const request = depositRequest(dataset, (name) => ctx.services.hubfile.openByName(dataset.userId, dataset.id, name));
      const previous = await versions.previousDeposition(row);
      const result = previous === null ? await repository.publish(request) : await repository.newVersion(previous, request);
      await repo.setDeposit(db, row.meta_id, result.doi, result.depositionId);
      // The fake keeps no state: without an answer, a concept first published there gets the fake's concept DOI.
      const conceptDoi = result.conceptDoi ?? (row.concept_doi === null && repository.kind === 'fake' ? deposit.fakeConceptDoi(row.concept_id) : null);
      await versions.recordConceptDoi(row, conceptDoi);
      await contentChanged(datasetId);
      return { ok: true, doi: result.doi };
    } catch (error) {
      const known = error instanceof deposit.DepositError;
      ctx.log.warn({ err: error, datasetId }, 'deposit push failed');
      let reason = 'the deposit repository failed unexpectedly';
      // The client's messages are sentences; inside the parentheses their full stop would double up.
      if (known) reason = error.message.replace(/\.$/, '');
      else if (isUniqueViolation(error)) reason = 'the DOI it was given already belongs to another dataset';
      return { ok: false, reason };
    }
  }

  /**
   * Rows and files of a dataset (like the API's delete): the rows go first, in one transaction,
   * then the stored files, so a failure at any point never leaves a row without its file (at
   * worst files that no row names).
   */
  async function removeDataset(row: repo.DatasetRow): Promise<void> {
    await db.transaction().execute(async (trx) => {
      await ctx.services.featuremodel.deleteByDataset(trx, row.id);
      await repo.deleteDatasetRows(trx, row);
    });
    await ctx.services.hubfile.removeDatasetFiles(row.user_id, row.id)
      .catch((e) => ctx.log.warn({ err: e }, 'the files of a removed dataset could not be removed'));
  }

  /**
   * The staged files the form names, claimed (all or none: of two submits naming the same files,
   * one gets them and the other is refused here, before anything is read or written), checked and
   * saved as a dataset. The claim stays with the caller: discarded once the dataset is kept,
   * released to put the files back. On any failure nothing is saved and the files are put back.
   */
  async function saveStagedUpload(
    userId: number,
    input: UploadInput,
    defaultAuthorsOf: () => Promise<AuthorInput[]>,
    extra: Parameters<typeof persist>[3] = {},
  ): Promise<{ status: 'invalid'; errors: FieldErrors } | { status: 'saved'; datasetId: number; claim: Claim }> {
    const field = (fm: FeatureModelInput) => `feature_models-${fm.index}-uvl_filename`;
    const claimed = await staging.claim(userId, input.featureModels.map((fm) => fm.uvlFilename));
    if (!claimed.ok) {
      const missing = new Set(claimed.missing);
      const errors: FieldErrors = {};
      for (const fm of input.featureModels.filter((m) => missing.has(m.uvlFilename))) {
        errors[field(fm)] = [`The file ${fm.uvlFilename} is not in your staging area (it may have just been saved by another submission of this form): upload it again.`];
      }
      return { status: 'invalid', errors };
    }
    const { claim } = claimed;
    try {
      const errors: FieldErrors = {};
      const prepared: PreparedModel[] = [];
      for (const [i, fm] of input.featureModels.entries()) {
        const staged = claim.files[i]!;
        const { model, check } = await prepare(fm, { key: staged.key }, staged.name);
        // A model with syntax errors is refused, with its errors (decisions section 7).
        if (!check.valid) errors[field(fm)] = check.errors.map((e) => `${staged.name}: ${e}`);
        prepared.push(model);
      }
      if (Object.keys(errors).length > 0) {
        await claim.release();
        return { status: 'invalid', errors };
      }
      const authors = input.authors.length > 0 ? input.authors : await defaultAuthorsOf();
      const { datasetId } = await persist(userId, { ...input, authors }, prepared, extra);
      return { status: 'saved', datasetId, claim };
    } catch (error) {
      // Nothing was saved (persist removes what it wrote): the files go back to the staging area.
      await claim.release().catch((e) => ctx.log.error({ err: e }, 'claimed staged files could not be put back'));
      throw error;
    }
  }

  const versions = createDatasetVersions({
    ctx, staging, summary, prepare, persist, saveStagedUpload, removeDataset, depositDataset, contentChanged, publicUrl, href: datasetHref,
  });

  const service = {
    stagingFolder: (userId: number) => staging.folderOf(userId),
    versions,
    compareVersions: createComparison(ctx, summary).compare,

    async listUserDatasets(userId: number, page: number, perPage: number): Promise<{ items: DatasetListItem[]; total: number }> {
      const [rows, total] = await Promise.all([
        repo.listForUser(db, userId, perPage, (page - 1) * perPage),
        repo.countForUser(db, userId),
      ]);
      return { items: rows.map(listItem), total };
    },

    /** The owner's datasets for /dataset/list, newest first, split by state. */
    async listOwnDatasets(userId: number): Promise<{ synchronized: DatasetSummary[]; unsynchronized: DatasetSummary[] }> {
      const rows = await repo.listAllForUser(db, userId);
      const all = await summaries(rows.map((r) => r.id));
      return { synchronized: all.filter((d) => d.synchronized), unsynchronized: all.filter((d) => !d.synchronized) };
    },

    async getOwnerRef(datasetId: number): Promise<{ datasetId: number; userId: number; doi: string | null } | undefined> {
      return repo.findOwnerRef(db, datasetId);
    },

    // ---- staging (decisions section 4) ----------------------------------------------------

    /** Stores an upload in the staging folder and checks it; an invalid model is kept so its owner sees the errors. */
    async stageFile(userId: number, clientName: string, content: Readable, isTruncated: () => boolean): Promise<StagedCheck> {
      const stored = await staging.store(userId, clientName, content, isTruncated);
      return checkStaged(stored);
    },

    async deleteStagedFile(userId: number, name: string): Promise<void> {
      await staging.remove(userId, name);
    },

    async listStagedFiles(userId: number): Promise<StagedCheck[]> {
      const files = await staging.list(userId);
      return Promise.all(files.map(checkStaged));
    },

    // ---- the upload (specification, States; decisions section 4) ------------------------------

    async upload(userId: number, fields: Record<string, string>): Promise<VersionUploadOutcome> {
      if (fields.version_of !== undefined && fields.version_of !== '') return versions.uploadVersion(userId, fields, () => defaultAuthors(userId));
      const form = readUploadForm(fields);
      if (!form.ok) return { status: 'invalid', errors: form.errors };
      const saved = await saveStagedUpload(userId, form.value, () => defaultAuthors(userId));
      if (saved.status === 'invalid') return saved;
      const { claim, datasetId } = saved;
      await claim.discard().catch((e) => ctx.log.warn({ err: e }, 'claimed staged files could not be removed'));
      await contentChanged(datasetId);
      return pushOutcome(datasetId);
    },

    /**
     * Creates a dataset from files on disk, without staging or push: the seeders use it so that
     * their rows and files are made exactly like an upload's.
     */
    async createFromFiles(
      userId: number,
      input: DatasetMetadata,
      files: { path: string; meta: Omit<FeatureModelInput, 'index' | 'uvlFilename'> & { name: string } }[],
      extra: { doi?: string | null; createdAt?: string } = {},
    ): Promise<number> {
      const prepared: PreparedModel[] = [];
      for (const [index, f] of files.entries()) {
        const { model, check } = await prepare({ ...f.meta, index, uvlFilename: f.meta.name }, { file: f.path }, f.meta.name);
        if (!check.valid) throw new Error(`${f.path} is not a valid UVL model: ${check.errors.join('; ')}`);
        prepared.push(model);
      }
      const { datasetId } = await persist(userId, input, prepared, extra);
      await contentChanged(datasetId);
      return datasetId;
    },

    // ---- pages ---------------------------------------------------------------------------------

    async resolveDoi(doi: string): Promise<DoiResolution> {
      // A superseded DOI redirects even while a dataset still carries it (specification, Landing page rules).
      const moved = await repo.findNewDoi(db, doi);
      if (moved !== undefined) return { kind: 'moved', doi: moved };
      const row = await repo.findByDoi(db, doi);
      // DOIs are case-insensitive (DOI Handbook 3.4): another spelling redirects to the stored one
      // (MariaDB's collation already matched it above, the other databases look again ignoring case).
      if (row && row.dataset_doi !== null && row.dataset_doi !== doi) return { kind: 'moved', doi: row.dataset_doi };
      if (!row) {
        const stored = await repo.findDoiIgnoringCase(db, doi);
        return stored !== undefined && stored !== doi ? { kind: 'moved', doi: stored } : { kind: 'missing' };
      }
      const [dataset] = await summariesOf([row], [row.id]);
      return { kind: 'dataset', dataset: dataset! };
    },

    /** The owner's view of a dataset without DOI; anyone else, and any synchronized dataset, gets nothing. */
    async getUnsynchronized(datasetId: number, userId: number): Promise<DatasetSummary | undefined> {
      const ref = await repo.findOwnerRef(db, datasetId);
      if (!ref || ref.userId !== userId || ref.doi !== null) return undefined;
      return summary(datasetId);
    },

    async counts(datasetId: number): Promise<{ views: number; downloads: number }> {
      return repo.recordCounts(db, datasetId);
    },

    /**
     * What the zip of a dataset holds, every file checked on disk first, so that a missing one
     * answers 404 before anything is sent or counted. Unsynchronized datasets only for their owner.
     */
    async zipContents(datasetId: number, viewerId: number | null): Promise<{ root: string; files: { name: string; open: () => Promise<Readable | undefined> }[] }> {
      const dataset = await summary(datasetId);
      if (!dataset || (!dataset.synchronized && dataset.userId !== viewerId)) throw notFound('Dataset not found.');
      const { hubfile } = ctx.services;
      for (const file of dataset.files) {
        if (!(await hubfile.existsByName(dataset.userId, dataset.id, file.name))) throw notFound(`A file of this dataset is missing: ${file.name}.`);
      }
      // Each file is opened only when the zip reaches it (core/storage lazyStream).
      const files = dataset.files.map((f) => ({ name: f.name, open: () => hubfile.openByName(dataset.userId, dataset.id, f.name) }));
      return { root: `dataset_${datasetId}`, files };
    },

    /** One record per (user or anonymous, dataset, cookie); answers whether this one was new. */
    async recordView(datasetId: number, userId: number | null, cookie: string): Promise<boolean> {
      return recordOnce('ds_view_record', datasetId, userId, cookie);
    },

    async recordDownload(datasetId: number, userId: number | null, cookie: string): Promise<boolean> {
      return recordOnce('ds_download_record', datasetId, userId, cookie);
    },

    /** What tells whether a kept DOI page is current (dataset.doi-page.ts). */
    async doiPageState(doi: string): Promise<Readonly<repo.DoiPageState> | undefined> {
      // Read before the query: a write after this moment moves the stamp and outdates what is kept.
      const stamp = changeStamp(db);
      if (stamp === undefined) return sharedPageState(doi);
      const kept = pageStates.get(doi);
      if (kept !== undefined && kept.stamp === stamp) return kept.state;
      const state = await repo.doiPageState(db, doi);
      pageStates.set(doi, { stamp, state });
      return state;
    },

    // ---- landing page (decisions section 3) -----------------------------------------------------

    /** Counted in the database (specification, Landing page rules). */
    async statistics(): Promise<{ synchronizedDatasets: number; datasetDownloads: number; datasetViews: number }> {
      const [synchronizedDatasets, datasetDownloads, datasetViews] = await Promise.all([
        repo.countSynchronized(db),
        repo.countRecords(db, 'ds_download_record'),
        repo.countRecords(db, 'ds_view_record'),
      ]);
      return { synchronizedDatasets, datasetDownloads, datasetViews };
    },

    /** For the statistics module (extensions section 8). */
    unpublishedDatasetIds,
    monthlyActivity: () => monthlyActivity(db),

    async latestSynchronized(limit: number): Promise<DatasetSummary[]> {
      return summaries(await repo.latestSynchronizedIds(db, limit));
    },

    async hasData(): Promise<boolean> {
      return (await repo.countAll(db)) > 0;
    },

    // ---- explore (service contract) -------------------------------------------------------------

    async getSearchDocuments(datasetIds: number[]) {
      // The revision comes with the dataset row, read before its parts: a write in between leaves
      // the row one revision behind (re-indexed by that write's event, or at the next start), never
      // marked as current.
      const rows = await repo.findByIds(db, datasetIds);
      const revisions = new Map(rows.map((r) => [r.id, r.revision]));
      return (await summariesOf(rows, datasetIds)).map((d) => ({
        id: d.id,
        revision: revisions.get(d.id)!,
        synchronized: d.synchronized,
        featureModelCount: d.featureModels.length,
        createdAt: d.createdAt,
        publicationType: d.publicationType,
        tags: d.tags,
        // The eleven searchable columns of explore rule 2, raw, and (issue 10) the dataset's own
        // DOI and publication DOI, which the search box promises too.
        texts: [
          d.title, d.description, d.tags.join(', '), d.doi ?? '', d.publicationDoi ?? '',
          ...[...d.authors, ...d.featureModels.flatMap((m) => m.authors)].flatMap((a) => [a.name, a.affiliation ?? '', a.orcid ?? '']),
          ...d.featureModels.flatMap((m) => [
            m.meta.uvl_filename, m.meta.title, m.meta.description, m.meta.publication_doi ?? '', m.meta.tags.join(', '),
          ]),
        ].filter((t) => t !== ''),
      }));
    },

    /** The datasets of these ids that exist, as the pages show them (the cart's list and citations). */
    summariesOf: (datasetIds: number[]): Promise<DatasetSummary[]> => summaries(datasetIds),

    async listSearchResults(datasetIds: number[]) {
      return (await summaries(datasetIds)).map(searchResult);
    },

    allDatasetIds: () => repo.allIds(db),
    /** Every dataset's id and revision (the search index catches up on the ones whose revision moved). */
    allDatasetRevisions: () => repo.allRevisions(db),

    /** Records that `oldDoi` was superseded by `newDoi` (hub doi:map); the landing page then redirects. */
    async mapDoi(oldDoi: string, newDoi: string): Promise<void> {
      const from = oldDoi.trim();
      const to = newDoi.trim();
      for (const doi of [from, to]) {
        if (!DOI_PATTERN.test(doi) || doi.length > 255) throw new Error(`"${doi}" is not a DOI (expected 10.<registrant>/<suffix>).`);
      }
      if (from === to) throw new Error('A DOI cannot replace itself.');
      // Following the chain from the new DOI must not lead back to the old one, or the redirects would loop.
      const seen = new Set([from]);
      let last = to;
      for (let next: string | undefined = to; next !== undefined; next = await repo.findNewDoi(db, next)) {
        if (seen.has(next)) throw new Error(`Mapping ${from} to ${to} would make the redirects loop.`);
        seen.add(next);
        last = next;
      }
      // A redirect that ends on no dataset would only move the visitor from one 404 to another.
      if (!(await repo.findByDoi(db, last))) throw new Error(`No dataset has the DOI ${last}: map to the DOI of a published dataset.`);
      await repo.saveDoiMapping(db, from, to);
    },
  };
  // The REST resource and the API's write flow (dataset.rest.ts).
  const rest = createDatasetRest({
    ctx, apiStaging, summary, summaries, restObjects, defaultAuthors, contentChanged, removeDataset, prepare, pushOutcome, publicUrl,
  });
  // Editing, the API's PUT, and the owner's publish and delete pages (dataset.edit.ts).
  return Object.assign(service, rest.methods, createDatasetEditing(ctx, {
    loadDeposit, summary, restObjects, ownedOrThrow: rest.ownedOrThrow, defaultAuthors, restInput: rest.restInput,
    publish: rest.methods.publish, apiDelete: rest.methods.apiDelete,
  }));
}

/** What a dataset is created with; the licence defaults to CC-BY-4.0. */
type DatasetMetadata = Omit<MetadataInput, 'license'> & { license?: string };

export type DatasetService = ReturnType<typeof createDatasetService>;
export { StagingError };
