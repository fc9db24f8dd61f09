// The database type. Each module adds its own tables to `Database` by declaration
// merging in its `<name>.tables.ts`, so core never imports a module.
import type { Generated } from 'kysely';

export interface SessionTable {
  sid: string;
  data: string;
  /** ISO 8601 UTC; rows past it are ignored and swept. */
  expires_at: string;
}

export interface Database {
  session: SessionTable;
}

export type Id = Generated<number>;

/** Timestamps are stored as ISO 8601 UTC text: identical on the three dialects and sortable as text. */
export function nowIso(): string {
  // Asked several times a millisecond on a busy server (every record, every session write).
  const now = Date.now();
  if (now !== isoMs) {
    isoMs = now;
    iso = new Date(now).toISOString();
  }
  return iso;
}
let isoMs = -1;
let iso = '';

/** Shared shape of the four metric record tables; user_key is the user id or 0 when anonymous. */
export interface RecordColumns {
  id: Id;
  user_id: number | null;
  user_key: number;
  date: string;
  cookie: string;
}
