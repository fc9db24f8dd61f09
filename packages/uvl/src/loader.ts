// Loaders resolve imports for parseUvl. The library reads no files: the caller decides
// where imported models come from (the command line: the disk, next to the importing file;
// the hub: the files of one dataset).

import type { ImportLoader } from './parser.ts';

/** Joins a relative path onto the directory of `from` ('/'-separated), resolving '.' and '..'. */
export function resolveRelative(from: string | undefined, relativePath: string): string {
  const base = from && from.includes('/') ? from.slice(0, from.lastIndexOf('/') + 1) : '';
  const out: string[] = [];
  for (const part of `${base}${relativePath}`.split('/')) {
    if (part === '..') out.pop();
    else if (part !== '.' && part !== '') out.push(part);
  }
  return out.join('/');
}

/**
 * A loader over an in-memory set of files keyed by '/'-separated path (for example the files
 * of one dataset): an import is looked up relative to the importing file's folder.
 */
export function createMapLoader(files: ReadonlyMap<string, string> | Record<string, string>): ImportLoader {
  const map = files instanceof Map ? files : new Map(Object.entries(files));
  return ({ relativePath, importer }) => {
    const path = resolveRelative(importer, relativePath);
    const text = map.get(path);
    return text === undefined ? undefined : { fileName: path, text };
  };
}
