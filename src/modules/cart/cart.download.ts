// The cart's download, shared with collections (extensions sections 8 and 13): the formats asked
// for, and the zip sent as it is built.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ZipArchive } from 'archiver';
import type { ModuleContext } from '../../core/modules.ts';
import { badField, HttpError } from '../../core/http/errors.ts';
import { wantsJson } from '../../core/http/error-pages.ts';
import type { CartEntry } from './cart.service.ts';
import { UNAVAILABLE_FORMATS, cartZipEntries, isCartFormat, type CartFormat } from './cart.zip.ts';

/** A 400 about `format`, its JSON `{"message", "field"}` as the API's validation errors. */
const formatError = (message: string) => badField('format', message);

/**
 * The formats of a download form, or, for a person's browser, the reason to show beside the
 * form's boxes (answered with the page itself, 400) instead of an error page: unticking every box
 * is an everyday slip. A script (wantsJson) gets askedFormats' 400 `{"message", "field"}`.
 */
export function formatsOrPageError(request: FastifyRequest): { formats: CartFormat[] } | { pageError: string } {
  try {
    return { formats: askedFormats(request.query) };
  } catch (error) {
    if (wantsJson(request) || !(error instanceof HttpError)) throw error;
    const none = (request.query as Record<string, unknown>).format === undefined;
    return { pageError: none ? 'Tick at least one format.' : error.message };
  }
}

/** The formats of `?format=…` (repeatable), each once; 400 for none, an unknown one or one this hub cannot make. */
export function askedFormats(query: unknown): CartFormat[] {
  const raw = (query as Record<string, unknown>).format;
  const asked = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map(String);
  if (asked.length === 0) throw formatError('Choose at least one format: format=uvl, glencoe, splot, dimacs or featureide (repeatable).');
  const unknown = asked.find((f) => !isCartFormat(f));
  if (unknown !== undefined) throw formatError(`There is no format "${unknown}": choose uvl, glencoe, splot, dimacs or featureide.`);
  const formats = [...new Set(asked)] as CartFormat[];
  const unavailable = formats.find((f) => UNAVAILABLE_FORMATS[f]);
  if (unavailable !== undefined) throw formatError(UNAVAILABLE_FORMATS[unavailable]!);
  return formats;
}

/** The zip of the entries in the formats, sent as it is built, like the dataset zip: nothing is kept on disk. */
export function sendZip(ctx: ModuleContext, request: FastifyRequest, reply: FastifyReply, entries: CartEntry[], formats: CartFormat[], name: { root: string; fileName: string }) {
  const archive = new ZipArchive({ zlib: { level: 6 } });
  archive.on('warning', (error) => request.log.warn({ err: error }, `${name.fileName} warning`));
  archive.on('error', (error) => {
    request.log.error({ err: error }, `the ${name.fileName} could not be completed`);
    reply.raw.destroy(error);
  });
  void (async () => {
    try {
      for await (const entry of cartZipEntries(ctx, entries, formats, request.user?.id ?? null, name.root)) archive.append(entry.body, { name: entry.name });
      await archive.finalize();
    } catch (error) {
      archive.abort();
      request.log.error({ err: error }, `the ${name.fileName} could not be completed`);
      reply.raw.destroy(error as Error);
    }
  })();
  return reply
    .header('content-type', 'application/zip')
    .header('content-disposition', `attachment; filename="${name.fileName}"`)
    .header('cache-control', 'no-store')
    .send(archive);
}

