// Reading UVL files for the `hub uvl` commands: the model read and parsed with its imports
// resolved on disk, and file system errors as short reasons. Its own file so that the command
// files (uvl-commands.ts registers the compile and configure commands, which read files too)
// import it without importing each other in a circle.

import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseUvl, type ImportLoader, type ParseResult } from '../../packages/uvl/src/index.ts';

/** Reads imported models from the disk, next to the file that imports them. */
export const fileLoader: ImportLoader = ({ relativePath, importer }) => {
  const path = resolve(importer ? dirname(importer) : process.cwd(), relativePath);
  try {
    if (!existsSync(path) || !statSync(path).isFile()) return undefined;
    return { fileName: path, text: readFileSync(path, 'utf8') };
  } catch {
    return undefined;
  }
};

/** A file system error as a short reason, without the errno prefix and the path. */
export function describeFsError(error: unknown): string {
  const code = (error as { code?: string }).code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'ENOTDIR':
      return 'a part of the path is not a directory';
    case 'EISDIR':
      return 'it is a directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'read-only file system';
    case 'ENOSPC':
      return 'no space left on the device';
    default:
      return (error as Error).message;
  }
}

export type Loaded = { ok: true; result: ParseResult; text: string } | { ok: false; error: string };

/** Reads and parses a UVL file (imports from the disk); a read failure is an error line. */
export function loadAndParse(file: string): Loaded {
  let text: string;
  try {
    if (!existsSync(file)) return { ok: false, error: `Line 1:0 - cannot read ${file}: no such file` };
    if (statSync(file).isDirectory()) return { ok: false, error: `Line 1:0 - cannot read ${file}: it is a directory` };
    const bytes = readFileSync(file);
    // A binary file would otherwise give hundreds of "unexpected character" errors.
    const binary = `Line 1:0 - cannot read ${file}: it is not UTF-8 text (a binary file, or another encoding)`;
    if (bytes.includes(0)) return { ok: false, error: binary };
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return { ok: false, error: binary };
    }
  } catch (error) {
    return { ok: false, error: `Line 1:0 - cannot read ${file}: ${describeFsError(error)}` };
  }
  return { ok: true, result: parseUvl(text, { fileName: resolve(file), loader: fileLoader }), text };
}
