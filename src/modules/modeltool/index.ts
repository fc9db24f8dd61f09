// The modeltool module's public face: the only file other modules import.
import type { ModeltoolService } from './modeltool.service.ts';

export type { ModeltoolService, CheckResult, ExportTarget, ModeltoolFailure } from './modeltool.service.ts';
export { ModeltoolError, UnknownExportTargetError, EXPORT_TARGETS } from './modeltool.service.ts';
export { exportFailure } from './modeltool.routes.ts';

declare module '../../core/modules.ts' {
  interface ServiceRegistry {
    modeltool: ModeltoolService;
  }
}
