// Dataset service (specification, dataset; decisions section 4): staging, the upload
// transaction, the push to the deposit repository, pages' data, metrics, the REST resource
// and what explore and the landing page read. It never sees the request or the session.
import { createHash } from 'node:crypto';
import { readFile, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { charCount, hasControlCharacters, type FieldErrors } from '../../core/http/forms.ts';
import { badRequest, conflict, forbidden, notFound } from '../../core/http/errors.ts';
import { humanSize } from '../../core/http/filters.ts';
import { nowIso } from '../../core/db/database.ts';
import { isUniqueViolation, type DbOrTrx } from '../../core/db/connect.ts';
import { groupCommit } from '../../core/db/group-commit.ts';
import type { ModuleContext } from '../../core/modules.ts';
import * as repo from './dataset.repository.ts';
import { placeFiles, setFolderAside, type Placement } from './dataset.files.ts';
import { restDataset, searchResult } from './dataset.presenter.ts';
import type { FeatureModelView } from '../featuremodel/index.ts';
import type { HubfileView } from '../hubfile/index.ts';
import { isPublicationType, publicationTypeLabel } from './publication-types.ts';
import { createStaging, safeUvlName, StagingError, type Claim } from './staging.ts';
import { createDatasetVersions, type VersionUploadOutcome } from './dataset.versions.ts';
import { createComparison } from './dataset.compare.ts';
import { checkModelText } from './model-check.ts';
import {
  MAX_DESCRIPTION, MAX_FEATURE_MODELS, ORCID_PATTERN, normalizeTags, readUploadForm, splitTags,
  type AuthorInput, type FeatureModelInput, type MetadataInput, type UploadInput,
} from './upload-form.ts';
import { DEFAULT_LICENSE, isLicense, UNKNOWN_LICENSE } from './licenses.ts';
import { createDatasetEditing, depositRequest } from './dataset.edit.ts';

export interface DatasetListItem {
  id: number;
  title: string;
  publicationType: string;
  publicationTypeLabel: string;
  doi: string | null;
  createdAt: string;
  /** The DOI landing page when synchronized, else the owner's unsynchronized view (specification, profile). */
  href: string;
}

export interface DatasetSummary {
  id: number;
  userId: number;
  createdAt: string;
  title: string;
  description: string;
  publicationType: string;
  publicationTypeLabel: string;
  publicationDoi: string | null;
  doi: string | null;
  depositionId: number | null;
  synchronized: boolean;
  tags: string[];
  authors: AuthorInput[];
  /** An SPDX identifier (licenses.ts). */
  license: string;
  numberOfModels: number;
  numberOfFeatures: number;
  featureModels: FeatureModelView[];
  files: HubfileView[];
  totalSize: number;
  totalSizeHuman: string;
  /** The public DOI URL `http://<DOMAIN>/doi/<doi>`; null while unsynchronized. */
  url: string | null;
  /** The deposit repository's record page: `get_zenodo_url()` of the specification. */
  zenodoUrl: string | null;
  downloadUrl: string;
  href: string;
  /** 1 for a concept's first version (extensions section 2, dataset.versions.ts). */
  version: number;
  conceptId: number;
  conceptDoi: string | null;
}

export interface StagedCheck {
  filename: string;
  size: number;
  valid: boolean;
  errors: string[];
  warnings: string[];
}

export type UploadOutcome =
  | { status: 'invalid'; errors: FieldErrors }
  | { status: 'ok'; datasetId: number; doi: string; url: string }
  | { status: 'partial'; datasetId: number; message: string };

export type DoiResolution =
  | { kind: 'dataset'; dataset: DatasetSummary }
  | { kind: 'moved'; doi: string }
  | { kind: 'missing' };

/** A model ready to be stored: its file read once for the check, the checksum and the feature count. */
export interface PreparedModel {
  input: FeatureModelInput;
  source: string;
  name: string;
  size: number;
  checksum: string;
  features: number;
}

type DepositModule = typeof import('../deposit/index.ts');

export interface DatasetServiceOptions {
  /** How the deposit module is reached; tests replace it to prove that only the upload depends on it. */
  loadDeposit?: () => Promise<DepositModule>;
}

const NOT_FOUND_BODY = { message: 'DataSet not found' };
const PUBLISHED = 'The dataset is published (it has a DOI): its files cannot change.';
/** The built-in fake deposit's DOIs (src/modules/deposit/fake-deposit.ts, not imported: rule 6). */
const FAKE_DOI_PREFIX = '10.1234/fakenodo.';
const DOI_PATTERN = /^10\.\d{4,9}\/\S+$/;

export function datasetHref(id: number, doi: string | null): string {
  return doi ? `/doi/${doiPath(doi)}/` : `/dataset/unsynchronized/${id}/`;
}

/** A DOI placed in a URL path: its slashes stay, characters that would end or break the path are escaped. */
export function doiPath(doi: string): string {
  return doi.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/]/gu, (c) => encodeURIComponent(c));
}

export function createDatasetService(ctx: ModuleContext, options: DatasetServiceOptions = {}) {
  const { db, config } = ctx;
  const loadDeposit = options.loadDeposit ?? (() => import('../deposit/index.ts'));
  const staging = createStaging(resolve(config.workingDir, config.uploadsDir));
  // Files sent to the API pass through a staging area of their own (same checks and limits),
  // so they never mix with what the user staged in the browser.
  const apiStaging = createStaging(resolve(config.workingDir, config.uploadsDir, 'temp', '.api'));

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
  const knownRecords = new Set<string>();
  // Many first visits at once share their commits (core/db/group-commit.ts).
  const insertRecord = groupCommit(db, (db: DbOrTrx, r: { table: repo.RecordTable; values: Parameters<typeof repo.insertRecord>[2] }) => repo.insertRecord(db, r.table, r.values));
  const KNOWN_RECORDS_KEPT = 100_000;

  async function recordOnce(table: repo.RecordTable, datasetId: number, userId: number | null, cookie: string): Promise<boolean> {
    const key = `${table}\n${datasetId}\n${userId ?? 0}\n${cookie}`;
    if (knownRecords.has(key)) return false;
    const added = await insertRecord({ table, values: { datasetId, userId, cookie, date: nowIso() } });
    knownRecords.add(key);
    if (knownRecords.size > KNOWN_RECORDS_KEPT) knownRecords.delete(knownRecords.values().next().value!);
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

  async function checkStaged(filename: string, path: string, size: number): Promise<StagedCheck> {
    const result = checkModelText(await readFile(path, 'utf8'));
    return { filename, size, valid: result.valid, errors: result.errors, warnings: result.warnings };
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
  ): Promise<{ datasetId: number; metaId: number; folder: string }> {
    const { featuremodel, hubfile } = ctx.services;
    let placement: Placement | undefined;
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
        placement = placeFiles(hubfile.datasetFolder(userId, ids.datasetId));
        await placement.stage(models.map((m) => ({ source: m.source, name: m.name })));
        return ids;
      });
      await placement!.commit();
      return { ...committed, folder: placement!.folder };
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

  /** Reads and parses a model file once: syntax check, feature count, MD5 and size. */
  async function prepare(input: FeatureModelInput, source: string, name: string) {
    const bytes = await readFile(source);
    const check = checkModelText(bytes.toString('utf8'));
    const model: PreparedModel = {
      input, source, name, size: bytes.length,
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
    const folder = ctx.services.hubfile.datasetFolder(dataset.userId, dataset.id);
    try {
      const repository = deposit.createDepositRepository(config);
      const request = depositRequest(dataset, folder);
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

  /** Rows and files of a dataset, folder set aside first (like the API's delete). */
  async function removeDataset(row: repo.DatasetRow): Promise<void> {
    const aside = await setFolderAside(ctx.services.hubfile.datasetFolder(row.user_id, row.id));
    try {
      await db.transaction().execute(async (trx) => {
        await ctx.services.featuremodel.deleteByDataset(trx, row.id);
        await repo.deleteDatasetRows(trx, row);
      });
    } catch (error) {
      await aside.restore();
      throw error;
    }
    await aside.discard().catch((e) => ctx.log.warn({ err: e }, 'the folder of a removed dataset could not be removed'));
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
        const { model, check } = await prepare(fm, staged.path, staged.name);
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

  async function ownedOrThrow(id: number, userId: number): Promise<repo.DatasetRow> {
    const row = await repo.findById(db, id);
    // Someone else's unsynchronized dataset is not revealed (decisions section 7).
    if (!row || (row.user_id !== userId && row.dataset_doi === null)) throw notFound('DataSet not found', NOT_FOUND_BODY);
    if (row.user_id !== userId) throw forbidden('You are not the owner of this dataset.', { message: 'You are not the owner of this dataset.' });
    return row;
  }

  /** The optional `authors` of the API's create: `[{name, affiliation?, orcid?}]`, like the upload form's authors. */
  function restAuthors(value: unknown, add: (field: string, message: string) => void): AuthorInput[] | undefined {
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || value.length > 100) {
      add('authors', 'authors must be a list of at most 100 {"name", "affiliation", "orcid"} objects.');
      return undefined;
    }
    const authors: AuthorInput[] = [];
    for (const [i, a] of value.entries()) {
      const author = (a && typeof a === 'object' ? a : {}) as Record<string, unknown>;
      const text = (key: string, max: number, required: boolean): string | null => {
        const v = author[key];
        if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '' && !required)) return null;
        if (typeof v !== 'string' || v.trim() === '' || charCount(v.trim()) > max || hasControlCharacters(v)) {
          add(`authors.${i}.${key}`, `${key} must be ${required ? 'a non-empty' : 'a'} text of at most ${max} characters.`);
          return null;
        }
        return v.trim();
      };
      const name = text('name', 255, true);
      const affiliation = text('affiliation', 255, false);
      const orcid = text('orcid', 19, false);
      if (orcid !== null && !ORCID_PATTERN.test(orcid)) add(`authors.${i}.orcid`, 'ORCID must look like 0000-0000-0000-0000.');
      if (name !== null) authors.push({ name, affiliation, orcid });
    }
    return authors;
  }

  function restInput(body: unknown, mode: 'create' | 'update') {
    if (!body || typeof body !== 'object' || Array.isArray(body) || Object.keys(body).length === 0) {
      throw badRequest('No input data provided', { message: 'No input data provided' });
    }
    const b = body as Record<string, unknown>;
    const errors: FieldErrors = {};
    const add = (f: string, m: string) => { (errors[f] ??= []).push(m); };
    const text = (key: string) => (b[key] === undefined || b[key] === null ? undefined : b[key]);
    const name = text('name');
    if (name !== undefined && (typeof name !== 'string' || name.trim() === '' || name.trim().length > 255)) add('name', 'name must be a non-empty text of at most 255 characters.');
    if (mode === 'create' && name === undefined) add('name', 'name is required.');
    const description = text('description');
    if (description !== undefined && (typeof description !== 'string' || description.length > MAX_DESCRIPTION)) add('description', `description must be a text of at most ${MAX_DESCRIPTION} characters.`);
    const type = text('publication_type');
    if (mode === 'create' && type !== undefined && (typeof type !== 'string' || !isPublicationType(type))) add('publication_type', 'publication_type is not a known publication type.');
    const tags = text('tags');
    const tagsOk = tags === undefined || typeof tags === 'string' || (Array.isArray(tags) && tags.every((t) => typeof t === 'string'));
    if (!tagsOk) add('tags', 'tags must be a text of comma-separated tags or a list of texts.');
    const normalizedTags = tagsOk && tags !== undefined ? normalizeTags(tags as string | string[]) : undefined;
    if (normalizedTags && normalizedTags.length > 2000) add('tags', 'tags cannot be longer than 2000 characters.');
    const authors = mode === 'create' ? restAuthors(text('authors'), add) : undefined;
    const license = text('license');
    if (license !== undefined && (typeof license !== 'string' || !isLicense(license))) add('license', UNKNOWN_LICENSE);
    if (Object.keys(errors).length > 0) throw badRequest('Invalid input', { message: 'Invalid input', errors });
    return {
      authors,
      name: typeof name === 'string' ? name.trim() : undefined,
      description: typeof description === 'string' ? description.trim() : undefined,
      publicationType: typeof type === 'string' ? type : 'none',
      tags: normalizedTags,
      license: typeof license === 'string' ? license : undefined,
    };
  }

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
      return checkStaged(stored.name, stored.path, stored.size);
    },

    async deleteStagedFile(userId: number, name: string): Promise<void> {
      await staging.remove(userId, name);
    },

    async listStagedFiles(userId: number): Promise<StagedCheck[]> {
      const files = await staging.list(userId);
      return Promise.all(files.map((f) => checkStaged(f.name, f.path, f.size)));
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
        const { model, check } = await prepare({ ...f.meta, index, uvlFilename: f.meta.name }, f.path, f.meta.name);
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
    async zipContents(datasetId: number, viewerId: number | null): Promise<{ root: string; files: { name: string; path: string }[] }> {
      const dataset = await summary(datasetId);
      if (!dataset || (!dataset.synchronized && dataset.userId !== viewerId)) throw notFound('Dataset not found.');
      const folder = ctx.services.hubfile.datasetFolder(dataset.userId, dataset.id);
      const files = dataset.files.map((f) => ({ name: f.name, path: join(folder, f.name) }));
      for (const file of files) {
        const info = await stat(file.path).catch(() => undefined);
        if (!info?.isFile()) throw notFound(`A file of this dataset is missing: ${file.name}.`);
      }
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
    async doiPageState(doi: string): Promise<repo.DoiPageState | undefined> {
      return repo.doiPageState(db, doi);
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

    async latestSynchronized(limit: number): Promise<DatasetSummary[]> {
      return summaries(await repo.latestSynchronizedIds(db, limit));
    },

    async hasData(): Promise<boolean> {
      return (await repo.countAll(db)) > 0;
    },

    // ---- REST /api/v1/datasets/ (decisions sections 4 and 7) -------------------------------------

    async apiList(viewerId: number | null, page: number, perPage: number) {
      const [ids, total] = await Promise.all([
        repo.listVisibleIds(db, viewerId, perPage, (page - 1) * perPage),
        repo.countVisible(db, viewerId),
      ]);
      return { items: await restObjects(await summaries(ids)), page, per_page: perPage, total };
    },

    async apiGet(datasetId: number, viewerId: number | null) {
      const dataset = await summary(datasetId);
      if (!dataset || (!dataset.synchronized && dataset.userId !== viewerId)) throw notFound('DataSet not found', NOT_FOUND_BODY);
      return (await restObjects([dataset]))[0];
    },

    /** An unsynchronized dataset without files; the creator is its first author. */
    async apiCreate(userId: number, body: unknown): Promise<number> {
      const input = restInput(body, 'create');
      // Read before the transaction: SQLite has one connection, which the transaction holds.
      const authors = input.authors && input.authors.length > 0 ? input.authors : await defaultAuthors(userId);
      const datasetId = await db.transaction().execute(async (trx) => {
        const ids = await repo.insertDataset(trx, {
          userId, createdAt: nowIso(),
          meta: {
            title: input.name!, description: input.description ?? '', publication_type: input.publicationType,
            publication_doi: null, tags: input.tags ?? null, dataset_doi: null, license: input.license ?? DEFAULT_LICENSE,
          },
          models: 0, features: 0,
        });
        await repo.insertAuthors(trx, ids.metaId, authors);
        return ids.datasetId;
      });
      await contentChanged(datasetId);
      return datasetId;
    },

    /** Removes the rows and the dataset folder; a synchronized dataset has a public DOI and stays (409). */
    async apiDelete(datasetId: number, userId: number): Promise<void> {
      const row = await ownedOrThrow(datasetId, userId);
      if (row.dataset_doi !== null) {
        throw conflict('A synchronized dataset has a DOI and cannot be deleted.', { message: 'A synchronized dataset has a DOI and cannot be deleted.' });
      }
      await removeDataset(row);
      await ctx.events.emit('dataset.deleted', { datasetId });
    },

    // ---- the API's write flow (extensions section 3): files one by one, then the deposit --------

    /**
     * Adds one model to the owner's unsynchronized dataset, under the rules of an upload: the
     * staging limits and name rules, the syntax check (an invalid model is refused with its
     * errors, nothing kept), at most MAX_FEATURE_MODELS files. Answers the new file's id.
     */
    async addFile(datasetId: number, userId: number, clientName: string, content: Readable, isTruncated: () => boolean): Promise<number> {
      const row = await ownedOrThrow(datasetId, userId);
      if (row.dataset_doi !== null) throw conflict(PUBLISHED, { message: PUBLISHED });
      if (row.number_of_models >= MAX_FEATURE_MODELS) {
        const message = `A dataset holds at most ${MAX_FEATURE_MODELS} models.`;
        throw conflict(message, { message });
      }
      const stored = await apiStaging.store(userId, clientName, content, isTruncated);
      try {
        const name = safeUvlName(clientName);
        const { model, check } = await prepare({
          index: 0, uvlFilename: name, title: name.replace(/\.uvl$/i, ''), description: '', publicationType: 'none',
          publicationDoi: null, tags: null, version: null, authors: [],
        }, stored.path, name);
        if (!check.valid) {
          throw badRequest(`${name} is not a valid UVL model.`, { message: `${name} is not a valid UVL model.`, errors: check.errors });
        }
        const existing = await ctx.services.featuremodel.listByDataset(datasetId);
        if (existing.some((m) => m.files.some((f) => f.name === name))) {
          const message = `The dataset already has a file named ${name}: delete it first or rename the new one.`;
          throw conflict(message, { message });
        }
        const { hubfile, featuremodel } = ctx.services;
        const placement = placeFiles(hubfile.datasetFolder(row.user_id, datasetId));
        let fileId: number;
        try {
          fileId = await db.transaction().execute(async (trx) => {
            const fmId = await featuremodel.createFeatureModel(trx, datasetId, {
              uvl_filename: name, title: model.input.title, description: '', publication_type: 'none',
              publication_doi: null, tags: null, uvl_version: null, authors: [],
            });
            const id = await hubfile.createFile(trx, fmId, { name, checksum: model.checksum, size: model.size });
            if (row.metrics_id !== null) await repo.adjustMetrics(trx, row.metrics_id, 1, model.features);
            await placement.stage([{ source: stored.path, name }]);
            return id;
          });
        } catch (error) {
          await placement.abort().catch((e) => ctx.log.error({ err: e }, 'could not remove the copy of a refused file'));
          throw error;
        }
        await placement.commit();
        await contentChanged(datasetId);
        return fileId;
      } finally {
        await apiStaging.remove(userId, stored.name).catch(() => {});
      }
    },

    /** Removes one file (and its feature model) from the owner's unsynchronized dataset. */
    async removeFile(datasetId: number, userId: number, fileId: number): Promise<void> {
      const row = await ownedOrThrow(datasetId, userId);
      const file = await ctx.services.hubfile.getFile(fileId);
      if (!file || file.datasetId !== datasetId) throw notFound('File not found', { message: 'File not found' });
      if (row.dataset_doi !== null) throw conflict(PUBLISHED, { message: PUBLISHED });
      const text = await readFile(file.path, 'utf8').catch(() => '');
      const features = checkModelText(text).features;
      await db.transaction().execute(async (trx) => {
        await ctx.services.featuremodel.deleteFeatureModel(trx, file.featureModelId);
        if (row.metrics_id !== null) await repo.adjustMetrics(trx, row.metrics_id, -1, -features);
      });
      await rm(file.path, { force: true }).catch((e) => ctx.log.warn({ err: e }, 'the disk file of a removed model could not be deleted'));
      await contentChanged(datasetId);
    },

    /** The deposit of the owner's unsynchronized dataset: the same push as the upload form's. */
    async publish(datasetId: number, userId: number): Promise<Exclude<UploadOutcome, { status: 'invalid' }>> {
      const row = await ownedOrThrow(datasetId, userId);
      if (row.dataset_doi !== null) {
        const message = 'The dataset is already published.';
        throw conflict(message, { message, doi: row.dataset_doi, url: publicUrl(row.dataset_doi) });
      }
      if (row.number_of_models === 0) {
        const message = 'The dataset has no models yet: add at least one file before publishing.';
        throw badRequest(message, { message });
      }
      // Zenodo refuses a deposition without a description; saying so here beats a `partial` answer.
      if (row.description.trim() === '') {
        const message = 'The dataset has no description: set one (PUT /api/v1/datasets/<id>) before publishing.';
        throw badRequest(message, { message, field: 'description' });
      }
      return pushOutcome(datasetId);
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
  // Editing, the API's PUT, and the owner's publish and delete pages (dataset.edit.ts).
  return Object.assign(service, createDatasetEditing(ctx, {
    loadDeposit, summary, restObjects, ownedOrThrow, defaultAuthors, restInput,
    publish: service.publish, apiDelete: service.apiDelete,
  }));
}

/** What a dataset is created with; the licence defaults to CC-BY-4.0. */
type DatasetMetadata = Omit<MetadataInput, 'license'> & { license?: string };

export type DatasetService = ReturnType<typeof createDatasetService>;
export { StagingError };
