// `hub uvl check` and `hub uvl convert`: the UVL toolkit (packages/uvl) on files.
// Imports are resolved on disk, relative to the importing file.

import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import {
  formatDiagnostic,
  parseUvl,
  printUvl,
  toCnf,
  toGlencoe,
  toSplot,
  UvlExportError,
  type ImportLoader,
  type ParseResult,
} from '../../packages/uvl/src/index.ts';

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
function describeFsError(error: unknown): string {
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

type Loaded = { ok: true; result: ParseResult } | { ok: false; error: string };

function loadAndParse(file: string): Loaded {
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
  return { ok: true, result: parseUvl(text, { fileName: resolve(file), loader: fileLoader }) };
}

const FORMATS = {
  glencoe: toGlencoe,
  splot: toSplot,
  cnf: toCnf,
  uvl: printUvl,
} as const;

export function registerUvlCommands(program: Command): void {
  const uvl = program.command('uvl').description('Check and convert UVL feature models');

  uvl
    .command('check')
    .description('Check UVL files for syntax errors (exit 0 when all are valid, 1 otherwise)')
    .argument('<files...>', 'UVL files')
    .option('--json', 'one JSON line per file: {"file", "valid", "errors", "warnings"}')
    .action((files: string[], options: { json?: boolean }) => {
      let allValid = true;
      for (const file of files) {
        const loaded = loadAndParse(file);
        const errors: string[] = [];
        const warnings: string[] = [];
        if (!loaded.ok) errors.push(loaded.error);
        else for (const d of loaded.result.diagnostics) (d.severity === 'error' ? errors : warnings).push(formatDiagnostic(d));
        const valid = errors.length === 0;
        if (!valid) allValid = false;
        if (options.json) {
          process.stdout.write(`${JSON.stringify({ file, valid, errors, warnings })}\n`);
        } else {
          const lines = [`${file}: ${valid ? 'valid' : `invalid (${errors.length} error${errors.length > 1 ? 's' : ''})`}${warnings.length ? `, ${warnings.length} warning${warnings.length > 1 ? 's' : ''}` : ''}`];
          for (const e of errors) lines.push(`  error   ${e}`);
          for (const w of warnings) lines.push(`  warning ${w}`);
          process.stdout.write(`${lines.join('\n')}\n`);
        }
      }
      process.exitCode = allValid ? 0 : 1;
    });

  uvl
    .command('convert')
    .description('Convert a UVL file to Glencoe JSON, SPLOT SXFM, DIMACS CNF or canonical UVL')
    .argument('<file>', 'UVL file')
    .requiredOption('--to <format>', 'glencoe | splot | cnf | uvl')
    .option('-o, --output <file>', 'write to this file instead of standard output')
    .action((file: string, options: { to: string; output?: string }) => {
      const convert = FORMATS[options.to as keyof typeof FORMATS];
      if (!convert) {
        process.stderr.write(`hub uvl convert: unknown format '${options.to}' (use glencoe, splot, cnf or uvl)\n`);
        process.exitCode = 1;
        return;
      }
      const loaded = loadAndParse(file);
      if (!loaded.ok) {
        process.stderr.write(`${file}: ${loaded.error}\n`);
        process.exitCode = 1;
        return;
      }
      const errors = loaded.result.diagnostics.filter((d) => d.severity === 'error');
      if (errors.length > 0) {
        process.stderr.write(`${file}: not converted, the model has syntax errors:\n${errors.map((d) => `  ${formatDiagnostic(d)}`).join('\n')}\n`);
        process.exitCode = 1;
        return;
      }
      let output: string;
      try {
        output = convert(loaded.result.model);
      } catch (error) {
        if (error instanceof UvlExportError) {
          process.stderr.write(`${file}: not converted: ${error.message}\n`);
          process.exitCode = 1;
          return;
        }
        throw error;
      }
      const content = output.endsWith('\n') ? output : `${output}\n`;
      if (!options.output) {
        process.stdout.write(content);
        return;
      }
      const target = resolve(options.output);
      // Written beside the target under a temporary name, then renamed: a failed write
      // never leaves a half-written or truncated output file.
      const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
      try {
        if (existsSync(target) && statSync(target).isDirectory()) throw Object.assign(new Error('it is a directory'), { code: 'EISDIR' });
        writeFileSync(temporary, content);
        renameSync(temporary, target);
      } catch (error) {
        try {
          rmSync(temporary, { force: true });
        } catch {
          // Nothing was written there (its folder does not exist).
        }
        process.stderr.write(`hub uvl convert: cannot write ${options.output}: ${describeFsError(error)}\n`);
        process.exitCode = 1;
      }
    });
}
