// A stored sample sent as a stream (extensions section 10, "Large results as streams"): its packed
// rows (packages/analysis sample/compact.ts) are read from the file store a chunk at a time and
// written out as the answer's JSON (the same bytes as the worker's JSON.stringify) or as CSV,
// compressed in zlib's thread pool. What is held at once is a chunk of rows and their text, not
// the answer: 10 000 configurations of automotive2_4 are 423 MB of JSON.
import { createHash, randomBytes } from 'node:crypto';
import { pipeline, Readable } from 'node:stream';
import { constants as zlib, createBrotliCompress, createGzip } from 'node:zlib';
import { csvHeader, csvRow, jsonRow, readSampleHeader, type SampleHeader } from '../../../packages/analysis/src/index.ts';
import type { SampleKey } from './configurator.repository.ts';

/** Text gathered before it is handed to the response: large enough to be cheap, small enough that making one takes a few ms (about 7 rows of automotive2_4 as CSV). */
const BATCH_CHARS = 1 << 18;

/**
 * The file store's key of a packed sample of (content, kind, parameters, engine version), new for
 * each computation: an object deleted past the samples' bound (configurator.evict.ts) is never one
 * that a later computation of the same sample has just written, and a computation whose claim
 * another instance took over deletes its own object only.
 */
export function sampleObjectKey(key: SampleKey): string {
  const digest = createHash('sha256').update(`${key.kind}\n${key.params}\n${key.engine_version}`, 'utf8').digest('hex');
  return `samples/${key.sha256}/${key.kind}-${digest.slice(0, 32)}-${randomBytes(8).toString('hex')}.sample`;
}

/** How rows become text: the opening, one row, the closing. */
function writerOf(header: SampleHeader, format: 'json' | 'csv') {
  const width = header.features.length;
  if (format === 'csv') {
    return { open: csvHeader(header.features), row: (bytes: Uint8Array, at: number) => csvRow(width, bytes, at), separator: '', close: '' };
  }
  const quoted = header.features.map((name) => JSON.stringify(name));
  return { open: header.prefix, row: (bytes: Uint8Array, at: number) => jsonRow(quoted, bytes, at), separator: ',', close: header.suffix };
}

/** The answer's text, in batches of about BATCH_CHARS, from the stored object's bytes. */
export async function* sampleText(body: AsyncIterable<Buffer | Uint8Array>, format: 'json' | 'csv'): AsyncGenerator<string> {
  let pending: Buffer = Buffer.alloc(0);
  let header: SampleHeader | undefined;
  let writer: ReturnType<typeof writerOf> | undefined;
  let rowBytes = 0;
  let written = 0;
  let batch = '';
  const take = function* (): Generator<string> {
    const whole = rowBytes === 0 ? header!.rows - written : Math.min(Math.floor(pending.length / rowBytes), header!.rows - written);
    for (let r = 0; r < whole; r++) {
      batch += (written++ > 0 ? writer!.separator : '') + writer!.row(pending, r * rowBytes);
      if (batch.length >= BATCH_CHARS) { yield batch; batch = ''; }
    }
    pending = pending.subarray(whole * rowBytes);
  };
  for await (const chunk of body) {
    pending = pending.length === 0 ? Buffer.from(chunk) : Buffer.concat([pending, chunk]);
    if (!header) {
      const read = readSampleHeader(pending);
      if (!read) continue;
      ({ header } = read);
      writer = writerOf(header, format);
      rowBytes = Math.ceil(header.features.length / 8);
      pending = pending.subarray(read.rowsAt);
      batch = writer.open;
    }
    yield* take();
  }
  if (header && written < header.rows && rowBytes === 0) yield* take();
  // The response has started: a short object can only end it early, never become another answer.
  if (!header || written < header.rows) throw new Error('the stored sample is shorter than its header says');
  yield batch + writer!.close;
}

/**
 * The stream to send: the text, gzip or brotli compressed when chosen. A stream is compressed at
 * every request (the stored results are compressed once), so at fast settings: on 16 MB of sample
 * JSON brotli 4 took 200 ms for 1.20 MB where 5 took 470 ms for 0.99 MB, gzip 1 150 ms for 1.76 MB
 * where 6 took 520 ms for 1.46 MB (a gigabyte at brotli 5 kept a zlib thread busy for minutes).
 */
export function sampleResponse(body: Readable, format: 'json' | 'csv', encoding: 'br' | 'gzip' | undefined, onError: (error: Error) => void): Readable {
  // Not in object mode: the text is buffered by bytes (64 KB), so the generator waits for the client.
  const text = Readable.from(sampleText(body, format), { objectMode: false });
  if (!encoding) return text;
  const compressor = encoding === 'br'
    ? createBrotliCompress({ params: { [zlib.BROTLI_PARAM_QUALITY]: 4, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT } })
    : createGzip({ level: 1 });
  return pipeline(text, compressor, (error) => { if (error) onError(error); });
}
