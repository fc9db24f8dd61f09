// Every text answer over 1 KB goes out compressed (issue 37, item 1): brotli or gzip as the
// client's Accept-Encoding allows, with @fastify/compress. A page of automotive2_4's model holds
// hundreds of KB of HTML, its feature tree 876 KB of JSON and each configurator answer up to
// 633 KB; compressed they are a tenth of that or less.
//
// Off the serving thread: bodies above SYNC_BYTES go through zlib's streams, which compress in
// libuv's thread pool; only small ones are compressed synchronously, where a stream would cost
// more than the work. Brotli at quality 4 (the plugin's default): about as small as gzip 9 on
// these bodies and several times faster than quality 11, which is for bodies compressed once and
// kept (assets.ts, configurator.cache.ts). Answers that carry a Content-Encoding already (assets,
// stored results, sample streams) are sent as they are.
import type { FastifyInstance } from 'fastify';
import fastifyCompress from '@fastify/compress';

/** Smaller answers go out as they are: compression would not save a packet. */
export const COMPRESS_MIN_BYTES = 1024;
/** Bodies up to this size are compressed on the event loop (well under a millisecond at these settings). */
const SYNC_BYTES = 16 * 1024;

/** Registered before the routes: the plugin adds its hook to each route as it is declared. */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    globalCompression: true,
    // Request bodies are read as they come, as before: only answers are compressed here.
    globalDecompression: false,
    threshold: COMPRESS_MIN_BYTES,
    syncThreshold: SYNC_BYTES,
    // br first: on JSON of feature names it is a third smaller than gzip at a similar cost.
    encodings: ['br', 'gzip'],
  });
}
