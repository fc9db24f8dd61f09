// The files of `hub import --replace`, switched so that the switch can be undone until the rows
// commit (extensions section 11: a failure at any point leaves the previous hub as it was, its
// rows and its files). The previous hub's files are moved aside to a backup folder of the store's
// temporary area, then the staged files onto their keys; all of it runs inside the rows'
// transaction, just before its commit. A failure up to the end of that commit moves everything
// back; only once the rows are in is the backup deleted.
import type { FileStore } from '../../core/storage/index.ts';
import type { Manifest } from './manifest.ts';

/** The store's folders that belong to the hub's rows (as `hub db:reset` removes them); anything else is left alone. */
const hubOwned = (key: string) => /^(temp|user_\d+)\//.test(key);

export interface FileSwitch {
  /** Where the previous hub's files wait while the rows are replaced (`temp/import-…-previous/`). */
  readonly backup: string;
  /** Moves the previous hub's files aside, then the staged files onto their keys (just before the rows commit). */
  apply(): Promise<void>;
  /** Undoes whatever apply did, last move first: the store holds the previous hub's files again. */
  revert(): Promise<void>;
  /** After the rows committed: removes the backup and the (now empty) staging folder. */
  finish(): Promise<void>;
}

/**
 * The switch from the previous hub's files to the archive's, staged under `staging`. Moved
 * aside: the hub's own files (hubOwned) and any other key the archive writes over, never the
 * import's own folders. A move is one rename locally, and on S3 a copy then a delete: a move cut
 * between the two leaves the object under both keys, which revert and finish both tolerate.
 */
export function fileSwitch(store: FileStore, manifest: Manifest, staging: string): FileSwitch {
  const backup = `${staging.slice(0, -1)}-previous/`;
  const movedAside: string[] = [];
  const placed: string[] = [];
  return {
    backup,
    async apply() {
      const archived = new Set(manifest.files.map((f) => f.key));
      const ours = (key: string) => key.startsWith(staging) || key.startsWith(backup);
      for (const { key } of await store.list('')) {
        if (ours(key) || !(hubOwned(key) || archived.has(key))) continue;
        // Noted before the move: revert looks for what actually reached the backup.
        movedAside.push(key);
        await store.move(key, backup + key);
      }
      for (const file of manifest.files) {
        placed.push(file.key);
        await store.move(staging + file.key, file.key);
      }
    },
    async revert() {
      const failures: string[] = [];
      const attempt = async (what: string, step: () => Promise<unknown>) => {
        try {
          await step();
        } catch (error) {
          failures.push(`${what}: ${(error as Error).message}`);
        }
      };
      for (const key of placed.reverse()) await attempt(`removing ${key}`, () => store.delete(key));
      for (const key of movedAside.reverse()) {
        await attempt(`putting back ${key}`, async () => {
          if (await store.stat(backup + key)) await store.move(backup + key, key);
        });
      }
      placed.length = 0;
      movedAside.length = 0;
      if (failures.length > 0) {
        // The backup is all that is left of those files: it stays where it is.
        throw new Error(`the previous hub's files could not all be put back (${failures.join('; ')}); they are under ${backup} in ${store.location}`);
      }
      // What is left there are copies of files back in place (an S3 move cut after its copy).
      await store.deletePrefix(backup).catch((error: Error) => {
        throw new Error(`the previous hub's files are back in place, but removing ${backup} from ${store.location} failed: ${error.message}`);
      });
    },
    async finish() {
      await store.deletePrefix(backup);
      await store.deletePrefix(staging);
    },
  };
}
