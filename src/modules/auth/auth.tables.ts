import type { Id } from '../../core/db/database.ts';

export interface UserTable {
  id: Id;
  email: string;
  /** scrypt hash with its salt and parameters; never the plain password. */
  password: string;
  created_at: string;
  /** Set by a password reset or change: sessions logged in before it are ended (extensions section 5). */
  credentials_changed_at: string | null;
}

export interface AccountTokenTable {
  id: Id;
  user_id: number;
  purpose: 'reset' | 'email';
  /** SHA-256 (hex) of the token sent in the link; the token itself is never stored. */
  token_hash: string;
  /** The address an email change confirms. */
  new_email: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface LoginAttemptTable {
  id: Id;
  /** `account:<email>` or `pair:<sha256 of email and address>` (`email:`/`ip:` rows of earlier versions expire unused). */
  subject: string;
  attempted_at: string;
}

declare module '../../core/db/database.ts' {
  interface Database {
    user: UserTable;
    login_attempt: LoginAttemptTable;
    account_token: AccountTokenTable;
  }
}
