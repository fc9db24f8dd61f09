// The API module's service: the rate limit (extensions section 3) and the table of the API's
// routes as Fastify registered them (which the OpenAPI document must cover).
import type { ModuleContext } from '../../core/modules.ts';
import * as repo from './api.repository.ts';

const MINUTE_MS = 60_000;

export type RateDecision =
  | { allowed: true; limit: number; remaining: number }
  | { allowed: false; limit: number; retryAfterSeconds: number };

export interface ApiRoute {
  method: string;
  url: string;
}

export function createApiService(ctx: ModuleContext, clock: () => number = Date.now) {
  const routes: ApiRoute[] = [];
  let lastSwept = -1;

  return {
    /** Counts a request of the caller (`bucket`) in the current minute; beyond the limit it is refused. */
    async countRequest(bucket: string): Promise<RateDecision> {
      const limit = ctx.config.apiRateLimit;
      const now = clock();
      const window = Math.floor(now / MINUTE_MS);
      const hits = await repo.hit(ctx.db, bucket, window);
      // Once a minute per instance, the counters of past minutes go.
      if (window !== lastSwept) {
        lastSwept = window;
        await repo.forgetBefore(ctx.db, window - 1).catch((e) => ctx.log.warn({ err: e }, 'old rate-limit counters could not be removed'));
      }
      if (hits <= limit) return { allowed: true, limit, remaining: limit - hits };
      return { allowed: false, limit, retryAfterSeconds: Math.max(1, Math.ceil(((window + 1) * MINUTE_MS - now) / 1000)) };
    },

    recordRoute(route: ApiRoute): void {
      routes.push(route);
    },

    /** Every method and URL registered under /api/v1, HEAD routes Fastify adds for GET excluded. */
    routeTable(): ApiRoute[] {
      return [...routes];
    },
  };
}

export type ApiService = ReturnType<typeof createApiService>;
