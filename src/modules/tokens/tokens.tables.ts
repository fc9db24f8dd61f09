import type { Id } from '../../core/db/database.ts';

export interface ApiTokenTable {
  id: Id;
  user_id: number;
  name: string;
  /** The public part of the token, `hub_<public_id>_<secret>`: finds the row. */
  public_id: string;
  /** SHA-256 (hex) of the secret part; the token itself is never stored. */
  secret_hash: string;
  /** `read`, `write` or `read write`. */
  scopes: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

declare module '../../core/db/database.ts' {
  interface Database {
    api_token: ApiTokenTable;
  }
}
