import type { Id } from '../../core/db/database.ts';

export interface UserTable {
  id: Id;
  email: string;
  /** scrypt hash with its salt and parameters; never the plain password. */
  password: string;
  created_at: string;
}

export interface LoginAttemptTable {
  id: Id;
  /** `email:<address>` or `ip:<address>`. */
  subject: string;
  attempted_at: string;
}

declare module '../../core/db/database.ts' {
  interface Database {
    user: UserTable;
    login_attempt: LoginAttemptTable;
  }
}
