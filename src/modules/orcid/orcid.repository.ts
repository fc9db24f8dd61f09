// Queries on the orcid module's own table.
import type { DbOrTrx } from '../../core/db/connect.ts';
import type { OrcidAccountTable } from './orcid.tables.ts';

export type OrcidLink = OrcidAccountTable;

const toLink = (row: OrcidAccountTable): OrcidLink => ({ ...row, user_id: Number(row.user_id), created_account: Number(row.created_account) });

export async function findByOrcid(db: DbOrTrx, orcid: string): Promise<OrcidLink | undefined> {
  const row = await db.selectFrom('orcid_account').selectAll().where('orcid', '=', orcid).executeTakeFirst();
  return row && toLink(row);
}

export async function findByUser(db: DbOrTrx, userId: number): Promise<OrcidLink | undefined> {
  const row = await db.selectFrom('orcid_account').selectAll().where('user_id', '=', userId).executeTakeFirst();
  return row && toLink(row);
}

export async function insertLink(db: DbOrTrx, link: OrcidLink): Promise<void> {
  await db.insertInto('orcid_account').values(link).execute();
}

export async function deleteLink(db: DbOrTrx, userId: number): Promise<void> {
  await db.deleteFrom('orcid_account').where('user_id', '=', userId).execute();
}
