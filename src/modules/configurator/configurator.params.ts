// The query of GET /api/v1/files/<id>/samples checked (extensions section 6): bad values are a
// 400 with a message. Each sample request becomes one canonical parameter text, its stored key.
import { createHash } from 'node:crypto';
import { badRequest } from '../../core/http/errors.ts';
import { formatNameList, parseNameList } from '../../../packages/uvl/src/index.ts';
import type { ConfiguratorOp } from './configurator.protocol.ts';

export const MAX_SAMPLE_SIZE = 10_000;
const MAX_SEED = 2 ** 32 - 1;
/** Longer parameter texts (many decisions) are stored by their hash. */
const MAX_PARAMS = 128;

export type SampleRequest = Extract<ConfiguratorOp, { op: 'uniform' | 'twise' }>;

function integerIn(query: Record<string, unknown>, name: string, min: number, max: number, fallback: number): number {
  const raw = query[name];
  if (raw === undefined || raw === '') return fallback;
  const text = typeof raw === 'number' ? String(raw) : raw;
  if (typeof text !== 'string' || !/^\d+$/.test(text)) throw badRequest(`${name} must be an integer from ${min} to ${max}`, { message: `${name} must be an integer from ${min} to ${max}` });
  const value = Number(text);
  if (value < min || value > max) throw badRequest(`${name} must be an integer from ${min} to ${max}`, { message: `${name} must be an integer from ${min} to ${max}` });
  return value;
}

/** A comma-separated list of feature names (`select=A,B`, a name with a comma quoted as in UVL); names are checked by the engine. */
export function nameList(raw: unknown): string[] {
  if (raw === undefined || raw === '') return [];
  if (typeof raw !== 'string') throw badRequest('select and deselect are comma-separated feature names', { message: 'select and deselect are comma-separated feature names' });
  return [...new Set(parseNameList(raw))];
}

/** The names of a JSON array of decisions, each once and exactly as given (a UVL name may hold commas and outer blanks). */
export function distinctNames(list: string[] | undefined): string[] {
  return [...new Set((list ?? []).filter((s) => s !== ''))];
}

export function parseSampleQuery(query: Record<string, unknown>): SampleRequest {
  const seed = integerIn(query, 'seed', 0, MAX_SEED, 1);
  if (query.kind === 'uniform') {
    const n = integerIn(query, 'n', 1, MAX_SAMPLE_SIZE, 100);
    return { op: 'uniform', n, seed, selected: nameList(query.select).sort(), deselected: nameList(query.deselect).sort() };
  }
  if (query.kind === 'twise') {
    const t = integerIn(query, 't', 1, 3, 2) as 1 | 2 | 3;
    return { op: 'twise', t, seed };
  }
  throw badRequest('kind must be uniform or twise', { message: 'kind must be uniform or twise' });
}

/** The stored key's parameter text: equal requests give equal texts, and different ones different texts (names quoted as in UVL where a comma would make them ambiguous). */
export function paramsText(request: SampleRequest): string {
  const text = request.op === 'uniform'
    ? `n=${request.n};seed=${request.seed};select=${formatNameList(request.selected)};deselect=${formatNameList(request.deselected)}`
    : `t=${request.t};seed=${request.seed}`;
  return text.length <= MAX_PARAMS ? text : `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}
