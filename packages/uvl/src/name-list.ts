// Lists of feature names in one line of text (`A,B` on the command line and in the configurator's
// URLs and sample queries). A name may be written as in a UVL file, in double quotes, which is how
// a name holding a comma or spaces at its ends is given (`"Sun, Roof",Turbo`); a UVL name never
// contains a double quote, so the quotes are never part of one. The configurator page's script
// (src/modules/configurator/assets/js/configurator.js) reads and writes the same form.

/** The names of a comma-separated list: unquoted parts trimmed, empty ones ignored, quoted ones taken as written. */
export function parseNameList(value: string | undefined): string[] {
  const names: string[] = [];
  const text = value ?? '';
  let at = 0;
  while (at < text.length) {
    const quoted = /^\s*"([^"]*)"\s*(?:,|$)/.exec(text.slice(at));
    if (quoted) {
      names.push(quoted[1]!);
      at += quoted[0].length;
      continue;
    }
    const comma = text.indexOf(',', at);
    const part = text.slice(at, comma === -1 ? text.length : comma).trim();
    if (part !== '') names.push(part);
    at = comma === -1 ? text.length : comma + 1;
  }
  return names;
}

/** One name, quoted as in a UVL file or not. */
export function unquoteName(value: string): string {
  const quoted = /^\s*"([^"]*)"\s*$/.exec(value);
  return quoted ? quoted[1]! : value;
}

/** The list as parseNameList reads it back: a name with a comma, a quote-free edge space or nothing plain is quoted. */
export function formatNameList(names: readonly string[]): string {
  return names.map((n) => (/[,]|^\s|\s$|^"/.test(n) || n === '' ? `"${n}"` : n)).join(',');
}
