// One row keyed by one column, written whether or not it exists, on all three dialects: their
// upsert statements differ (ON CONFLICT, ON DUPLICATE KEY), so an UPDATE comes first.
import type { Insertable, Kysely } from 'kysely';
import { isUniqueViolation, type DbOrTrx } from './connect.ts';
import type { Database } from './database.ts';

/**
 * Updates the row whose `key` column holds `row[key]` with the rest of `row`; when there is none,
 * inserts `row`; when another writer inserted it in between (a unique violation), updates again,
 * so the last writer's values stay.
 */
export async function updateElseInsert<T extends keyof Database & string>(
  db: DbOrTrx,
  table: T,
  key: keyof Database[T] & string,
  row: Insertable<Database[T]>,
): Promise<void> {
  // Kysely's builders cannot type a table chosen by a parameter: the table's row type is checked above.
  const anyDb = db as unknown as Kysely<any>;
  const column: string = key;
  const { [column]: keyValue, ...values } = row as Record<string, unknown>;
  const update = () => anyDb.updateTable(table as string).set(values).where(column, '=', keyValue).executeTakeFirst();
  const updated = await update();
  if (Number(updated.numUpdatedRows) > 0) return;
  try {
    await anyDb.insertInto(table as string).values(row as Record<string, unknown>).execute();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await update();
  }
}
