// The editor module's public face: the only file other modules import.
import type { EditorService } from './editor.service.ts';

export type { EditorService } from './editor.service.ts';

/** Where a stored model opens in the editor (the model page links it). */
export const editorHref = (fileId: number) => `/editor/file/${fileId}`;

declare module '../../core/modules.ts' {
  interface ServiceRegistry {
    editor: EditorService;
  }
}
