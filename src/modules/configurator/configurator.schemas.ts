// Route schemas of the configurator's API (extensions section 6, "In the hub"), for validation
// and the OpenAPI document. Answers are the engine's shapes, described rather than enumerated.
import { errorSchema } from '../../core/http/api-schemas.ts';
import { MAX_SAMPLE_SIZE } from './configurator.params.ts';

const errors = (...codes: number[]) => Object.fromEntries(codes.map((code) => [code, errorSchema]));
// No minimum: 0 is an id no file has, 404 like any other unknown id (docs/decisions-taken.md, as
// the analysis route and the dataset API answer it), not a 400 about the address.
const fileParams = { type: 'object', required: ['file_id'], properties: { file_id: { type: 'integer' } } } as const;
const open = (description: string) => ({ type: 'object', additionalProperties: true, description });
const pending = { type: 'object', description: 'Still computed by a worker: ask again after `Retry-After` seconds.', properties: { status: { type: 'string', enum: ['pending'] } } };
/** A sample's 202 (issue 37, item 6): with `progress` while this instance computes a t-wise sample whose worker reported. */
const pendingWithProgress = {
  ...pending,
  properties: {
    ...pending.properties,
    progress: {
      type: 'object',
      description: 'Interactions covered of the total known so far (it shrinks as invalid ones are found), seconds spent, and a linear estimate of the seconds left (null before any is covered).',
      properties: { covered: { type: 'integer' }, total: { type: 'integer' }, elapsed_s: { type: 'integer' }, estimate_s: { type: ['integer', 'null'] } },
    },
  },
};
const HIDDEN = 'A file of a dataset the caller may not see answers 404, as an unknown one.';

export const configureSchema = {
  tags: ['configurator'],
  summary: 'Propagate a partial configuration',
  description: `Every feature's state (selected, deselected, forced, excluded, open) after the decisions, the remaining configurations (exact decimal), or \`consistent: false\` with a minimal conflict; with \`why\`, the explanation of that feature's state. Reading only: no CSRF token and no \`write\` scope. ${HIDDEN}`,
  params: fileParams,
  body: {
    type: 'object',
    properties: {
      selected: { type: 'array', items: { type: 'string' }, maxItems: 100_000 },
      deselected: { type: 'array', items: { type: 'string' }, maxItems: 100_000 },
      why: { type: 'string', description: 'A feature whose state to explain.' },
      since: {
        type: 'object',
        description: 'The decisions of the state the caller holds: a consistent answer then gives `changed` (the features whose state differs from that state\'s) instead of `features`.',
        properties: {
          selected: { type: 'array', items: { type: 'string' }, maxItems: 100_000 },
          deselected: { type: 'array', items: { type: 'string' }, maxItems: 100_000 },
        },
        additionalProperties: false,
      },
      compact: {
        type: 'boolean',
        description: 'Without `since`: a consistent answer gives `states`, one letter per feature in the order of the model page\'s tree (`s` selected, `d` deselected, `f` forced, `x` excluded, `o` open), instead of `features`.',
      },
    },
  },
  response: {
    200: open('{"consistent": true, "remaining": "5120", "features": {"Engine": "forced"}, "why": {"feature", "state", "why": [...]}}; with `since`, `"changed": {"Turbo": "excluded"}` instead of `features`; or {"consistent": false, "conflict": {"decisions": [...], "constraints": [...]}}'),
    ...errors(400, 401, 404, 422, 429),
  },
} as const;

export const commonalitySchema = {
  tags: ['configurator'],
  summary: 'Every feature\'s commonality',
  description: `The number of configurations containing each feature (decimal string) and its probability. Computed once per file content and stored; 202 while a worker computes it. ${HIDDEN}`,
  params: fileParams,
  response: {
    200: open('{"configurations": "10240", "boolean_only": true, "features": {"Engine": {"commonality": "10240", "probability": 1}}}'),
    202: pending,
    ...errors(401, 404, 422, 429),
  },
} as const;

export const samplesSchema = {
  tags: ['configurator'],
  summary: 'A uniform or t-wise sample',
  description: `Kept per (file content, kind, parameters, engine version): 200 with the sample when it is ready (CSV with \`Accept: text/csv\`: the features sorted by name as header, one row of 0/1 per configuration), else 202 \`{"status": "pending"}\` with \`Retry-After\`. The same parameters and engine version give the same sample. ${HIDDEN}`,
  params: fileParams,
  querystring: {
    type: 'object',
    required: ['kind'],
    properties: {
      kind: { type: 'string', enum: ['uniform', 'twise'] },
      n: { type: 'integer', minimum: 1, maximum: MAX_SAMPLE_SIZE, description: 'uniform: the number of configurations (default 100).' },
      t: { type: 'integer', minimum: 1, maximum: 3, description: 'twise: the interaction strength (default 2).' },
      seed: { type: 'integer', minimum: 0, maximum: 4294967295, description: 'Default 1.' },
      select: { type: 'string', description: 'uniform: comma-separated features every configuration selects.' },
      deselect: { type: 'string', description: 'uniform: comma-separated features every configuration deselects.' },
      format: { type: 'string', enum: ['json', 'csv'], description: 'A download (Content-Disposition: attachment) in this format, for links that cannot send `Accept`.' },
    },
  },
  response: {
    200: open('{"kind": "uniform", "n", "seed", "engine_version", "features": [...], "configurations": [["A", "B"]]} or the t-wise shape of extensions section 6.'),
    202: pendingWithProgress,
    ...errors(400, 401, 404, 422, 429),
  },
} as const;

export const citationSchema = {
  tags: ['configurator'],
  summary: 'How to cite a sample',
  description: `The sample of the same query as \`/samples\` (computed or not: the engine version is part of its key), cited with its dataset's authors, year and DOI, the file, kind, parameters, seed and engine version: \`{"text", "bibtex", "csl"}\` (CSL-JSON), or one of them alone with \`format=text\` (text/plain), \`bibtex\` (application/x-bibtex) or \`csl\` (application/vnd.citationstyles.csl+json). ${HIDDEN}`,
  params: fileParams,
  querystring: {
    type: 'object',
    required: ['kind'],
    properties: {
      ...samplesSchema.querystring.properties,
      format: { type: 'string', enum: ['json', 'text', 'bibtex', 'csl'], description: 'One form alone (default: all three as JSON).' },
    },
  },
  response: {
    200: open('{"text": "...", "bibtex": "@misc{...}", "csl": {"type": "dataset", "author": [...], "issued": {...}, "DOI": "..."}}'),
    ...errors(400, 404),
  },
} as const;
