// The tokens module's public face: the only file other modules import.
import type { TokensService } from './tokens.service.ts';

export type { TokensService, TokenView, Scope } from './tokens.service.ts';

declare module '../../core/modules.ts' {
  interface ServiceRegistry {
    tokens: TokensService;
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A POST that changes nothing (the API's search): a token without the `write` scope may call it. */
    readOnly?: boolean;
  }
}
