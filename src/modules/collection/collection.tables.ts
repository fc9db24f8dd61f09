// The collection module's tables (migration 2026_12_05_0430_collections).
import type { Generated } from 'kysely';

export interface CollectionTable {
  id: Generated<number>;
  user_id: number;
  title: string;
  description: string;
  /** Comma-separated (core/tags.ts); null when none. */
  tags: string | null;
  /** A saved search's query and filters as JSON text; null for a hand-made collection. */
  query: string | null;
  doi: string | null;
  concept_doi: string | null;
  deposition_id: number | null;
  version: Generated<number>;
  previous_id: number | null;
  created_at: string;
  published_at: string | null;
  /** Set while a publish runs (collection.publish.ts). */
  publish_claimed_at: string | null;
}

export interface CollectionMemberTable {
  collection_id: number;
  file_id: number;
  added_at: string;
}

declare module '../../core/db/database.ts' {
  interface Database {
    collection: CollectionTable;
    collection_member: CollectionMemberTable;
  }
}
