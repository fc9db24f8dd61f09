// The "stage then commit" placement of a dataset's files over any FileStore (design habit 10):
// objects are written under their final keys before the rows are committed, so a committed row
// never points at a missing object; a failure before the commit removes what was written, and
// a crash in between leaves only unreferenced objects in a folder no row names, never a row
// without its file.
import type { FileStore, PutSource } from './file-store.ts';

/** What to place under `<folder><name>`: another object of the store (copied there) or bytes from outside it. */
export type PendingObject = { name: string } & ({ sourceKey: string } | { source: PutSource });

export interface ObjectPlacement {
  /** The folder prefix, ending with `/`. */
  folder: string;
  /** Copies every source under `<folder><name>` (call inside the transaction, before its commit). */
  stage(files: PendingObject[]): Promise<void>;
  /** Confirms the placement after the commit (nothing more to write: the objects are in place). */
  commit(): Promise<void>;
  /** Removes the objects written by this placement. */
  abort(): Promise<void>;
}

export class PlacementConflictError extends Error {}

export function placeObjects(store: FileStore, folder: string): ObjectPlacement {
  const written: string[] = [];
  return {
    folder,
    async stage(files) {
      for (const file of files) {
        const key = folder + file.name;
        // A placement never replaces a confirmed object: the folder belongs to a dataset being created.
        if ('sourceKey' in file) {
          if (await store.stat(key)) throw new PlacementConflictError(`${key} exists already`);
          written.push(key);
          await store.copy(file.sourceKey, key);
        } else {
          if (!(await store.putIfAbsent(key, file.source))) throw new PlacementConflictError(`${key} exists already`);
          written.push(key);
        }
      }
    },
    async commit() {
      written.length = 0;
    },
    async abort() {
      for (const key of written) await store.delete(key);
      written.length = 0;
    },
  };
}
