// ORCID first sign-in (extensions section 11): the address asked for is confirmed by a link before
// an account holds it. Until then it waits here as a claim of the proven iD, one per iD (a new
// address replaces the last), its link's token kept as a hash. The address belongs to nobody
// while it waits: no unique key on it, so its owner can still sign up.
// Accounts that earlier first sign-ins made took their address unconfirmed: their links are marked
// (address_confirmed 0), and the first password reset, which proves the mailbox, unlinks the iD.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('orcid_claim')
    .addColumn('orcid', 'varchar(19)', (c) => c.primaryKey())
    .addColumn('email', 'varchar(256)', (c) => c.notNull())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('surname', 'varchar(100)', (c) => c.notNull())
    // SHA-256 (hex) of the token in the link.
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    // Links sent for this iD since window_start: bounds the mail one iD can make the hub send.
    .addColumn('sends', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('orcid_account').addColumn('address_confirmed', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.updateTable('orcid_account').set({ address_confirmed: 0 }).where('created_account', '=', 1).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orcid_account').dropColumn('address_confirmed').execute();
  await db.schema.dropTable('orcid_claim').ifExists().execute();
}
