// The dataset REST resource (/api/v1/datasets/, decisions sections 4 and 7) and the API's write
// flow (extensions section 3: an unsynchronized dataset, files one by one, then the deposit).
// Split from the dataset service, which hands it the parts it shares with the upload form.
import type { Readable } from 'node:stream';
import { charCount, hasControlCharacters, type FieldErrors } from '../../../core/http/forms.ts';
import { badRequest, conflict, forbidden, notFound } from '../../../core/http/errors.ts';
import { nowIso } from '../../../core/db/database.ts';
import type { ModuleContext } from '../../../core/modules.ts';
import * as repo from '../dataset.repository.ts';
import { isPublicationType } from '../publication-types.ts';
import { safeUvlName, type Staging } from '../staging/staging.ts';
import { checkModelText } from '../model-check.ts';
import { MAX_DESCRIPTION, MAX_FEATURE_MODELS, ORCID_PATTERN, normalizeTags, type AuthorInput, type FeatureModelInput } from '../upload-form.ts';
import { DEFAULT_LICENSE, isLicense, UNKNOWN_LICENSE } from '../licenses.ts';
import type { DatasetSummary, ModelOrigin, PreparedModel, UploadOutcome } from '../dataset.types.ts';
import type { restDataset } from './dataset.presenter.ts';

const NOT_FOUND_BODY = { message: 'DataSet not found' };
const PUBLISHED = 'The dataset is published (it has a DOI): its files cannot change.';

export interface DatasetRestDeps {
  ctx: ModuleContext;
  /** The API's own staging area: a file waits there for its check, then joins the dataset. */
  apiStaging: Staging;
  summary(id: number): Promise<DatasetSummary | undefined>;
  summaries(ids: number[]): Promise<DatasetSummary[]>;
  restObjects(list: DatasetSummary[]): Promise<ReturnType<typeof restDataset>[]>;
  defaultAuthors(userId: number): Promise<AuthorInput[]>;
  contentChanged(datasetId: number): Promise<void>;
  removeDataset(row: repo.DatasetRow): Promise<void>;
  prepare(input: FeatureModelInput, origin: ModelOrigin, name: string): Promise<{ model: PreparedModel; check: { valid: boolean; errors: string[] } }>;
  pushOutcome(datasetId: number): Promise<Exclude<UploadOutcome, { status: 'invalid' }>>;
  publicUrl(doi: string): string;
}

export function createDatasetRest(deps: DatasetRestDeps) {
  const { ctx, apiStaging, summary, summaries, restObjects, defaultAuthors, contentChanged, removeDataset, prepare, pushOutcome, publicUrl } = deps;
  const { db } = ctx;

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

  const methods = {
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
        }, { key: stored.key }, name);
        if (!check.valid) {
          throw badRequest(`${name} is not a valid UVL model.`, { message: `${name} is not a valid UVL model.`, errors: check.errors });
        }
        const existing = await ctx.services.featuremodel.listByDataset(datasetId);
        if (existing.some((m) => m.files.some((f) => f.name === name))) {
          const message = `The dataset already has a file named ${name}: delete it first or rename the new one.`;
          throw conflict(message, { message });
        }
        const { hubfile, featuremodel } = ctx.services;
        const placement = hubfile.placeFiles(row.user_id, datasetId);
        let fileId: number;
        try {
          fileId = await db.transaction().execute(async (trx) => {
            const fmId = await featuremodel.createFeatureModel(trx, datasetId, {
              uvl_filename: name, title: model.input.title, description: '', publication_type: 'none',
              publication_doi: null, tags: null, uvl_version: null, authors: [],
            });
            const id = await hubfile.createFile(trx, fmId, { name, checksum: model.checksum, size: model.size });
            if (row.metrics_id !== null) await repo.adjustMetrics(trx, row.metrics_id, 1, model.features);
            await placement.stage([{ sourceKey: stored.key, name }]);
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
      const text = (await ctx.services.hubfile.readText(file)) ?? '';
      const features = checkModelText(text).features;
      await db.transaction().execute(async (trx) => {
        await ctx.services.featuremodel.deleteFeatureModel(trx, file.featureModelId);
        if (row.metrics_id !== null) await repo.adjustMetrics(trx, row.metrics_id, -1, -features);
      });
      await ctx.services.hubfile.removeStoredFile(file).catch((e) => ctx.log.warn({ err: e }, 'the stored file of a removed model could not be deleted'));
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
  };

  return { methods, ownedOrThrow, restInput };
}
