// The hubfile module's public face: the only file other modules import.
import type { HubfileService } from './hubfile.service.ts';

export type { FileOriginal, HubfileService, HubfileView, StoredFile } from './hubfile.service.ts';
export { isSafeFileName, parseFileId, UnsafeFileNameError } from './hubfile.service.ts';
export { attachmentHeader } from './hubfile.http.ts';
export { restFile, restFileSchema } from './hubfile.presenter.ts';

declare module '../../core/modules.ts' {
  interface ServiceRegistry {
    hubfile: HubfileService;
  }
}
