// The security headers of every answer (helmet's, for this configuration).
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { Config } from '../config.ts';

export function registerSecurityHeaders(app: FastifyInstance, config: Config): void {
  // Helmet's headers depend only on this configuration: computed once, then copied onto every
  // answer (helmet itself rebuilds the policy strings on each request, a tenth of a static answer's time).
  const securityHeaders = helmetHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: config.env === 'production' ? [] : null,
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    hsts: config.env === 'production',
    crossOriginEmbedderPolicy: false,
    // Three of helmet's defaults speak to software no visitor runs any more: Internet Explorer 8's
    // download prompt, Flash's cross-domain policies, and the XSS auditor that browsers removed
    // (helmet sends that one only to switch it off). Each costs every answer a header line.
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(securityHeaders);
    done();
  });
}

/** The headers helmet sets for these options, read once from a stand-in response. */
function helmetHeaders(options: Parameters<typeof helmet>[0]): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) { headers[name] = String(value); },
    removeHeader(name: string) { delete headers[name]; },
    getHeader(name: string) { return headers[name]; },
  };
  let failure: unknown;
  helmet(options)({} as never, response as never, (error?: unknown) => { failure = error; });
  if (failure) throw failure;
  return headers;
}
