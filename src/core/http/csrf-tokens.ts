// CSRF tokens for the layout's meta tag and forms (decisions section 3), made with the library
// @fastify/csrf-protection verifies them with (same options: its defaults).
import Tokens from '@fastify/csrf';
import { LruMap } from '../lru-map.ts';

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
