// Stored results kept in memory as the bytes sent: a large model's commonality is tens of MB, so
// it is read from the database, encoded and compressed once, not per request. A stored result
// never changes, so nothing is ever invalidated; the oldest go when the budget is full.
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

/** A stored result as sent: its UTF-8 bytes, and compressed forms once they are ready. */
export interface StoredBody { bytes: Buffer; gzip?: Buffer; br?: Buffer }

/** Bytes of stored results kept (compressed forms not counted: they are a few percent). */
const CACHED_BYTES = 160 * 1024 * 1024;
/** Smaller results go out as they are: compressing would not pay. */
const MIN_COMPRESS_BYTES = 64 * 1024;
/**
 * Results up to this size get brotli quality 10: compressed once, sent to every visitor (the
 * model page's tree of automotive2_4, 855 KB: 146 KB instead of 180 KB at quality 5, in about
 * 0.5 s of one thread of zlib's pool, 1.8 s on a loaded machine; quality 11 saves 7 KB more for
 * five times that, which competed with the first visits after a start). Larger ones (a
 * commonality of 29 MB) quality 5.
 */
const BEST_QUALITY_BYTES = 2 * 1024 * 1024;
const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

export function createResultCache(onError: (error: unknown) => void) {
  const bodies = new Map<string, StoredBody>();
  let total = 0;

  /** In zlib's thread pool, not on the event loop; the plain bytes are sent until each form is ready. */
  async function compress(body: StoredBody): Promise<void> {
    try {
      body.gzip = await gzipAsync(body.bytes, { level: 6 });
      const quality = body.bytes.length <= BEST_QUALITY_BYTES ? 10 : 5;
      body.br = await brotliAsync(body.bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: quality, [zlib.BROTLI_PARAM_SIZE_HINT]: body.bytes.length } });
    } catch (error) {
      onError(error);
    }
  }

  return {
    get: (key: string): StoredBody | undefined => bodies.get(key),

    /** The result's body, kept unless it alone would take a third of the budget. */
    remember(key: string, json: string): StoredBody {
      // Two requests that missed the same result at once both come here: the first one's body is
      // kept (it is the same result), and its bytes are counted once.
      const known = bodies.get(key);
      if (known) return known;
      const body: StoredBody = { bytes: Buffer.from(json, 'utf8') };
      if (body.bytes.length > CACHED_BYTES / 3) return body;
      bodies.set(key, body);
      total += body.bytes.length;
      for (const [oldKey, old] of bodies) {
        if (total <= CACHED_BYTES) break;
        bodies.delete(oldKey);
        total -= old.bytes.length;
      }
      if (body.bytes.length >= MIN_COMPRESS_BYTES) void compress(body);
      return body;
    },
  };
}
