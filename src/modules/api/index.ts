// The api module's public face: the only file other modules import.
import type { ApiService } from './api.service.ts';

export type { ApiService, ApiRoute, RateDecision } from './api.service.ts';

declare module '../../core/modules.ts' {
  interface ServiceRegistry {
    api: ApiService;
  }
}
