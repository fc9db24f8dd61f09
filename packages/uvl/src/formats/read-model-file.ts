// One entry for an uploaded or given model file: detects the format from the file name (and,
// for `.xml`, the root element) as extensions section 7 says, and converts it to UVL.
//   .uvl -> UVL; .xml with root featureModel / extendedFeatureModel -> FeatureIDE;
//   .sxfm, or .xml with root feature_model -> SPLOT SXFM; .json -> Glencoe.

import type { UvlModel } from '../ast.ts';
import { formatDiagnostic } from '../diagnostics.ts';
import { parseUvl } from '../parser.ts';
import { readFeatureIde } from './featureide-read.ts';
import { readGlencoe } from './glencoe-read.ts';
import { formatError, type FormatReadResult } from './imported.ts';
import { readSxfm } from './sxfm-read.ts';

export type ModelFormat = 'uvl' | 'featureide' | 'sxfm' | 'glencoe';

export interface ModelFileResult {
  /** Undefined when the file is none of the four formats. */
  format: ModelFormat | undefined;
  /** The model as UVL text: the file itself for `.uvl`; undefined when `errors` is not empty. */
  uvl: string | undefined;
  model: UvlModel | undefined;
  /** What the conversion could not carry over (always empty for `.uvl`). */
  losses: string[];
  /** `Line <l>:<c> - <message>`; for `.uvl` the syntax errors (warnings are not errors). */
  errors: string[];
}

const READERS: Record<Exclude<ModelFormat, 'uvl'>, (text: string) => FormatReadResult> = {
  featureide: readFeatureIde,
  sxfm: readSxfm,
  glencoe: readGlencoe,
};

/** The root element's name of an XML text (after the prolog, comments and doctype), if any. */
export function xmlRootName(text: string): string | undefined {
  return xmlRoot(text)?.name;
}

/**
 * The root element of an XML text with its position (line from 1, column from 0, as the readers'
 * errors give them). The prolog, comments and doctype are blanked rather than removed, so that
 * the position found is the one in the file (a root after an XML declaration is on line 2).
 */
function xmlRoot(text: string): { name: string; line: number; column: number } | undefined {
  const blanked = text.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>/g, (skipped) => skipped.replace(/[^\n]/g, ' '));
  const match = /<([A-Za-z_][\w.:-]*)/.exec(blanked);
  if (!match) return undefined;
  const before = blanked.slice(0, match.index);
  return { name: match[1]!, line: before.split('\n').length, column: match.index - (before.lastIndexOf('\n') + 1) };
}

/** The format of a file by its name, and for `.xml` its root element. */
export function detectFormat(fileName: string, text: string): ModelFormat | { error: string } {
  const ext = /\.([^./\\]+)$/.exec(fileName)?.[1]?.toLowerCase();
  if (ext === 'uvl') return 'uvl';
  if (ext === 'sxfm') return 'sxfm';
  if (ext === 'json') return 'glencoe';
  if (ext === 'xml') {
    const root = xmlRoot(text);
    if (root?.name === 'featureModel' || root?.name === 'extendedFeatureModel') return 'featureide';
    if (root?.name === 'feature_model') return 'sxfm';
    // The error names the root's own line, as the readers' errors do (extensions section 7).
    if (root) return { error: formatError(root.line, root.column, `an .xml model must be FeatureIDE (root <featureModel> or <extendedFeatureModel>) or SPLOT SXFM (root <feature_model>); this one's root is <${root.name}>`) };
    return { error: formatError(1, 0, 'an .xml model needs a root element') };
  }
  return { error: formatError(1, 0, `unknown model format '${ext ? `.${ext}` : fileName}': use .uvl, FeatureIDE .xml, SPLOT .sxfm or .xml, or Glencoe .json`) };
}

/** Bytes as text: UTF-8, or Latin-1 when an XML declaration says so (old SPLOT files). */
export function decodeModelBytes(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
  const declared = /<\?xml[^>]*encoding=["']([^"']+)["']/i.exec(head)?.[1]?.toLowerCase();
  if (declared && /^(iso-8859-1|latin-?1|windows-1252|us-ascii)$/.test(declared)) return new TextDecoder(declared === 'us-ascii' ? 'latin1' : declared).decode(bytes);
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** Reads a model file of any supported format as UVL, with the loss report or the errors. */
export function readModelFile(fileName: string, content: string | Uint8Array): ModelFileResult {
  const text = typeof content === 'string' ? content : decodeModelBytes(content);
  if (text === undefined) return { format: undefined, uvl: undefined, model: undefined, losses: [], errors: [formatError(1, 0, 'the file is not text (binary, or an encoding other than UTF-8)')] };
  const format = detectFormat(fileName, text);
  if (typeof format !== 'string') return { format: undefined, uvl: undefined, model: undefined, losses: [], errors: [format.error] };
  if (format === 'uvl') {
    const { model, diagnostics } = parseUvl(text, { fileName });
    const errors = diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic);
    return { format, uvl: errors.length === 0 ? text : undefined, model: errors.length === 0 ? model : undefined, losses: [], errors };
  }
  let result: FormatReadResult;
  try {
    result = READERS[format](text);
  } catch (error) {
    // The readers recurse along the tree: a pathologically deep model overflows the stack. Any
    // other exception is a bug of a reader; an upload still gets an answer instead of a crash.
    const reason = error instanceof RangeError ? 'the feature tree nests too deep to convert' : `the model could not be converted (${(error as Error).message})`;
    result = { losses: [], errors: [formatError(1, 0, reason)] };
  }
  return { format, uvl: result.uvl, model: result.model, losses: result.losses, errors: result.errors };
}
