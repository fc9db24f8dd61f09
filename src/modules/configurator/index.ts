// The configurator module's public face: the only file other modules import. Callers check
// `ctx.isEnabled('configurator')` first: every module works without this one.
import type { ConfiguratorService } from './configurator.service.ts';

export type { ConfiguratorService } from './configurator.service.ts';

declare module '../../core/modules.ts' {
  interface ServiceRegistry {
    configurator: ConfiguratorService;
  }
}
