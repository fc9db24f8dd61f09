// The orcid module's table (migration 2026_11_27_0200): the ORCID iD each account signs in with.
export interface OrcidAccountTable {
  user_id: number;
  orcid: string;
  /** 1 when the first ORCID sign-in created the account. */
  created_account: number;
  linked_at: string;
  /**
   * 0 for an account an earlier first sign-in made without confirming its address (migration
   * 2026_12_05_0400): its first password reset unlinks the iD. 1 otherwise.
   */
  address_confirmed: number;
}

// Migration 2026_12_05_0400: a first sign-in's address waiting for its link to be opened.
export interface OrcidClaimTable {
  orcid: string;
  email: string;
  name: string;
  surname: string;
  token_hash: string;
  sends: number;
  window_start: string;
  expires_at: string;
}

declare module '../../core/db/database.ts' {
  interface Database {
    orcid_account: OrcidAccountTable;
    orcid_claim: OrcidClaimTable;
  }
}
