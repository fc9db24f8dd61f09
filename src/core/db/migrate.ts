import { Migrator, type Kysely, type MigrationResultSet } from 'kysely';
import { migrations } from '../../../migrations/index.ts';

function migrator(db: Kysely<any>): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => migrations } });
}

/** Applies every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  return check(await migrator(db).migrateToLatest());
}

/** Applies or reverts migrations until `name` is the last one applied (`hub import` of an older archive). */
export async function migrateTo(db: Kysely<any>, name: string): Promise<string[]> {
  return check(await migrator(db).migrateTo(name));
}

/** Reverts every migration (used by `hub db:reset`). */
export async function migrateDownAll(db: Kysely<any>): Promise<string[]> {
  const m = migrator(db);
  const applied: string[] = [];
  for (;;) {
    const result = await m.migrateDown();
    applied.push(...check(result));
    if (!result.results || result.results.length === 0) return applied;
  }
}

// Kysely returns migration failures instead of throwing them (design habit 5).
function check({ error, results }: MigrationResultSet): string[] {
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    const cause = error instanceof Error ? error.message : String(error);
    // No failed migration: the database could not be used at all (refused, unknown database, bad credentials).
    throw new Error(failed ? `Migration ${failed.migrationName} failed: ${cause}` : `Cannot apply the migrations (is DATABASE_URL right and the database reachable?): ${cause}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
