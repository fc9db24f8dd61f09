// JSON schemas of the api module's own routes (extensions section 3).
import { errorSchema } from '../../core/http/api-schemas.ts';
import { restFileSchema } from '../hubfile/index.ts';

const errors = (...codes: number[]) => Object.fromEntries(codes.map((code) => [code, errorSchema]));

export const fileSchema = {
  tags: ['files'],
  summary: 'A file\'s metadata',
  description: 'Files of an unsynchronized dataset are visible to its owner only (404 for anyone else).',
  // No minimum: 0 is an id no file has, 404 (docs/decisions-taken.md), as for a dataset.
  params: { type: 'object', required: ['file_id'], properties: { file_id: { type: 'integer' } } },
  response: { 200: restFileSchema, ...errors(401, 404, 429) },
} as const;

const searchResult = {
  type: 'object',
  additionalProperties: true,
  description: 'The search result object of decisions section 4.',
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    description: { type: 'string' },
    authors: {
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' }, affiliation: { type: ['string', 'null'] }, orcid: { type: ['string', 'null'] } } },
    },
    tags: { type: 'array', items: { type: 'string' } },
    publication_type: { type: 'string' },
    publication_doi: { type: ['string', 'null'] },
    dataset_doi: { type: ['string', 'null'] },
    url: { type: ['string', 'null'] },
    download: { type: 'string' },
    zenodo: { type: ['string', 'null'] },
    created_at: { type: 'string' },
    created_at_timestamp: { type: 'integer' },
    version: { type: 'integer', description: 'The version number (1 for a first version).' },
    version_count: { type: 'integer', description: 'How many versions the dataset has.' },
    files: {
      type: 'array',
      items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, size: { type: 'integer' }, size_human: { type: 'string' } } },
    },
    files_count: { type: 'integer' },
    total_size_in_bytes: { type: 'integer' },
    total_size_in_human_format: { type: 'string' },
  },
} as const;

/** The search's schema; `maxTerms` comes from the explore service, whose rules the body follows. */
export const searchSchemaOf = (maxTerms: number) => ({
  tags: ['search'],
  summary: 'Search synchronized datasets',
  description: 'The body and the answer of POST /explore. No body is an empty query (every synchronized dataset, newest first).',
  body: {
    type: ['object', 'null'],
    properties: {
      query: { type: 'string', description: `Free text; at most ${maxTerms} different words.` },
      publication_type: { type: 'string', description: 'A publication type value, or "any" (default); an unknown value is ignored.' },
      tags: { type: 'array', items: { type: 'string' }, maxItems: maxTerms, description: 'Any of these tags (substring, case-insensitive).' },
      sorting: { type: 'string', description: '"newest" (default) or "oldest".' },
      limit: { type: 'integer', minimum: 0, maximum: 2147483647 },
      offset: { type: 'integer', minimum: 0, maximum: 2147483647 },
      models: {
        type: 'object',
        description: 'Model characteristics (extensions section 1): features, constraints, depth and configurations ranges ({"min", "max"}), satisfiable, has_dead, language_level, feature; a dataset matches when one of its models satisfies every given field.',
      },
    },
  },
  response: { 200: { type: 'array', items: searchResult }, ...errors(400, 401, 429) },
}) as const;

export const openapiSchema = {
  tags: ['meta'],
  summary: 'This OpenAPI 3.1 document',
  response: { 200: { type: 'object', additionalProperties: true } },
} as const;
