// The UVL parser: hand-written recursive descent over the scanner's token
// arrays (expressions on an explicit stack, so parentheses nest to any depth), one parseX per grammar rule of the reference grammar (uvlparser 2.5.0,
// UVLParser.g4) with the rule in a comment above it. Errors are collected as
// diagnostics; the parser recovers at line and block boundaries, reports at most
// one error per line, and never throws. Every loop consumes a token or stops.
//
// This file is the entry point and follows imports; the rules are in parser-sections.ts,
// parser-features.ts, parser-attributes.ts and parser-expressions.ts, over the token cursor,
// positions and diagnostics of parser-context.ts.

import type { ParseResult, UvlModel } from './ast.ts';
import type { DiagnosticCode } from './diagnostics.ts';
import { MAX_DEPTH, ParseContext } from './parser-context.ts';
import { parseModel } from './parser-sections.ts';

export { MAX_DEPTH };

/** Imports nest at most this deep (a model importing a model importing …); a deeper one is a warning. */
export const MAX_IMPORT_NESTING = 32;
/**
 * Rounds of reading files a caller whose loader cannot read synchronously needs at most to give
 * the parser every file it may follow: the importing file's imports, then one round per level.
 */
export const IMPORT_READ_ROUNDS = MAX_IMPORT_NESTING + 1;

export interface ImportRequest {
  /** The namespace as written in the imports section, e.g. `nested.sub`. */
  namespace: string;
  /** The file it names, relative to the importing model: `nested/sub.uvl`. */
  relativePath: string;
  /** The importing model's file name, as given by the caller or the loader. */
  importer?: string;
}

export interface LoadedModel {
  /** A name for the loaded file, passed back as `importer` for its own imports. */
  fileName: string;
  text: string;
}

/** Provides imported models; returns undefined when there is no such model. Must not throw. */
export type ImportLoader = (request: ImportRequest) => LoadedModel | undefined;

export interface ParseOptions {
  /** Name of the text (a path for the command line); passed to the loader as `importer`. */
  fileName?: string;
  /** Resolves imports; without it, imports are recorded but not followed. */
  loader?: ImportLoader;
}

/** Parses one UVL text. Never throws: problems are returned as diagnostics. */
export function parseUvl(text: string, options: ParseOptions = {}): ParseResult {
  try {
    return parseWithImports(text, options, []);
  } catch (error) {
    // Defensive only: the parser is written not to throw. Should it, the caller still gets data.
    return {
      model: { includes: [], imports: [], constraints: [], fileName: options.fileName },
      diagnostics: [
        { code: 'unexpected-token', severity: 'error', message: `internal parser failure: ${(error as Error)?.message ?? String(error)}`, offset: 0, length: 0, line: 1, column: 0 },
      ],
    };
  }
}

function parseWithImports(text: string, options: ParseOptions, stack: string[]): ParseResult {
  const result = parseText(text, options.fileName);
  const loader = options.loader;
  if (!loader) return result;
  const self = options.fileName ?? '';
  for (const imp of result.model.imports) {
    const request: ImportRequest = {
      namespace: imp.namespace.name,
      relativePath: `${imp.namespace.parts.join('/')}.uvl`,
      importer: options.fileName,
    };
    let loaded: LoadedModel | undefined;
    try {
      loaded = loader(request);
    } catch {
      loaded = undefined;
    }
    const at = imp.namespace.span;
    const warn = (code: DiagnosticCode, message: string) =>
      result.diagnostics.push({ code, severity: 'warning', message, offset: at.offset, length: at.length, line: at.line, column: at.column });
    if (!loaded) {
      warn('import-not-found', `imported model '${imp.namespace.name}' not found (looked for ${request.relativePath})`);
      continue;
    }
    if (loaded.fileName === self || stack.includes(loaded.fileName)) {
      warn('import-error', `import cycle: '${imp.namespace.name}' (${loaded.fileName}) imports this model again`);
      continue;
    }
    if (stack.length >= MAX_IMPORT_NESTING) {
      warn('import-error', `imports nested more than ${MAX_IMPORT_NESTING} levels deep at '${imp.namespace.name}'`);
      continue;
    }
    const sub = parseWithImports(loaded.text, { fileName: loaded.fileName, loader }, [...stack, self]);
    imp.resolved = { fileName: loaded.fileName, model: sub.model, diagnostics: sub.diagnostics };
    const errors = sub.diagnostics.filter((d) => d.severity === 'error');
    if (errors.length > 0) {
      const first = errors[0]!;
      warn('import-error', `imported model '${imp.namespace.name}' (${loaded.fileName}) has ${errors.length} syntax error${errors.length > 1 ? 's' : ''}; first: Line ${first.line}:${first.column} - ${first.message}`);
    }
  }
  return result;
}


/** Parses one text without following imports. */
export function parseText(input: string, fileName?: string): ParseResult {
  const c = new ParseContext(input);
  const model: UvlModel = { includes: [], imports: [], constraints: [] };
  if (fileName !== undefined) model.fileName = fileName;
  parseModel(c, model);
  const diagnostics = c.diagnostics;
  // Diagnostics arrive in source order per producer; the scanner's and the parser's are merged here.
  diagnostics.sort((a, b) => a.offset - b.offset);
  return { model, diagnostics };
}
