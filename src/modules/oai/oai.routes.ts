// GET and POST /oai (OAI-PMH 2.0, extensions section 13) and the DOI page's DataCite XML export.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ModuleContext } from '../../core/modules.ts';
import { notFound } from '../../core/http/errors.ts';
import { doiPath } from '../dataset/index.ts';
import { queryArguments, rawArguments, type RawArguments } from './oai.arguments.ts';

const XML = 'text/xml; charset=utf-8';

/** A POST form's fields as the query string parser would give them (a repeated field is an array). */
function formParams(body: unknown): URLSearchParams {
  const params = new URLSearchParams();
  if (body && typeof body === 'object') {
    for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
      for (const v of Array.isArray(value) ? value : [value]) params.append(name, String(v));
    }
  }
  return params;
}

export async function oaiRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const service = ctx.services.oai;
  const send = async (reply: FastifyReply, raw: RawArguments) =>
    reply.header('content-type', XML).send(await service.respond(raw));

  // The raw query string, not the parsed one: a repeated argument must stay visible (badArgument).
  // A NUL or bytes that are not UTF-8 in it are the protocol's badArgument too, not the hub's 400 page.
  app.get('/oai', { config: { nulInQueryAnswered: true } }, (request, reply) => {
    const at = request.url.indexOf('?');
    return send(reply, queryArguments(at < 0 ? '' : request.url.slice(at + 1)));
  });
  // Harvesters post a form without a session, so there is no CSRF token to check.
  app.post('/oai', { config: { csrf: false } }, (request, reply) => send(reply, rawArguments(formParams(request.body))));

  // A DOI's prefix and suffix as two path segments: this route is more specific than the
  // dataset module's `/doi/*`, which keeps every other export (a suffix with a slash of its own
  // falls through to it and is answered there as an unknown format).
  app.get('/doi/:prefix/:suffix/export/datacite.xml', async (request, reply) => {
    const { prefix, suffix } = request.params as { prefix: string; suffix: string };
    const doi = `${prefix}/${suffix}`;
    const answer = await service.dataciteXml(doi);
    if (answer.kind === 'missing') throw notFound('No published dataset has this DOI.');
    if (answer.kind === 'moved') return reply.redirect(`/doi/${doiPath(answer.doi)}/export/datacite.xml`, 302);
    return reply.header('content-type', 'application/vnd.datacite.datacite+xml; charset=utf-8')
      .header('content-disposition', `attachment; filename="${doi.replace(/[^A-Za-z0-9._-]/g, '_')}.datacite.xml"`)
      .send(answer.xml);
  });
}
