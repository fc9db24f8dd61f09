// JSON schemas of the dataset routes of the API (decisions section 4, extensions section 3):
// Fastify validates requests with them and the OpenAPI document is generated from them.
import { errorSchema } from '../../../core/http/api-schemas.ts';
import { restFileSchema } from '../../hubfile/index.ts';
import { PUBLICATION_TYPES } from '../../../core/publication-types.ts';
import { LICENSE_IDS } from '../licenses.ts';

const tags = ['datasets'];
const errors = (...codes: number[]) => Object.fromEntries(codes.map((code) => [code, errorSchema]));

export const datasetSchema = {
  type: 'object',
  required: ['dataset_id', 'created', 'name', 'doi', 'license', 'files', 'version', 'concept_doi', 'versions'],
  properties: {
    dataset_id: { type: 'integer' },
    version: { type: 'integer', minimum: 1, description: 'The version number (1 for the first version).' },
    concept_doi: { type: ['string', 'null'], description: 'The DOI shared by all versions; null when not known yet.' },
    versions: {
      type: 'array',
      description: 'The published versions of this dataset (and this one when unsynchronized), oldest first.',
      items: {
        type: 'object',
        required: ['id', 'version', 'doi', 'url'],
        properties: {
          id: { type: 'integer' },
          version: { type: 'integer' },
          doi: { type: ['string', 'null'] },
          url: { type: ['string', 'null'], description: 'The public DOI URL; null while unsynchronized.' },
        },
      },
    },
    created: { type: 'string', format: 'date-time' },
    name: { type: 'string' },
    doi: { type: ['string', 'null'], description: 'The public DOI URL http://<DOMAIN>/doi/<doi>; null while unsynchronized.' },
    license: { type: 'string', description: 'The SPDX identifier of the dataset\'s licence.' },
    files: {
      type: 'array',
      items: {
        type: 'object',
        required: ['file_id', 'file_name', 'size'],
        properties: { file_id: { type: 'integer' }, file_name: { type: 'string' }, size: { type: 'string' } },
      },
    },
    models: {
      type: 'array',
      description: "Each model's analysis summary (extensions section 1); present when the hub analyses models.",
      items: {
        type: 'object',
        required: ['file_id', 'name', 'status', 'features', 'constraints', 'configurations', 'satisfiable'],
        properties: {
          file_id: { type: 'integer' },
          name: { type: 'string' },
          status: { type: 'string', enum: ['pending', 'done', 'partial', 'failed'] },
          features: { type: ['integer', 'null'] },
          constraints: { type: ['integer', 'null'] },
          configurations: { type: ['string', 'null'], description: 'The exact number of configurations, as a decimal string.' },
          satisfiable: { type: ['boolean', 'null'] },
        },
      },
    },
  },
} as const;

// No minimum: ids start at 1, and 0 is an id no dataset has, answered 404 "DataSet not found"
// (decisions section 4) as Flask's <int:id> answers it, not a 400 about the address.
const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', description: 'The dataset id.' } },
} as const;

const fileParams = {
  type: 'object',
  required: ['id', 'file_id'],
  properties: { id: idParams.properties.id, file_id: { type: 'integer', description: 'The file id.' } },
} as const;

const licenseField = {
  type: 'string',
  enum: [...LICENSE_IDS],
  description: 'An SPDX licence identifier (default CC-BY-4.0).',
} as const;

const tagsField = {
  anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
  description: 'Comma-separated text or a list of tags.',
} as const;

const authorSchema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 255 },
    affiliation: { type: ['string', 'null'], maxLength: 255 },
    orcid: { type: ['string', 'null'], description: '0000-0000-0000-0000' },
  },
} as const;

// `null` is allowed at the top so that a missing body reaches the service, which answers
// 400 {"message": "No input data provided"} as decisions section 4 prescribes.
const createBody = {
  type: ['object', 'null'],
  properties: {
    name: { type: 'string' },
    description: { type: 'string' },
    publication_type: { type: 'string', enum: PUBLICATION_TYPES.map(([value]) => value) },
    tags: tagsField,
    license: licenseField,
    authors: { type: 'array', maxItems: 100, items: authorSchema, description: 'Default: the creator\'s profile.' },
  },
} as const;

const updateBody = {
  type: ['object', 'null'],
  properties: { name: { type: 'string' }, description: { type: 'string' }, tags: tagsField, license: licenseField },
} as const;

export const listSchema = {
  tags,
  summary: 'List datasets',
  description: 'Synchronized datasets, plus the caller\'s own unsynchronized ones when authenticated; newest first.',
  querystring: {
    type: 'object',
    properties: {
      page: { type: 'string', pattern: '^[0-9]*$', description: 'Page number from 1 to 999999999 (default 1); a page past the last is empty.' },
      per_page: { type: 'string', pattern: '^[0-9]*$', description: 'Items per page (default 100, at most 1000): any larger whole number gives 1000.' },
    },
  },
  response: {
    200: {
      type: 'object',
      required: ['items', 'page', 'per_page', 'total'],
      properties: { items: { type: 'array', items: datasetSchema }, page: { type: 'integer' }, per_page: { type: 'integer' }, total: { type: 'integer' } },
    },
    ...errors(400, 401, 429),
  },
} as const;

export const createSchema = {
  tags,
  summary: 'Create an unsynchronized dataset without files',
  body: createBody,
  response: {
    201: { type: 'object', required: ['message', 'id'], properties: { message: { type: 'string' }, id: { type: 'integer' } } },
    ...errors(400, 401, 403, 429),
  },
} as const;

export const getSchema = {
  tags, summary: 'One dataset', params: idParams,
  response: { 200: datasetSchema, ...errors(401, 404, 429) },
} as const;

export const updateSchema = {
  tags,
  summary: 'Change name, description, tags or licence',
  description: 'The same edit as the edit page: a synchronized dataset\'s deposit is updated first (its DOI stays) and the edit is recorded in its history. A deposit that refuses or cannot be reached: 502, nothing changed. An unsynchronized dataset being published: 409, nothing changed.',
  params: idParams,
  body: updateBody,
  response: { 200: datasetSchema, ...errors(400, 401, 403, 404, 409, 429, 502) },
} as const;

export const deleteSchema = {
  tags, summary: 'Delete an unsynchronized dataset', params: idParams,
  description: 'A synchronized dataset stays (409), as does one a publish is depositing, or one whose earlier publish Zenodo is found to have published after all (409 with its `doi` and `url`: it is synchronized now). When an earlier publish left a deposition whose fate Zenodo cannot tell now: 503, nothing deleted.',
  response: { 204: { type: 'null', description: 'Deleted.' }, ...errors(401, 403, 404, 409, 429, 503) },
} as const;

export const notAllowedSchema = {
  tags, summary: 'Not allowed here (405)',
  response: { 405: errorSchema },
} as const;

export const addFileSchema = {
  tags,
  summary: 'Add a UVL model to an unsynchronized dataset',
  description: 'multipart/form-data with the model in the field `file`: a `.uvl`, or FeatureIDE XML (`.xml`, root `featureModel`/`extendedFeatureModel`), SPLOT SXFM (`.sxfm`, or `.xml` with root `feature_model`) or Glencoe JSON (`.json`), converted to UVL and stored as `<stem>.uvl` with the original beside it (`original`, `losses` in the answer). An invalid model or a file that does not convert: 400 with its errors (`Line l:c - ...`) in `errors`; nothing is kept. A dataset already holding `<stem>.uvl`, holding 200 models, or being published: 409, nothing kept.',
  params: idParams,
  consumes: ['multipart/form-data'],
  response: { 201: restFileSchema, ...errors(400, 401, 403, 404, 409, 413, 429) },
} as const;

const importSourceSchema = {
  type: 'object',
  properties: { url: { type: 'string' }, doi: { type: ['string', 'null'], description: 'The Zenodo record\'s DOI, when the source is one.' } },
} as const;

export const importFilesSchema = {
  tags,
  summary: 'Import the models of a URL into an unsynchronized dataset',
  description: 'Body `{"url"}`: a model file (any accepted format), a zip archive (a Git host\'s repository archive, say) or a Zenodo record (its URL or DOI, read through the Zenodo API). The hub fetches it with time and size limits and at most 5 redirects, and adds every valid model found, as the file upload does. Models refused (invalid, a name the dataset holds) are listed in `refused`; files left out (not models, or models past the 200 one import takes) by name in `skipped` and with the reason in `skipped_reasons`. In production, only public addresses are fetched (unless the host is in IMPORT_ALLOW_HOSTS). A URL that cannot be fetched or holds no model: 400 with `kind`.',
  params: idParams,
  body: { type: 'object', required: ['url'], properties: { url: { type: 'string', maxLength: 2000 } } },
  response: {
    201: {
      type: 'object',
      required: ['source', 'files', 'refused', 'skipped'],
      properties: {
        source: importSourceSchema,
        files: { type: 'array', items: restFileSchema },
        refused: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, message: { type: 'string' } } } },
        skipped: { type: 'array', items: { type: 'string' } },
        skipped_reasons: { type: 'array', items: { type: 'object', required: ['name', 'reason'], properties: { name: { type: 'string' }, reason: { type: 'string' } } } },
      },
    },
    ...errors(400, 401, 403, 404, 409, 429),
  },
} as const;

export const deleteFileSchema = {
  tags, summary: 'Remove a file from an unsynchronized dataset', params: fileParams,
  response: { 204: { type: 'null', description: 'Removed.' }, ...errors(401, 403, 404, 409, 429) },
} as const;

export const publishSchema = {
  tags,
  summary: 'Deposit the dataset and get its DOI',
  description: 'Pushes the dataset to the deposit repository. A failed push leaves it unsynchronized: 200 with status "partial".',
  params: idParams,
  response: {
    200: {
      type: 'object',
      required: ['status', 'dataset_id'],
      properties: {
        status: { type: 'string', enum: ['ok', 'partial'] },
        dataset_id: { type: 'integer' },
        doi: { type: 'string' },
        url: { type: 'string', description: 'The public DOI URL.' },
        message: { type: 'string', description: 'Why the push failed (status "partial").' },
      },
    },
    ...errors(400, 401, 403, 404, 409, 429),
  },
} as const;

export const newVersionSchema = {
  tags,
  summary: 'Start a new version of a synchronized dataset',
  description: 'Creates an unsynchronized dataset with copies of the files and metadata of the newest version; '
    + 'its publish deposits it as a new version (new DOI, same concept DOI). Only the newest version, with no other version waiting.',
  params: idParams,
  response: { 201: datasetSchema, ...errors(401, 403, 404, 409, 429) },
} as const;
