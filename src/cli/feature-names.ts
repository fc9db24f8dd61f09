// Feature names on the command line (`--select A,B`, `--why A`). A name may be written as in a UVL
// file, in double quotes, which is how a name holding a comma or spaces at its ends is given
// (`--select '"Sun, Roof",Turbo'`); a UVL name never contains a double quote, so the quotes are
// never part of one.

/** The names of a comma-separated list: unquoted parts trimmed, empty ones ignored, quoted ones taken as written. */
export function featureNames(value: string | undefined): string[] {
  const names: string[] = [];
  const text = value ?? '';
  let at = 0;
  while (at <= text.length) {
    const rest = text.slice(at);
    const quoted = /^\s*"([^"]*)"\s*(?:,|$)/.exec(rest);
    if (quoted) {
      names.push(quoted[1]!);
      at += quoted[0].length;
      if (at === text.length) break;
      continue;
    }
    const comma = text.indexOf(',', at);
    const part = text.slice(at, comma === -1 ? text.length : comma).trim();
    if (part !== '') names.push(part);
    if (comma === -1) break;
    at = comma + 1;
  }
  return names;
}

/** One name, quoted as in a UVL file or not. */
export function featureName(value: string): string {
  const quoted = /^\s*"([^"]*)"\s*$/.exec(value);
  return quoted ? quoted[1]! : value;
}
