// The review module's table (migration 2026_11_27_0300).
import type { Generated } from 'kysely';
import type { Id } from '../../core/db/database.ts';

export interface ReviewLinkTable {
  id: Id;
  dataset_id: number;
  token_hash: string;
  expires_on: string;
  created_at: string;
  revoked_at: string | null;
  views: Generated<number>;
}

declare module '../../core/db/database.ts' {
  interface Database {
    review_link: ReviewLinkTable;
  }
}
