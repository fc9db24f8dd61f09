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
