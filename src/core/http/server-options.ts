// The Fastify instance with the hub's server options: logging, request ids, proxies, limits.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { schemaError, validatorCompiler } from './api-schemas.ts';
import { lazyChildLogger } from './lazy-logger.ts';
import { handleClientError, handleFrameworkError } from './client-errors.ts';

const processRequestIds = randomUUID().slice(0, 24);
let requestCounter = 0;

/** Never log credentials: cookies, bearer tokens and form bodies stay out of the logs (tests log with these too). */
export const LOG_REDACTIONS = ['req.headers.cookie', 'req.headers.authorization', 'req.headers["x-csrftoken"]'];

/** The largest request body (Fastify's bodyLimit): 2 MiB. */
export const BODY_LIMIT_BYTES = 2 * 1024 * 1024;

/**
 * Node's options for REQUEST_TIMEOUT_MS. Node skips the whole check while the headers' limit (60 s)
 * is above the request's, so that one is lowered to it; the check runs every 30 s by default, more
 * often for a short limit (tests): a quarter of it, at least 250 ms.
 */
function arrivalLimits(timeoutMs: number): { connectionsCheckingInterval?: number; headersTimeout?: number } {
  if (timeoutMs <= 0) return {};
  return { connectionsCheckingInterval: Math.min(30_000, Math.max(250, Math.floor(timeoutMs / 4))), headersTimeout: Math.min(60_000, timeoutMs) };
}

/** `logger`: Fastify's logger settings; tests pass false. */
export function createFastify(config: Config, logger?: boolean | Record<string, unknown>): FastifyInstance {
  const app = Fastify({
    logger: logger ?? {
      level: config.logLevel,
      redact: LOG_REDACTIONS,
    },
    // Unique across instances without a random draw per request: a UUID drawn once per process
    // whose last group counts the requests.
    genReqId: (req) => (typeof req.headers['x-request-id'] === 'string' && req.headers['x-request-id'].length <= 64
      ? req.headers['x-request-id'] : `${processRequestIds}${(requestCounter++).toString(16).padStart(12, '0')}`),
    requestIdHeader: false,
    childLoggerFactory: lazyChildLogger,
    // Only a proxy on this host or a private network may set X-Forwarded-For (throttling is per address).
    trustProxy: ['loopback', 'linklocal', 'uniquelocal'],
    bodyLimit: BODY_LIMIT_BYTES,
    // Fastify turns Node's limit on a request's arrival off (0); without it a client that sends a
    // body one byte a minute, or none after its headers, keeps its connection for ever, and enough of
    // them take every socket from everybody else.
    requestTimeout: config.requestTimeoutMs,
    http: arrivalLimits(config.requestTimeoutMs),
    // An id longer than Fastify's default 100 characters is an unknown id (404, or the login redirect),
    // decided by its route like any other: the address itself is bounded by the 16 KiB header limit.
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 16 * 1024 },
    // A route schema's refusal names the field (extensions section 3).
    schemaErrorFormatter: schemaError,
    // A too long address gets the hub's error page (or `{"message"}`), not Fastify's raw JSON.
    clientErrorHandler: handleClientError,
    frameworkErrors: handleFrameworkError,
  });
  app.setValidatorCompiler(validatorCompiler);
  acceptEmptyJsonBodies(app);
  return app;
}

/**
 * An empty body sent as `application/json` is no body, as it is without the header: clients that
 * always send `Content-Type: application/json` (a session's default headers, `fetch` wrappers)
 * got Fastify's "Body cannot be empty" 400 on a DELETE or a publish, which take no body, and on
 * `POST /api/v1/datasets/` instead of decisions section 4's "No input data provided". Any other
 * body is parsed by Fastify's own parser (prototype poisoning refused as before).
 */
function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser<string>('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body.length === 0) {
      done(null, undefined);
      return;
    }
    parseJson(request, body, done);
  });
}
