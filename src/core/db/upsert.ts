// One row keyed by one column, written whether or not it exists, on all three dialects: their
// upsert statements differ (ON CONFLICT, ON DUPLICATE KEY), so an UPDATE comes first.
import type { Insertable, Kysely } from 'kysely';
import { isUniqueViolation, type DbOrTrx } from './connect.ts';
import type { Database } from './database.ts';

/**
 * Updates the row whose `key` column holds `row[key]` with the rest of `row`; when there is none,
 * inserts `row`; when another writer inserted it in between (a unique violation), updates again,
 * so the last writer's values stay. With `newestBy` (a column that only grows, such as a
 * revision), the row is written only over one whose value there is not greater, so a writer that
 * read older data and comes last does not undo a newer one's. Answers whether `row` was written.
 */
export async function updateElseInsert<T extends keyof Database & string>(
  db: DbOrTrx,
  table: T,
  key: keyof Database[T] & string,
  row: Insertable<Database[T]>,
  options: { newestBy?: keyof Database[T] & string } = {},
): Promise<boolean> {
  // Kysely's builders cannot type a table chosen by a parameter: the table's row type is checked above.
  const anyDb = db as unknown as Kysely<any>;
  const column: string = key;
  const { [column]: keyValue, ...values } = row as Record<string, unknown>;
  const newestBy: string | undefined = options.newestBy;
  const update = async () => {
    let query = anyDb.updateTable(table as string).set(values).where(column, '=', keyValue);
    if (newestBy !== undefined) query = query.where(newestBy, '<=', values[newestBy]);
    // Rows matched, not rows changed: mysql2 connects with FOUND_ROWS by default, as SQLite and PostgreSQL count.
    return Number((await query.executeTakeFirst()).numUpdatedRows) > 0;
  };
  if (await update()) return true;
  // A row that the update left alone holds a newer value: an insert would be refused (and, on
  // PostgreSQL, end the transaction it runs in).
  if (newestBy !== undefined && (await anyDb.selectFrom(table as string).select(column).where(column, '=', keyValue).executeTakeFirst()) !== undefined) return false;
  try {
    await anyDb.insertInto(table as string).values(row as Record<string, unknown>).execute();
    return true;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return update();
  }
}
