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

/** resolveRelative, or undefined when the path climbs above the root folder. */
function resolveWithin(from: string, relativePath: string): string | undefined {
  const base = from.includes('/') ? from.slice(0, from.lastIndexOf('/') + 1) : '';
  const out: string[] = [];
  for (const part of `${base}${relativePath}`.split('/')) {
    if (part === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else if (part !== '.' && part !== '') out.push(part);
  }
  return out.join('/');
}

/**
 * A loader for a caller that reads imported files ahead, in rounds, because the parser's loader is
 * synchronous and the files live in a store: a path in `read` is served (null or undefined: read,
 * and not there), a path not read yet is added to `wanted` for the next round. A path that leaves
 * the importing model's root folder is never asked for.
 */
export function createReadAheadLoader(
  rootFile: string,
  read: Readonly<Record<string, string | null | undefined>>,
  wanted: Set<string>,
): ImportLoader {
  return ({ relativePath, importer }) => {
    const path = resolveWithin(importer ?? rootFile, relativePath);
    if (path === undefined) return undefined;
    // Own keys only: an import named like an Object.prototype member ('constructor') is a file to read.
    if (!Object.hasOwn(read, path)) {
      wanted.add(path);
      return undefined;
    }
    const text = read[path];
    return text === null || text === undefined ? undefined : { fileName: path, text };
  };
}
