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
import type { Readable } from 'node:stream';
import fastifyCompress from '@fastify/compress';

/** Smaller answers go out as they are: compression would not save a packet. */
export const COMPRESS_MIN_BYTES = 1024;
/** The encodings answers are compressed with, best first. */
const ENCODINGS = ['br', 'gzip'] as const;
const ACCEPTS_ONE = new RegExp(`\\b(?:${ENCODINGS.join('|')})\\b`, 'i');

/** Whether an answer to this request may go out compressed (its Accept-Encoding names one of ENCODINGS). */
export function mayCompress(acceptEncoding: string | string[] | undefined): boolean {
  return ACCEPTS_ONE.test(Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : acceptEncoding ?? '');
}

/** Bodies up to this size are compressed on the event loop (well under a millisecond at these settings). */
const SYNC_BYTES = 16 * 1024;

const isNodeStream = (payload: unknown): payload is Readable => typeof (payload as { pipe?: unknown } | null)?.pipe === 'function';

async function readWhole(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** Registered before the routes: the plugin adds its hook to each route as it is declared. */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  // The plugin compresses every stream, whatever its size (it cannot see one's length): a small
  // file sent as a stream with its Content-Length (a download) is read into bytes first, so that it
  // goes out as it is, its length kept, as every other answer under the threshold does. An app
  // hook, so it runs before the plugin's route hooks.
  // Callback style: the answers that are no stream (nearly all) pass without a promise made.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (!isNodeStream(payload) || !(Number(reply.getHeader('content-length')) < COMPRESS_MIN_BYTES)) return done(null, payload);
    readWhole(payload).then((whole) => done(null, whole), (error: Error) => done(error));
  });
  await app.register(fastifyCompress, {
    globalCompression: true,
    // Request bodies are read as they come, as before: only answers are compressed here.
    globalDecompression: false,
    threshold: COMPRESS_MIN_BYTES,
    syncThreshold: SYNC_BYTES,
    // br first: on JSON of feature names it is a third smaller than gzip at a similar cost.
    encodings: [...ENCODINGS],
  });
}
