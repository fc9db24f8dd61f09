// The API module's service: the rate limit (extensions section 3) and the table of the API's
// routes as Fastify registered them (which the OpenAPI document must cover). Each operation is an
// exported function taking ApiDeps first, bound once below.
import type { ModuleContext } from '../../core/modules.ts';
import { bindOperations } from '../../core/operations.ts';
import * as repo from './api.repository.ts';

const MINUTE_MS = 60_000;

export type RateDecision =
  | { allowed: true; limit: number; remaining: number }
  | { allowed: false; limit: number; retryAfterSeconds: number };

export interface ApiRoute {
  method: string;
  url: string;
}

/** The context, the clock, and the state this instance keeps while the service lives. */
export interface ApiDeps {
  ctx: ModuleContext;
  clock: () => number;
  /** The API's routes as they were registered. */
  routes: ApiRoute[];
  /** The minute whose older counters this instance last removed. */
  lastSwept: number;
}

/** Counts a request of the caller (`bucket`) in the current minute; beyond the limit it is refused. */
export async function countRequest(d: ApiDeps, bucket: string): Promise<RateDecision> {
  const limit = d.ctx.config.apiRateLimit;
  const now = d.clock();
  const window = Math.floor(now / MINUTE_MS);
  const hits = await repo.hit(d.ctx.db, bucket, window);
  // Once a minute per instance, the counters of past minutes go.
  if (window !== d.lastSwept) {
    d.lastSwept = window;
    await repo.forgetBefore(d.ctx.db, window - 1).catch((e) => d.ctx.log.warn({ err: e }, 'old rate-limit counters could not be removed'));
  }
  if (hits <= limit) return { allowed: true, limit, remaining: limit - hits };
  return { allowed: false, limit, retryAfterSeconds: Math.max(1, Math.ceil(((window + 1) * MINUTE_MS - now) / 1000)) };
}

export function recordRoute(d: ApiDeps, route: ApiRoute): void {
  d.routes.push(route);
}

/** Every method and URL registered under /api/v1, HEAD routes Fastify adds for GET excluded. */
export function routeTable(d: ApiDeps): ApiRoute[] {
  return [...d.routes];
}

export function createApiService(ctx: ModuleContext, clock: () => number = Date.now) {
  const d: ApiDeps = { ctx, clock, routes: [], lastSwept: -1 };
  return bindOperations(d, { countRequest, recordRoute, routeTable });
}

export type ApiService = ReturnType<typeof createApiService>;
