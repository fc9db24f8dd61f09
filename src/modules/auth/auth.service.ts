// Authentication service (specification, auth): accounts, credentials and login throttling.
// It never sees the request or the session: routes turn its answers into session changes.
import type { ModuleContext } from '../../core/modules.ts';
import { nowIso } from '../../core/db/database.ts';
import { isUniqueViolation } from '../../core/db/connect.ts';
import { hasControlCharacters, replaceControlCharacters } from '../../core/http/forms.ts';
import * as repo from './auth.repository.ts';
import { DUMMY_HASH, hashPassword, verifyPassword } from './password.ts';

export interface AuthUser {
  id: number;
  email: string;
  created_at: string;
}

export interface SignupInput {
  email: string;
  password: string;
  name: string;
  surname: string;
}

export type LoginResult =
  | { ok: true; user: AuthUser }
  | { ok: false; reason: 'invalid' | 'throttled' };

export class EmailInUseError extends Error {
  constructor(readonly email: string) {
    super(`${email} in use`);
  }
}

/** After this many failures within the window, further logins for that email or address are refused (decisions section 3). */
export const MAX_FAILURES = 10;
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function createAuthService(ctx: ModuleContext) {
  const { db } = ctx;

  async function isThrottled(subjects: string[]): Promise<boolean> {
    const since = new Date(Date.now() - FAILURE_WINDOW_MS).toISOString();
    for (const subject of subjects) {
      if ((await repo.countAttemptsSince(db, subject, since)) >= MAX_FAILURES) return true;
    }
    return false;
  }

  /** No stored email has control characters, and PostgreSQL cannot even compare text holding U+0000. */
  const findUserByEmail = async (normalized: string) =>
    (hasControlCharacters(normalized) ? undefined : repo.findUserByEmail(db, normalized));

  return {
    async isEmailAvailable(email: string): Promise<boolean> {
      return !(await findUserByEmail(normalizeEmail(email)));
    },

    /** Creates the user and its profile in one transaction; neither row survives a failure of the other. */
    async createWithProfile(input: SignupInput): Promise<AuthUser> {
      const email = normalizeEmail(input.email);
      const password = await hashPassword(input.password);
      try {
        return await db.transaction().execute(async (trx) => {
          const created_at = nowIso();
          const id = await repo.insertUser(trx, { email, password, created_at });
          await ctx.services.profile.createForNewUser(trx, id, { name: input.name, surname: input.surname });
          return { id, email, created_at };
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new EmailInUseError(email);
        throw error;
      }
    },

    /** Checks the credentials; `remoteAddress` feeds the throttle so passwords cannot be guessed at speed. */
    async login(emailInput: string, password: string, remoteAddress: string): Promise<LoginResult> {
      const email = normalizeEmail(emailInput);
      const subjects = [`email:${replaceControlCharacters(email, '?')}`.slice(0, 300), `ip:${remoteAddress}`];
      if (await isThrottled(subjects)) return { ok: false, reason: 'throttled' };
      const user = await findUserByEmail(email);
      const valid = await verifyPassword(password, user?.password ?? DUMMY_HASH);
      if (!user || !valid) {
        await repo.insertAttempts(db, subjects, nowIso());
        return { ok: false, reason: 'invalid' };
      }
      await repo.deleteAttempts(db, subjects[0]!);
      return { ok: true, user: { id: user.id, email: user.email, created_at: user.created_at } };
    },

    async getUser(id: number): Promise<AuthUser | undefined> {
      return repo.findUserById(db, id);
    },

    async getUserByEmail(email: string): Promise<AuthUser | undefined> {
      const user = await findUserByEmail(normalizeEmail(email));
      return user && { id: user.id, email: user.email, created_at: user.created_at };
    },

    async countUsers(): Promise<number> {
      return repo.countUsers(db);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
