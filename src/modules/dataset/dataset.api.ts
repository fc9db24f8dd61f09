// REST resource /api/v1/datasets/ (decisions sections 4 and 7). Reads are public; writes need
// a logged-in session and the X-CSRFToken header, and an anonymous write answers 401 before
// the CSRF check (so these routes opt out of the global check and run it themselves).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ModuleContext } from '../../core/modules.ts';
import { badRequest, HttpError, notFound, unauthorized } from '../../core/http/errors.ts';
import { parseId } from './dataset.routes.ts';

const DEFAULT_PER_PAGE = 100;
const MAX_PER_PAGE = 1000;
const NOT_FOUND = { message: 'DataSet not found' };

function positiveInteger(raw: unknown, name: string, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw) || value < 1) {
    throw badRequest(`${name} must be a positive whole number.`, { message: `${name} must be a positive whole number.` });
  }
  return value;
}

export async function datasetApiRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const datasets = () => ctx.services.dataset;

  /** The write guard: 401 for anonymous callers first, then the CSRF token (400 when wrong or missing). */
  async function writer(request: FastifyRequest, reply: FastifyReply): Promise<number> {
    if (!request.user) throw unauthorized('Log in to change datasets.', { message: 'Log in to change datasets.' });
    await new Promise<void>((resolve, reject) => {
      // The plugin answers a bad token through reply.send; this stand-in turns that into an error for the one handler.
      const refusal = { send: (error: Error) => reject(error) } as unknown as FastifyReply;
      app.csrfProtection.call(app, request, refusal, (error?: Error) => (error ? reject(error) : resolve()));
    });
    void reply;
    return request.user.id;
  }

  const itemId = (request: FastifyRequest): number => {
    const id = parseId((request.params as { id: string }).id);
    if (id === undefined) throw notFound('DataSet not found', NOT_FOUND);
    return id;
  };

  const list = async (request: FastifyRequest) => {
    const query = request.query as Record<string, unknown>;
    const page = positiveInteger(query.page, 'page', 1);
    const perPage = Math.min(positiveInteger(query.per_page, 'per_page', DEFAULT_PER_PAGE), MAX_PER_PAGE);
    return datasets().apiList(request.user?.id ?? null, page, perPage);
  };

  const create = async (request: FastifyRequest, reply: FastifyReply) => {
    const userId = await writer(request, reply);
    const id = await datasets().apiCreate(userId, request.body);
    return reply.code(201).send({ message: 'DataSet created', id });
  };

  const notAllowed = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('allow', request.url.match(/\/\d+$/) ? 'GET, PUT, DELETE' : 'GET, POST');
    throw new HttpError(405, 'method_not_allowed', 'Method not allowed', { message: `${request.method} is not allowed here.` });
  };

  for (const url of ['/api/v1/datasets/', '/api/v1/datasets']) {
    app.get(url, list);
    app.post(url, { config: { csrf: false, json: true } }, create);
    app.route({ method: ['PUT', 'DELETE', 'PATCH'], url, config: { csrf: false, json: true }, handler: notAllowed });
  }

  app.get('/api/v1/datasets/:id', async (request) => datasets().apiGet(itemId(request), request.user?.id ?? null));

  app.put('/api/v1/datasets/:id', { config: { csrf: false, json: true } }, async (request, reply) => {
    const userId = await writer(request, reply);
    return datasets().apiUpdate(itemId(request), userId, request.body);
  });

  app.delete('/api/v1/datasets/:id', { config: { csrf: false, json: true } }, async (request, reply) => {
    const userId = await writer(request, reply);
    await datasets().apiDelete(itemId(request), userId);
    return reply.code(204).send();
  });

  app.route({ method: ['POST', 'PATCH'], url: '/api/v1/datasets/:id', config: { csrf: false, json: true }, handler: notAllowed });
}
