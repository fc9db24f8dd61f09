// The deploy endpoint's shared bearer token (specification, Authentication rule 6).
import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Read on every request, never cached: the secret can be rotated (or removed) in the
 * environment of a running process and the next request must see it (rule 6a).
 */
export function configuredToken(env: NodeJS.ProcessEnv = process.env): string | null {
  const token = env.WEBHOOK_TOKEN;
  return token ? token : null;
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Compares the whole Authorization header with `Bearer <token>` in constant time
 * (rule 6c). Both sides are hashed first, so the comparison does not leak the
 * token's length either; a missing header compares as the empty string.
 */
export function authorizationMatches(header: string | undefined, token: string): boolean {
  return timingSafeEqual(digest(header ?? ''), digest(`Bearer ${token}`));
}
