// The cart of a signed-in user (extensions section 8): the files they collected across datasets.
// A visitor's cart lives in the session; this table keeps a user's across sessions.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('cart_item')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    // A file deleted with its dataset leaves every cart.
    .addColumn('file_id', 'integer', (c) => c.notNull().references('file.id').onDelete('cascade'))
    .addColumn('added_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('cart_item_pk', ['user_id', 'file_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('cart_item').ifExists().execute();
}
