// Route schemas of the JSON API (extensions section 3): how they validate and how a refusal is
// answered, 400 `{"message", "field"}` naming the first offending field. Query strings and path
// parameters are text, so they are coerced to the declared type; a JSON body is taken as sent
// (`{"name": 5}` is refused, not turned into "5").
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { HttpError } from './errors.ts';

const options = { useDefaults: true, removeAdditional: true, allErrors: false, strict: false } as const;
const coercing = new Ajv({ ...options, coerceTypes: 'array' });
const exact = new Ajv({ ...options, coerceTypes: false });
for (const ajv of [coercing, exact]) addFormats.default(ajv);

/** Whether a request URL or route path is the JSON API's (`/api/v1` and below). */
export const isApiUrl = (url: string) => url === '/api/v1' || url.startsWith('/api/v1/') || url.startsWith('/api/v1?');

export function validatorCompiler({ schema, httpPart }: { schema: object; httpPart?: string }): ValidateFunction {
  return (httpPart === 'body' ? exact : coercing).compile(schema);
}

/** The error body of every API route, for the response schemas and the OpenAPI document. */
/** A route whose only documented answer is 405: a method the path does not offer (the OpenAPI document and the 405s of route-methods.ts leave it out). */
export function isNotAllowedOnly(schema: { response?: unknown } | undefined): boolean {
  const answers = Object.keys((schema?.response ?? {}) as object);
  return answers.length === 1 && answers[0] === '405';
}

export const errorSchema = {
  type: 'object',
  description: 'What went wrong; `field` names the refused field of a request that does not match its schema.',
  properties: {
    message: { type: 'string' },
    field: { type: 'string' },
    errors: { description: 'Details: a model\'s syntax errors, or messages per field.' },
  },
  additionalProperties: true,
} as const;

const PARTS: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

export function schemaError(errors: FastifySchemaValidationError[], dataVar: string): Error {
  const first = errors[0];
  const params = (first?.params ?? {}) as Record<string, unknown>;
  const path = (first?.instancePath ?? '').split('/').filter(Boolean).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (typeof params.missingProperty === 'string') path.push(params.missingProperty);
  if (typeof params.additionalProperty === 'string') path.push(params.additionalProperty);
  const field = path.join('.');
  const where = PARTS[dataVar] ?? dataVar;
  let message: string;
  if (!first) message = `The ${where} is not valid.`;
  else if (typeof params.missingProperty === 'string') message = `${field} is required (${where}).`;
  else if (typeof params.additionalProperty === 'string') message = `${field} is not a known field (${where}).`;
  else if (field === '') message = `The ${where} ${first.message ?? 'is not valid'}.`;
  else message = `${field} ${first.message ?? 'is not valid'} (${where}).`;
  return new HttpError(400, 'invalid_request', message, { message, field: field || where });
}
