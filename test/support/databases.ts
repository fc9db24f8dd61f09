// Test databases: SQLite always, plus every server listed in TEST_DATABASE_URLS
// (comma separated). Each test gets a fresh database with a unique name, dropped after.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, MysqlDialect, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { createPool } from 'mysql2';
import { connect, dialectOf, type DialectName, type Db } from '../../src/core/db/connect.ts';
import { migrateToLatest } from '../../src/core/db/migrate.ts';

export interface TestDatabase {
  dialect: DialectName;
  url: string;
  /** Drops the database (server dialects) or removes its file (SQLite). */
  drop(): Promise<void>;
}

/** The dialects to run database tests on: sqlite always, then each TEST_DATABASE_URLS entry. */
export function testDialects(): { name: DialectName; baseUrl: string }[] {
  const extra = (process.env.TEST_DATABASE_URLS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return [{ name: 'sqlite' as const, baseUrl: 'sqlite:' }, ...extra.map((url) => ({ name: dialectOf(url), baseUrl: url }))];
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function createTestDatabase(baseUrl: string): Promise<TestDatabase> {
  const dialect = dialectOf(baseUrl);
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'hub-test-'));
    return { dialect, url: `sqlite:${join(dir, 'hub.sqlite')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `hub_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = dialect === 'postgres'
    ? new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: baseUrl, max: 1 }) }) })
    : new Kysely<any>({ dialect: new MysqlDialect({ pool: createPool({ uri: baseUrl, connectionLimit: 1 }) }) });
  try {
    await sql`CREATE DATABASE ${sql.id(name)}${dialect === 'mysql' ? sql` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci` : sql``}`.execute(admin);
  } finally {
    await admin.destroy();
  }
  return {
    dialect,
    url: withDatabase(baseUrl, name),
    async drop() {
      const again = dialect === 'postgres'
        ? new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: baseUrl, max: 1 }) }) })
        : new Kysely<any>({ dialect: new MysqlDialect({ pool: createPool({ uri: baseUrl, connectionLimit: 1 }) }) });
      try {
        await sql`DROP DATABASE IF EXISTS ${sql.id(name)}${dialect === 'postgres' ? sql` WITH (FORCE)` : sql``}`.execute(again);
      } finally {
        await again.destroy();
      }
    },
  };
}

/** A fresh, migrated database handle for repository and service tests. */
export async function openMigratedDatabase(baseUrl: string): Promise<{ db: Db; database: TestDatabase; close(): Promise<void> }> {
  const database = await createTestDatabase(baseUrl);
  const db = connect(database.url);
  await migrateToLatest(db);
  return {
    db,
    database,
    async close() {
      await db.destroy();
      await database.drop();
    },
  };
}
