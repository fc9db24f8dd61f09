import type { Id } from '../../core/db/database.ts';

export interface UserProfileTable {
  id: Id;
  user_id: number;
  name: string;
  surname: string;
  orcid: string | null;
  affiliation: string | null;
}

declare module '../../core/db/database.ts' {
  interface Database {
    user_profile: UserProfileTable;
  }
}
