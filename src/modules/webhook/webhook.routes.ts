// POST /webhook/deploy (specification, webhook and Authentication rule 6).
import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '../../core/modules.ts';
import { HttpError, forbidden, notFound, serverError } from '../../core/http/errors.ts';
import { authorizationMatches, configuredToken } from './webhook.token.ts';
import { createDeployer, WEB_CONTAINER_NAME } from './webhook.service.ts';

const PATH = '/webhook/deploy';

export async function webhookRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const deployer = createDeployer({ dockerHost: ctx.config.dockerHost, workspace: ctx.config.deployWorkspace, log: ctx.log });

  // The request carries no body (specification, webhook). In this plugin only, whatever is
  // sent is drained unread: a malformed JSON body, an unknown content type or a large body
  // must not answer 400, 415 or 413 before the token checks (rule 6b: 503 before the
  // request is inspected; 6d: 403 for a caller without the token).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => {
    payload.resume();
    done(null, undefined);
  });

  // The bearer token replaces the session and CSRF: a pipeline has neither.
  app.post(PATH, { config: { csrf: false, json: true } }, async (request, reply) => {
    const token = configuredToken();
    // Rule 6b: an unconfigured endpoint refuses before looking at the request at all.
    if (!token) throw new HttpError(503, 'webhook_not_configured', 'Deployment is not configured', { error: 'WEBHOOK_TOKEN is not configured on the server' });
    if (!authorizationMatches(request.headers.authorization, token)) throw forbidden('Unauthorized', { error: 'Unauthorized' });
    if (deployer.busy) throw new HttpError(409, 'deployment_running', 'A deployment is already running', { error: 'A deployment is already running' });

    const outcome = await deployer.deploy();
    switch (outcome.status) {
      case 'deployed':
        return reply.code(200).type('text/plain; charset=utf-8').send('Deployment successful');
      case 'container-missing':
        throw notFound('Container not found', { error: `Container ${WEB_CONTAINER_NAME} not found` });
      case 'runtime-unreachable':
        throw serverError(outcome.message, { error: outcome.message });
      case 'step-failed':
        throw serverError('Deployment step failed', {
          error: `Deployment failed: "${outcome.step.cmd.join(' ')}" (${outcome.step.label}) exited with ${outcome.exitCode ?? 'no exit code'}`,
          command: outcome.step.cmd.join(' '),
          exit_code: outcome.exitCode,
          output: outcome.output,
        });
    }
  });

  // Specification, Errors: other methods answer 405, naming the one allowed.
  for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const) {
    app.route({
      method,
      url: PATH,
      config: { csrf: false, json: true },
      handler: async (_request, reply) => reply.code(405).header('allow', 'POST').send({ error: 'Method Not Allowed' }),
    });
  }
}
