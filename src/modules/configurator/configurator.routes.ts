// The configurator's API (extensions section 6, "In the hub"): configure, commonality, samples.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ModuleContext } from '../../core/modules.ts';
import { badRequest, HttpError, notFound } from '../../core/http/errors.ts';
import { sampleCsv } from '../../../packages/analysis/src/index.ts';
import { distinctNames, parseSampleQuery } from './configurator.params.ts';
import { citationSchema, commonalitySchema, configureSchema, samplesSchema } from './configurator.schemas.ts';
import type { Answer } from './configurator.calls.ts';
import { binsOfSummary, histogramSvg } from './histogram.ts';
import { sampleResponse } from './sample-stream.ts';
import { chooseEncoding } from '../../core/http/assets.ts';
import { clientHasCurrent } from '../../core/http/conditional.ts';
import { requesterOf } from '../../core/scheduler/index.ts';
import { sharedConfigurationRoutes } from './configurator.shares.ts';

/** Seconds a client waits before asking again for a result being computed. */
const RETRY_AFTER_S = 2;
const NOT_FOUND = { message: 'File not found' };

/** Stands for the compressed forms a stream can be sent in (chooseEncoding asks which are ready). */
const STREAM_ENCODINGS = { gzip: Buffer.alloc(0), br: Buffer.alloc(0) };

function send(reply: FastifyReply, answer: Answer, csv = false, acceptEncoding?: string): FastifyReply {
  reply.header('cache-control', 'no-store');
  switch (answer.kind) {
    case 'not-found': throw notFound('File not found', NOT_FOUND);
    case 'bad-value': throw badRequest(answer.message, { message: answer.message });
    case 'failed': throw new HttpError(422, 'unprocessable', answer.message, { message: answer.message });
    // The requester's share of heavy jobs is taken (extensions section 10).
    case 'busy': return reply.code(429).header('retry-after', String(answer.retryAfterS)).send({ message: answer.message });
    // `progress` (issue 37, item 6) only when this instance computes it and its worker reported.
    case 'pending': return reply.code(202).header('retry-after', String(RETRY_AFTER_S)).send(answer.progress ? { status: 'pending', progress: answer.progress } : { status: 'pending' });
    case 'done':
      if (csv) return reply.type('text/csv; charset=utf-8').send(sampleCsv(JSON.parse(answer.json)));
      // The worker's JSON as it is: no parse and no serialization for a large result.
      return reply.type('application/json; charset=utf-8').send(answer.json);
    case 'sample': {
      const encoding = chooseEncoding(acceptEncoding, STREAM_ENCODINGS);
      reply.header('vary', 'accept-encoding');
      if (encoding) reply.header('content-encoding', encoding);
      reply.type(csv ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8');
      // Fastify's HEAD drains a stream: a gigabyte of text made for nothing.
      if (reply.request.method === 'HEAD') {
        answer.body.destroy();
        return reply.send();
      }
      return reply.send(sampleResponse(answer.body, csv ? 'csv' : 'json', encoding, (error) => reply.log.warn({ err: error }, 'configurator: sending a sample failed')));
    }
    case 'stored': {
      if (csv) return reply.type('text/csv; charset=utf-8').send(sampleCsv(JSON.parse(answer.body.bytes.toString('utf8'))));
      // The page's tree and probabilities never change for their content: a visit after the first revalidates them (304, no body).
      if (answer.tag) {
        reply.header('cache-control', 'no-cache').header('etag', `"${answer.tag}"`);
        if (clientHasCurrent(reply.request, answer.tag, 0)) return reply.code(304).send();
      }
      // Bytes encoded (and compressed) once when the result was first read: sent as they are, with their length.
      const encoding = chooseEncoding(acceptEncoding, answer.body);
      reply.header('vary', 'accept-encoding');
      if (encoding) reply.header('content-encoding', encoding);
      return reply.type('application/json; charset=utf-8').send(encoding ? answer.body[encoding] : answer.body.bytes);
    }
  }
}

const wantsCsv = (accept: string | undefined) => (accept ?? '').split(',').some((part) => part.trim().startsWith('text/csv'));

export async function configuratorRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const service = ctx.services.configurator;
  app.addHook('onClose', async () => service.stop());
  // The stored samples kept within SAMPLE_STORE_MAX_BYTES by this instance too, every few minutes.
  service.start();
  const fileIdOf = (request: { params: unknown }) => (request.params as { file_id: number }).file_id;
  const viewerOf = (request: { user?: { id: number } | null }) => request.user?.id ?? null;
  // The page's own requests (tree, probabilities, plot) queue as the API's do: per requester.
  const who = (request: { user?: { id: number } | null; ip: string }) => [viewerOf(request), requesterOf(request)] as const;

  app.post('/api/v1/files/:file_id/configure', { schema: configureSchema, config: { csrf: false, json: true, readOnly: true } }, async (request, reply) => {
    const body = (request.body ?? {}) as { selected?: string[]; deselected?: string[]; why?: string; since?: { selected?: string[]; deselected?: string[] }; compact?: boolean };
    // JSON arrays hold each name whole (a name may hold a comma): no list syntax to read here.
    const decisions = { selected: distinctNames(body.selected), deselected: distinctNames(body.deselected), why: body.why, compact: body.compact === true };
    // The page's steps say which state they hold, and get what changed (issue 37, item 1).
    const since = body.since && { selected: distinctNames(body.since.selected), deselected: distinctNames(body.since.deselected) };
    return send(reply, await service.configure(fileIdOf(request), ...who(request), since ? { ...decisions, since } : decisions));
  });

  app.get('/api/v1/files/:file_id/commonality', { schema: commonalitySchema }, async (request, reply) =>
    send(reply, await service.commonality(fileIdOf(request), ...who(request)), false, request.headers['accept-encoding']));

  // The page's tree (not part of the API): built in the worker, which then holds the model warm.
  app.get('/configurator/:file_id(^\\d+$)/tree.json', { config: { json: true } }, async (request, reply) =>
    send(reply, await service.tree(Number((request.params as { file_id: string }).file_id), ...who(request)), false, request.headers['accept-encoding']));

  // The page's probabilities: the commonality without its (huge) exact counts; `order=name`: without the names (probabilities.ts).
  app.get('/configurator/:file_id(^\\d+$)/probabilities.json', { config: { json: true } }, async (request, reply) => {
    const byName = (request.query as { order?: string }).order === 'name';
    return send(reply, await service.probabilities(Number((request.params as { file_id: string }).file_id), ...who(request), byName), false, request.headers['accept-encoding']);
  });

  // The fact label's plot: drawn from the stored commonality (a message while it is computed).
  app.get('/configurator/:file_id(^\\d+$)/commonality.svg', { config: { json: true } }, async (request, reply) => {
    const answer = await service.probabilities(Number((request.params as { file_id: string }).file_id), ...who(request));
    if (answer.kind === 'not-found') throw notFound('File not found', NOT_FOUND);
    const svg = answer.kind === 'stored'
      ? histogramSvg(binsOfSummary(JSON.parse(answer.body.bytes.toString('utf8'))))
      : histogramSvg(null, answer.kind === 'pending' ? 'Being computed…' : answer.kind === 'busy' ? 'Busy: try again in a moment.' : 'Not available for this model.');
    return reply.header('cache-control', 'no-store').type('image/svg+xml; charset=utf-8').send(svg);
  });

  app.get('/api/v1/files/:file_id/samples', { schema: samplesSchema }, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const sample = parseSampleQuery(query);
    const answer = await service.sample(fileIdOf(request), ...who(request), sample);
    if (query.format !== undefined && (answer.kind === 'stored' || answer.kind === 'sample')) {
      reply.header('content-disposition', `attachment; filename="sample-${sample.op}-${fileIdOf(request)}.${query.format}"`);
    }
    return send(reply, answer, query.format === 'csv' || (query.format === undefined && wantsCsv(request.headers.accept)), request.headers['accept-encoding']);
  });

  app.get('/api/v1/files/:file_id/samples/citation', { schema: citationSchema }, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const sample = parseSampleQuery(query);
    const address = new URLSearchParams(Object.entries(query).filter(([k]) => k !== 'format').map(([k, v]) => [k, String(v)]));
    const origin = ctx.config.env === 'production' ? `https://${ctx.config.domain}` : `${request.protocol}://${request.host}`;
    const url = `${origin}/api/v1/files/${fileIdOf(request)}/samples?${address}`;
    const cited = await service.citation(fileIdOf(request), viewerOf(request), sample, url);
    if (!cited) throw notFound('File not found', NOT_FOUND);
    reply.header('cache-control', 'no-store');
    if (query.format === 'text') return reply.type('text/plain; charset=utf-8').send(cited.text);
    if (query.format === 'bibtex') return reply.type('application/x-bibtex; charset=utf-8').send(cited.bibtex);
    if (query.format === 'csl') return reply.type('application/vnd.citationstyles.csl+json; charset=utf-8').send(JSON.stringify([cited.csl]));
    return cited;
  });

  // The page's Cancel (CSRF-checked): the caller stops waiting; the job stops when nobody else waits for it.
  app.post('/configurator/:file_id(^\\d+$)/samples/cancel', { config: { json: true }, schema: { querystring: samplesSchema.querystring } }, async (request) => {
    const fileId = Number((request.params as { file_id: string }).file_id);
    const outcome = await service.cancel(fileId, ...who(request), parseSampleQuery(request.query as Record<string, unknown>));
    if (!outcome) throw notFound('File not found', NOT_FOUND);
    return outcome;
  });

  await sharedConfigurationRoutes(app, ctx);
}
