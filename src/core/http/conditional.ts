// Conditional GET (RFC 9110 section 13.1.1 and 13.1.3), shared by the static assets and the
// stored files: If-None-Match wins over If-Modified-Since; entity tags compare weakly.
import type { FastifyRequest } from 'fastify';

/**
 * True when the client's copy is current: one of its If-None-Match tags (or `*`) names `tag`
 * (quotes, `W/` and an encoding suffix `-br`/`-gz` aside), or, without If-None-Match, the
 * resource was not modified after If-Modified-Since (one-second resolution, as HTTP dates).
 */
export function clientHasCurrent(request: FastifyRequest, tag: string, mtimeMs: number): boolean {
  const inm = request.headers['if-none-match'];
  if (inm !== undefined) {
    return inm.split(',').some((raw) => {
      const t = raw.trim().replace(/^W\//, '');
      return t === '*' || t.replace(/^"|"$/g, '').replace(/-(br|gz)$/, '') === tag;
    });
  }
  const ims = request.headers['if-modified-since'];
  if (ims === undefined) return false;
  const since = Date.parse(ims);
  return !Number.isNaN(since) && Math.floor(mtimeMs / 1000) * 1000 <= since;
}
