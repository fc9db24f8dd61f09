// Error answers: JSON for API clients, an HTML page (with the layout) for everyone else. The
// unknown address of an anonymous visitor is answered before the session plugin (anonymous-answers.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';
import { isMultipartRequest } from './forms.ts';
import { TooManyJobs } from '../scheduler/index.ts';
import { ReusablePageCache, type ReusablePage } from './reusable-page.ts';
import { RouteMethods } from './route-methods.ts';

export function wantsJson(request: FastifyRequest): boolean {
  if (request.routeOptions.config?.json) return true;
  if (/^\/(api|modeltool|file)\//.test(request.url)) return true;
  // An address of a JSON document (`/configurator/<id>/tree.json`) answers in JSON even when it names nothing.
  if (/\.json(?:[?#]|$)/i.test(request.url)) return true;
  const accept = request.headers.accept ?? '';
  return accept.includes('application/json') && !accept.includes('text/html');
}

/**
 * The multipart parser's (@fastify/busboy) answers to a body that ends before its closing boundary
 * or names no boundary: the client's fault, thrown as plain errors without a status.
 */
const MALFORMED_MULTIPART = /^(Multipart: Boundary not found|Unexpected end of multipart data|\w+ terminated early due to unexpected end of multipart data)$/;

export const NOT_FOUND_MESSAGE = 'The page you asked for does not exist.';

/** A multipart body sent where urlencoded or JSON fields are read. */
export const MULTIPART_NOT_READ = 'This form is sent as application/x-www-form-urlencoded; multipart/form-data is not read here.';

/** Error pages kept for visitors who are not logged in: a bot's stream of 404s costs no rendering. */
export class ErrorPages {
  private readonly pages = new ReusablePageCache(64);
  /** The methods of every declared route, for the 405 of an address asked with another one. */
  readonly routes = new RouteMethods();

  /** The page's own path shows only as the active navigation entry, so only those paths are part of the key. */
  constructor(private readonly navPaths: Set<string>) {}

  async render(reply: FastifyReply, status: number, message: string): Promise<unknown> {
    try {
      if (reply.pageIsReusable()) return reply.sendReusablePage(await this.reusable(reply, status, message));
      return await reply.page('errors/error.njk', { status, message });
    } catch {
      // The layout itself failed (a broken template, the session store down): a bare page, still no stack trace.
      reply.type('text/html; charset=utf-8');
      return `<!doctype html><title>Error ${status}</title><h1>Error ${status}</h1><p>${status >= 500 ? 'Something went wrong.' : 'Request refused.'}</p>`;
    }
  }

  /** The page kept for this answer, if it was rendered before. */
  kept(reply: FastifyReply, status: number, message: string): ReusablePage | undefined {
    return this.pages.get(this.keyOf(reply, status, message));
  }

  async reusable(reply: FastifyReply, status: number, message: string): Promise<ReusablePage> {
    const key = this.keyOf(reply, status, message);
    let page = this.pages.get(key);
    if (page === undefined) {
      page = await reply.renderReusablePage('errors/error.njk', { status, message });
      this.pages.set(key, page);
    }
    return page;
  }

  private keyOf(reply: FastifyReply, status: number, message: string): string {
    const path = reply.request.url.split('?')[0]!;
    return `${status}\n${message}\n${this.navPaths.has(path) ? path : ''}`;
  }

  install(app: FastifyInstance): void {
    app.setErrorHandler(async (error: Error & { statusCode?: number; code?: string; validation?: unknown }, request, reply) => {
      let status = 500;
      let message = 'Something went wrong on our side. The error was logged.';
      let body: Record<string, unknown> | undefined;
      if (error instanceof HttpError) {
        status = error.status;
        message = error.message;
        body = error.body;
      } else if (error instanceof TooManyJobs) {
        // A requester's share of heavy work is taken (extensions section 10): it may ask again shortly.
        status = 429;
        message = error.message;
        body = { message };
        reply.header('retry-after', String(error.retryAfterS));
      } else if (error.code?.startsWith('FST_CSRF_')) {
        status = 400;
        message = 'The form has expired or its CSRF token is missing. Reload the page and try again.';
      } else if (MALFORMED_MULTIPART.test(error.message) && isMultipartRequest(request)) {
        status = 400;
        message = 'The multipart body is malformed (it ends early or has no boundary).';
      } else if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' && isMultipartRequest(request)) {
        // Only the routes that read uploads parse multipart bodies: a page form's fields are urlencoded.
        status = 415;
        message = MULTIPART_NOT_READ;
      } else if (error.validation) {
        status = 400;
        message = error.message;
      } else if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        // Fastify's own client errors (body too large, bad content type, malformed JSON) carry safe messages.
        status = error.statusCode;
        message = error.message;
      }
      if (status >= 500) request.log.error({ err: error }, 'request failed');
      else request.log.info({ status, code: (error as HttpError).code }, message);
      reply.code(status);
      const key = status >= 500 ? 'error' : request.routeOptions.config?.jsonErrorKey ?? 'message';
      if (wantsJson(request)) return reply.send(body ?? { [key]: message });
      return this.render(reply, status, message);
    });

    app.setNotFoundHandler(async (request, reply) => {
      // A known address asked with a method it does not offer: 405 naming those it does, as Flask
      // answers (the specification lists each path's methods; its webhook spells the 405 out).
      const allowed = this.routes.allowed(request.url);
      if (allowed.length > 0) {
        const message = `${request.method} is not allowed here.`;
        reply.code(405).header('allow', allowed.join(', '));
        if (wantsJson(request)) return reply.send({ message });
        return this.render(reply, 405, message);
      }
      reply.code(404);
      if (wantsJson(request)) return reply.send({ message: 'Not found' });
      return this.render(reply, 404, NOT_FOUND_MESSAGE);
    });
  }
}
