// A stream that opens its source only when first read: a zip of many stored files holds one
// open file (or one S3 request) at a time, not one per file from the start.
import { Readable } from 'node:stream';

export function lazyStream(open: () => Promise<Readable | undefined>, what: string): Readable {
  let source: Readable | undefined;
  return new Readable({
    read() {
      if (source) {
        source.resume();
        return;
      }
      open().then((opened) => {
        if (!opened) {
          this.destroy(new Error(`${what} is missing`));
          return;
        }
        source = opened;
        opened.on('data', (chunk) => {
          if (!this.push(chunk)) opened.pause();
        });
        opened.once('end', () => this.push(null));
        opened.once('error', (error) => this.destroy(error));
      }, (error: unknown) => this.destroy(error as Error));
    },
    destroy(error, callback) {
      source?.destroy();
      callback(error);
    },
  });
}
