// The features of a FeatureIDE file counted from its bytes, without building its tree: the
// reader's tree of a 25 MB file with 10^6 features took about 1.3 GB of heap (1.5 GB resident)
// and 10 s, only for the model to be refused for its size. A hub compares this count with its
// limit before reading the file, so a file over it costs one pass over its bytes.
//
// Counts the start tags <and>, <or>, <alt> and <feature> inside <struct> (each is one feature;
// a `featureOrder` section names features again outside it), skipping comments, CDATA sections
// and processing instructions. The tag names are ASCII, so UTF-8 and Latin-1 files scan alike.

const LT = 0x3c;
const FEATURE_TAGS = ['and', 'or', 'alt', 'feature'].map((tag) => Buffer.from(tag));
/** After a tag's name: whitespace, `/` or `>`. */
const ENDS_NAME = new Set([0x20, 0x09, 0x0a, 0x0d, 0x2f, 0x3e]);
const SKIPPED: [Buffer, Buffer][] = [['<!--', '-->'], ['<![CDATA[', ']]>'], ['<?', '?>']].map(([open, close]) => [Buffer.from(open!), Buffer.from(close!)]);

function startsAt(bytes: Buffer, at: number, word: Buffer): boolean {
  return bytes.compare(word, 0, word.length, at, at + word.length) === 0;
}

function isFeatureTag(bytes: Buffer, at: number): boolean {
  for (const tag of FEATURE_TAGS) {
    if (startsAt(bytes, at + 1, tag) && ENDS_NAME.has(bytes[at + 1 + tag.length] ?? -1)) return true;
  }
  return false;
}

/** Features of the file's first <struct> (0 when it has none, e.g. SPLOT SXFM); an estimate that never undercounts a well-formed file. */
export function featureIdeFeatureCount(data: Uint8Array): number {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  let at = bytes.indexOf('<struct');
  if (at < 0) return 0;
  let count = 0;
  for (at = bytes.indexOf(LT, at + 1); at >= 0; at = bytes.indexOf(LT, at + 1)) {
    const skipped = SKIPPED.find(([open]) => startsAt(bytes, at, open));
    if (skipped) {
      const end = bytes.indexOf(skipped[1], at + skipped[0].length);
      if (end < 0) break;
      at = end;
    } else if (startsAt(bytes, at, Buffer.from('</struct'))) break;
    else if (isFeatureTag(bytes, at)) count++;
  }
  return count;
}
