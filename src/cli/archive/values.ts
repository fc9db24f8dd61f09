// One row of a table as a line of JSON in the archive, and back. JSON has no big integers, bytes
// or dates, and each driver answers them differently (pg: BIGINT as a string; SQLite and MariaDB,
// opened for export, as BigInt or a string): each value is written by its column's kind so that
// it reads back the same into any of the three databases.
import type { DialectName } from '../../core/db/connect.ts';
import type { ColumnInfo } from './schema.ts';

type Json = string | number | boolean | null | { $bytes: string };

export function encodeValue(value: unknown, column: ColumnInfo): Json {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return { $bytes: Buffer.from(value).toString('base64') };
  if (value instanceof Date) return value.toISOString();
  switch (column.kind) {
    case 'bigint': return String(value); // exact past 2^53
    case 'integer': return Number(value);
    case 'number': return typeof value === 'bigint' ? Number(value) : (value as number);
    case 'boolean': return value === true || value === 1 || value === 1n || value === '1' || value === 't';
    default: return typeof value === 'bigint' ? String(value) : (value as string | number);
  }
}

export function decodeValue(value: Json, column: ColumnInfo, dialect: DialectName): unknown {
  if (value === null) return null;
  if (typeof value === 'object') return Buffer.from(value.$bytes, 'base64');
  if (column.kind === 'integer' && typeof value === 'string') return Number(value);
  if (column.kind === 'bigint') return dialect === 'sqlite' ? BigInt(value as string) : String(value);
  // SQLite and MariaDB keep booleans as 0 and 1.
  if (column.kind === 'boolean') return dialect === 'postgres' ? Boolean(value) : (value ? 1 : 0);
  return value;
}

/** A row as one JSON line: the values in the columns' order. */
export function encodeRow(row: Record<string, unknown>, columns: ColumnInfo[]): string {
  return JSON.stringify(columns.map((c) => encodeValue(row[c.name], c)));
}

export function decodeRow(line: string, columns: ColumnInfo[], dialect: DialectName): Record<string, unknown> {
  const values = JSON.parse(line) as Json[];
  if (!Array.isArray(values) || values.length !== columns.length) throw new Error('A row of the archive does not match its table\'s columns');
  return Object.fromEntries(columns.map((c, i) => [c.name, decodeValue(values[i]!, c, dialect)]));
}

const INTEGER = /^-?\d+$/;
const DECIMAL = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Whether an archived value can be written into a column of this kind as encodeValue writes it
 * (the kinds of the importing database: MariaDB keeps booleans as integers, SQLite gives a
 * numeric text column numbers). NOT NULL, keys and references are the database's to check.
 */
function fits(value: unknown, kind: ColumnInfo['kind']): boolean {
  if (value === null) return true;
  if (typeof value === 'object') {
    const bytes = !Array.isArray(value) && Object.keys(value as object).length === 1 && Object.hasOwn(value as object, '$bytes');
    return bytes && (kind === 'bytes' || kind === 'text') && typeof (value as { $bytes: unknown }).$bytes === 'string' && BASE64.test((value as { $bytes: string }).$bytes);
  }
  switch (kind) {
    case 'integer': return Number.isSafeInteger(value) || typeof value === 'boolean' || (typeof value === 'string' && INTEGER.test(value));
    case 'bigint': return Number.isSafeInteger(value) || (typeof value === 'string' && INTEGER.test(value));
    case 'number': return (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && DECIMAL.test(value));
    case 'boolean': return typeof value === 'boolean' || value === 0 || value === 1;
    case 'bytes': return false;
    default: return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
  }
}

/** Why an archived row line does not fit the columns, or undefined when it does. */
export function rowProblem(line: string, columns: ColumnInfo[]): string | undefined {
  let values: unknown;
  try {
    values = JSON.parse(line);
  } catch {
    return 'is not JSON';
  }
  if (!Array.isArray(values)) return 'is not an array of values';
  if (values.length !== columns.length) return `has ${values.length} values for ${columns.length} columns`;
  const wrong = columns.findIndex((c, i) => !fits(values[i], c.kind));
  return wrong < 0 ? undefined : `has a value of column ${columns[wrong]!.name} that is no ${columns[wrong]!.kind} value`;
}
