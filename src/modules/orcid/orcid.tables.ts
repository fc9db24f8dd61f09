// The orcid module's table (migration 2026_11_27_0200): the ORCID iD each account signs in with.
export interface OrcidAccountTable {
  user_id: number;
  orcid: string;
  /** 1 when the first ORCID sign-in created the account. */
  created_account: number;
  linked_at: string;
}

declare module '../../core/db/database.ts' {
  interface Database {
    orcid_account: OrcidAccountTable;
  }
}
