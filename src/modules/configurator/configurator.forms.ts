// Compiled forms stored by content (issue 37, item 1): a worker that compiles a model sends its
// compiled form's bytes (packages/analysis stored-form.ts) with its reply, and they are put in
// the file store under the model's SHA-256 and the engine version. Any worker that needs the
// form later (another seat, another instance, after a restart) loads it instead of compiling:
// automotive2_4 compiles in 5 to 12 s, its 2.5 MB form loads in under a second.
//
// The worker asks for the bytes (`need-form`) only when the main thread said they are stored and
// it does not hold the model compiled already, so a warm worker costs no read of the store.
import type { FileStore } from '../../core/storage/index.ts';
import { LruMap } from '../../core/lru-map.ts';
import { ENGINE_VERSION } from '../../../packages/analysis/src/index.ts';

/** Models whose stored form is known to exist or not; a few bytes each. */
const KEPT = 4000;

/** Where a model's compiled form is stored: by content, so it stays right whatever rows come and go (hub db:reset leaves it). */
export const compiledFormKey = (sha256: string) => `compiled/${sha256}/${ENGINE_VERSION}.form`;

export class StoredForms {
  private readonly known = new LruMap<string, boolean>(KEPT);

  constructor(private readonly store: FileStore, private readonly onError: (error: unknown, sha256: string) => void) {}

  /** Whether the model's form is stored (asked of the store once per model and process, then kept). */
  async has(sha256: string): Promise<boolean> {
    const known = this.known.get(sha256);
    if (known !== undefined) return known;
    const stored = (await this.store.stat(compiledFormKey(sha256))) !== undefined;
    this.known.set(sha256, stored);
    return stored;
  }

  /** The stored bytes, or undefined when they are gone (then the model is compiled again). */
  async read(sha256: string): Promise<Uint8Array | undefined> {
    const content = await this.store.get(compiledFormKey(sha256));
    if (!content) {
      this.known.set(sha256, false);
      return undefined;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of content.body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  /** A worker could not read the stored form: compiled again (and replaced) at the next need. */
  refused(sha256: string): void {
    this.known.set(sha256, false);
  }

  /** Stores a form a worker compiled; in the background (the reply does not wait), errors logged. */
  save(sha256: string, bytes: Uint8Array): void {
    this.known.set(sha256, true);
    const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    // A form that another worker stored meanwhile is the same bytes: replaced, as one refused on load must be.
    this.store.put(compiledFormKey(sha256), body).catch((error) => {
      this.known.set(sha256, false);
      this.onError(error, sha256);
    });
  }
}
