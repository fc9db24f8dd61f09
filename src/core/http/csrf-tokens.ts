// CSRF tokens for the layout's meta tag and forms (decisions section 3), made with the library
// @fastify/csrf-protection verifies them with (same options: its defaults).
import { randomBytes } from 'node:crypto';
import Tokens from '@fastify/csrf';
import { LruMap } from '../lru-map.ts';
import { mayCompress } from './compression.ts';

export class CsrfTokens {
  private readonly tokens = Tokens();
  /**
   * One token per secret, made on its session's first page: any token of the secret is valid,
   * and making one costs a random salt and a hash on every page otherwise.
   */
  private readonly made = new LruMap<string, string>(10_000);

  tokenFor(secret: string): string {
    return this.made.getOrMake(secret, this.create);
  }

  /** The token of a secret never seen before (a new session's), kept for its later pages. */
  prepare(secret: string): string {
    return this.made.makeNew(secret, this.create);
  }

  private readonly create = (secret: string): string => this.tokens.create(secret);
}

/**
 * A token as a page that may go out compressed shows it: XORed with a fresh random pad, the pad
 * beside it (`<pad>.<masked>`, base64url). A compressed page that holds the same secret on every
 * answer next to text the visitor's address put there (the explore page's query) would let an
 * observer of the answers' sizes guess the secret letter by letter (BREACH); a masked token differs
 * on every answer. unmaskCsrfToken gives back the token the plugin verifies.
 */
export function maskCsrfToken(token: string): string {
  const plain = Buffer.from(token, 'utf8');
  const pad = randomBytes(plain.length);
  for (let i = 0; i < plain.length; i++) plain[i]! ^= pad[i]!;
  return `${pad.toString('base64url')}.${plain.toString('base64url')}`;
}

/**
 * The token as a page shows it to this request: masked afresh when the answer may go out
 * compressed (its Accept-Encoding names br or gzip), as it is otherwise.
 */
export function shownCsrfToken(acceptEncoding: string | string[] | undefined, token: string): string {
  return mayCompress(acceptEncoding) ? maskCsrfToken(token) : token;
}

/** The token a masked one hides; any other value as it is (tokens hold no '.'). */
export function unmaskCsrfToken(value: string): string {
  const dot = value.indexOf('.');
  if (dot < 0) return value;
  const pad = Buffer.from(value.slice(0, dot), 'base64url');
  const masked = Buffer.from(value.slice(dot + 1), 'base64url');
  if (pad.length !== masked.length || pad.length === 0) return value;
  for (let i = 0; i < masked.length; i++) masked[i]! ^= pad[i]!;
  return masked.toString('utf8');
}
