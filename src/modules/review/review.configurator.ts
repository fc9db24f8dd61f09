// The configurator on a model page through a review link (issue 37, item 10): the page's tree,
// configure steps and probabilities, answered for the link's owner, so a reviewer of an
// unpublished dataset can configure its models as well. The configurator module is optional:
// without it these routes are not registered and the page shows no configurator. Samples and
// stored (shared) configurations are not offered through a link.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ModuleContext, ServiceRegistry } from '../../core/modules.ts';
import { badRequest, HttpError, notFound } from '../../core/http/errors.ts';
import { chooseEncoding } from '../../core/http/assets.ts';
import { parseFileId } from '../hubfile/index.ts';
import { requesterOf } from '../../core/scheduler/index.ts';

type Answer = Awaited<ReturnType<ServiceRegistry['configurator']['tree']>>;

const names = { type: 'array', items: { type: 'string' }, maxItems: 100_000 } as const;

function send(reply: FastifyReply, answer: Answer, acceptEncoding?: string): FastifyReply {
  reply.header('cache-control', 'private, no-store').header('x-robots-tag', 'noindex').header('referrer-policy', 'no-referrer');
  switch (answer.kind) {
    case 'not-found': throw notFound('No such file in this dataset.');
    case 'bad-value': throw badRequest(answer.message, { message: answer.message });
    case 'failed': throw new HttpError(422, 'unprocessable', answer.message, { message: answer.message });
    case 'busy': return reply.code(429).header('retry-after', String(answer.retryAfterS)).send({ message: answer.message });
    case 'pending': return reply.code(202).header('retry-after', '2').send({ status: 'pending' });
    case 'done': return reply.type('application/json; charset=utf-8').send(answer.json);
    case 'stored': {
      const encoding = chooseEncoding(acceptEncoding, answer.body);
      reply.header('vary', 'accept-encoding');
      if (encoding) reply.header('content-encoding', encoding);
      return reply.type('application/json; charset=utf-8').send(encoding ? answer.body[encoding] : answer.body.bytes);
    }
    case 'sample': throw notFound('No such file in this dataset.');
  }
}

export async function reviewConfiguratorRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  if (!ctx.isEnabled('configurator')) return;
  const configurator = () => ctx.services.configurator;
  /** The file and the owner whose view the link stands for; 404 for a bad link or another dataset's file. */
  const target = async (request: FastifyRequest) => {
    const { token, fileId } = request.params as { token: string; fileId: string };
    const id = parseFileId(fileId);
    if (id === undefined) throw notFound('No such file in this dataset.');
    return { fileId: id, ownerId: await ctx.services.review.ownerOfFile(token, id) };
  };

  app.get('/review/:token/model/:fileId/tree.json', { config: { json: true } }, async (request, reply) => {
    const { fileId, ownerId } = await target(request);
    return send(reply, await configurator().tree(fileId, ownerId, requesterOf(request)), request.headers['accept-encoding']);
  });

  app.get('/review/:token/model/:fileId/probabilities.json', { config: { json: true } }, async (request, reply) => {
    const { fileId, ownerId } = await target(request);
    const byName = (request.query as { order?: string }).order === 'name';
    return send(reply, await configurator().probabilities(fileId, ownerId, requesterOf(request), byName), request.headers['accept-encoding']);
  });

  // Reading only, as the API's configure: no CSRF token (a reviewer may have no session).
  app.post('/review/:token/model/:fileId/configure', {
    config: { csrf: false, json: true, readOnly: true },
    schema: { body: { type: 'object', properties: { selected: names, deselected: names, why: { type: 'string' }, since: { type: 'object', properties: { selected: names, deselected: names }, additionalProperties: false }, compact: { type: 'boolean' } } } },
  }, async (request, reply) => {
    const { fileId, ownerId } = await target(request);
    const body = (request.body ?? {}) as { selected?: string[]; deselected?: string[]; why?: string; since?: { selected?: string[]; deselected?: string[] }; compact?: boolean };
    const distinct = (list?: string[]) => [...new Set((list ?? []).filter((s) => s !== ''))];
    // The page's steps name the state it holds and get what changed (issue 37, item 1), as on the API.
    const since = body.since && { selected: distinct(body.since.selected), deselected: distinct(body.since.deselected) };
    const decisions = { selected: distinct(body.selected), deselected: distinct(body.deselected), why: body.why, compact: body.compact === true };
    return send(reply, await configurator().configure(fileId, ownerId, requesterOf(request), since ? { ...decisions, since } : decisions));
  });
}
