// The features of a FeatureIDE file counted from its bytes, without building its tree: the
// reader's tree of a 25 MB file with 10^6 features took about 1.3 GB of heap (1.5 GB resident)
// and 10 s, only for the model to be refused for its size. A hub compares this count with its
// limit before reading the file, so a file over it costs one pass over its bytes.
//
// Counts the start tags <and>, <or>, <alt> and <feature> inside <struct> (each is one feature;
// a `featureOrder` section names features again outside it), skipping comments, CDATA sections
// and processing instructions. The tag names are ASCII, so UTF-8 and Latin-1 files scan alike.

// Plain Uint8Array and TextEncoder, no Node Buffer: packages/uvl runs in browsers too (the editor).

const LT = 0x3c;
const ascii = (text: string): Uint8Array => new TextEncoder().encode(text);
const FEATURE_TAGS = ['and', 'or', 'alt', 'feature'].map(ascii);
/** After a tag's name: whitespace, `/` or `>`. */
const ENDS_NAME = new Set([0x20, 0x09, 0x0a, 0x0d, 0x2f, 0x3e]);
const SKIPPED: [Uint8Array, Uint8Array][] = [['<!--', '-->'], ['<![CDATA[', ']]>'], ['<?', '?>']].map(([open, close]) => [ascii(open!), ascii(close!)]);
const STRUCT_OPEN = ascii('<struct');
const STRUCT_CLOSE = ascii('</struct');

function startsAt(bytes: Uint8Array, at: number, word: Uint8Array): boolean {
  if (at + word.length > bytes.length) return false;
  for (let i = 0; i < word.length; i++) if (bytes[at + i] !== word[i]) return false;
  return true;
}

/** The first place at or after `from` where `word` starts, else -1. */
function indexOfWord(bytes: Uint8Array, word: Uint8Array, from: number): number {
  for (let at = bytes.indexOf(word[0]!, from); at >= 0; at = bytes.indexOf(word[0]!, at + 1)) {
    if (startsAt(bytes, at, word)) return at;
  }
  return -1;
}

function isFeatureTag(bytes: Uint8Array, at: number): boolean {
  for (const tag of FEATURE_TAGS) {
    if (startsAt(bytes, at + 1, tag) && ENDS_NAME.has(bytes[at + 1 + tag.length] ?? -1)) return true;
  }
  return false;
}

/** Features of the file's first <struct> (0 when it has none, e.g. SPLOT SXFM); an estimate that never undercounts a well-formed file. */
export function featureIdeFeatureCount(bytes: Uint8Array): number {
  let at = indexOfWord(bytes, STRUCT_OPEN, 0);
  if (at < 0) return 0;
  let count = 0;
  for (at = bytes.indexOf(LT, at + 1); at >= 0; at = bytes.indexOf(LT, at + 1)) {
    const skipped = SKIPPED.find(([open]) => startsAt(bytes, at, open));
    if (skipped) {
      const end = indexOfWord(bytes, skipped[1], at + skipped[0].length);
      if (end < 0) break;
      at = end;
    } else if (startsAt(bytes, at, STRUCT_CLOSE)) break;
    else if (isFeatureTag(bytes, at)) count++;
  }
  return count;
}
