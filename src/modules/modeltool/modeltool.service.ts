// Model tooling (specification, modeltool; decisions section 6): validation and export of
// stored UVL files with packages/uvl. Stored files are read only through the hubfile service;
// a model's imports are resolved among the other files of its own dataset, never elsewhere.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { ModuleContext } from '../../core/modules.ts';
import { bindOperations } from '../../core/operations.ts';
import type { StoredFile } from '../hubfile/index.ts';
import {
  checkUvl, countModel, parseUvl, toCnf, toFeatureIde, toGlencoe, toSplot, IMPORT_READ_ROUNDS, type UvlModel,
} from '../../../packages/uvl/src/index.ts';
import { runModeltoolJob, type ModeltoolReply } from './modeltool.jobs.ts';
import { withoutFinalStop } from '../../core/text.ts';

/**
 * Each export: the specification's attachment name (`<name>_glencoe.txt`, modeltool routes) and,
 * for the model page's downloads, the format's usual file name and media type (`car.json`).
 */
export const EXPORT_TARGETS = {
  glencoe: { convert: toGlencoe, suffix: '.json', download: '_glencoe.txt', extension: '.json', mediaType: 'application/json' },
  splot: { convert: toSplot, suffix: '.splx', download: '_splot.txt', extension: '.xml', mediaType: 'application/xml' },
  cnf: { convert: toCnf, suffix: '.cnf', download: '_cnf.txt', extension: '.dimacs', mediaType: 'text/plain' },
  // Issue 27: what FeatureIDE cannot say is listed on the model page (featureIdeLosses).
  featureide: { convert: (model: UvlModel) => toFeatureIde(model).xml, suffix: '.xml', download: '_featureide.txt', extension: '.xml', mediaType: 'application/xml' },
} as const satisfies Record<string, { convert: (model: UvlModel) => string; suffix: string; download: string; extension: string; mediaType: string }>;

/** `car.uvl` → `car.json`: the stored name without its `.uvl`, with the format's usual extension. */
export function usualExportName(storedName: string, target: ExportTarget): string {
  return `${storedName.replace(/\.uvl$/i, '')}${EXPORT_TARGETS[target].extension}`;
}

export type ExportTarget = keyof typeof EXPORT_TARGETS;

/** The "value error" of modeltool rule 4: raised before anything is read. */
export class UnknownExportTargetError extends Error {
  constructor(readonly target: string) {
    super(`Unknown export target "${target}"; use one of ${Object.keys(EXPORT_TARGETS).join(', ')}.`);
    this.name = 'UnknownExportTargetError';
  }
}

export type ModeltoolFailure =
  /** No such file (or, for a visitor, a file of someone else's unsynchronized dataset). */
  | 'unknown-file'
  /** The row exists, the disk file does not. */
  | 'missing-on-disk'
  /** The model has syntax errors: it is not converted. */
  | 'syntax-errors'
  /** A converter refused the model (a constraint naming an unknown feature, no features). */
  | 'not-exportable';

export class ModeltoolError extends Error {
  constructor(
    readonly kind: ModeltoolFailure,
    message: string,
    readonly errors: string[] = [],
    readonly warnings: string[] = [],
  ) {
    super(message);
    this.name = 'ModeltoolError';
  }
}

export interface CheckResult {
  valid: boolean;
  errors: string[];
  warnings: string[];
}

/** Who asks: undefined for a call from another module (sees every file), else the visitor's user id or null. */
export interface Viewer {
  viewerId?: number | null;
  /** The fair queues' key of a visitor's request (requesterOf); undefined for another module's call. */
  requester?: string;
}

const TEMP_PREFIX = 'hub-modeltool-';
/** A dataset holds at most 200 files (decisions section 4), so no import graph is larger. */
const MAX_IMPORTED_FILES = 200;

export function isExportTarget(target: string): target is ExportTarget {
  return Object.hasOwn(EXPORT_TARGETS, target);
}

/** Temporary export folders not yet removed; the module removes any left when the app closes. */

/** What the operations work with: the module context and the temporary export folders this service made. */
interface ModeltoolDeps {
  ctx: ModuleContext;
  liveExports: Set<string>;
}

async function storedFile(d: ModeltoolDeps, fileId: number, options: Viewer): Promise<StoredFile> {
  const file = options.viewerId === undefined
    ? await d.ctx.services.hubfile.getFile(fileId)
    : await d.ctx.services.hubfile.getVisibleFile(fileId, options.viewerId);
  if (!file) throw new ModeltoolError('unknown-file', `There is no UVL file with id ${fileId}.`);
  return file;
}

async function storedText(d: ModeltoolDeps, file: StoredFile): Promise<string> {
  const text = await d.ctx.services.hubfile.readText(file);
  if (text === undefined) throw new ModeltoolError('missing-on-disk', `The UVL file ${file.name} (id ${file.id}) is missing from disk.`);
  return text;
}

/**
 * Parses a stored model (and converts it to `target`) in a worker of the scheduler, with its
 * imports read from the same dataset folder. The parser's loader is synchronous, so the imported
 * files are read ahead: each round parses with what has been read, notes the files the parser
 * asked for, reads those, and parses again. A model without imports (the usual case) is parsed once.
 */
async function parseStored(d: ModeltoolDeps, file: StoredFile, text: string, options: Viewer, target?: ExportTarget): Promise<ModeltoolReply> {
  const known: Record<string, string | undefined> = {};
  for (let round = 0; ; round++) {
    const reply = await runModeltoolJob(d.ctx.scheduler, options.requester, { fileName: file.name, text, known, target });
    if (reply.kind === 'crash') throw new ModeltoolError('not-exportable', `The UVL file ${file.name} (id ${file.id}) could not be read within the hub's limits: ${withoutFinalStop(reply.message)}.`);
    const toRead = reply.wanted.slice(0, Math.max(0, MAX_IMPORTED_FILES - Object.keys(known).length));
    if (toRead.length === 0 || round >= IMPORT_READ_ROUNDS) return reply;
    const texts = await Promise.all(toRead.map((path) => (path === file.name ? text : d.ctx.services.hubfile.readSibling(file, path))));
    toRead.forEach((path, i) => { known[path] = texts[i]; });
  }
}

async function removeFolder(d: ModeltoolDeps, folder: string): Promise<void> {
  try {
    await rm(folder, { recursive: true, force: true });
    d.liveExports.delete(folder);
  } catch (error) {
    d.ctx.log.warn({ err: error, folder }, 'could not remove a temporary export folder');
  }
}

/** Removes an export's temporary folder; best effort, and only a folder this service made. */
export async function cleanup(d: ModeltoolDeps, path: string): Promise<void> {
  const folder = dirname(path);
  if (basename(folder).startsWith(TEMP_PREFIX) && d.liveExports.has(folder)) await removeFolder(d, folder);
}

/** validate_uvl: every syntax error as `Line <l>:<c> - <message>`; tab hints and import problems are warnings. */
export async function validateUvl(d: ModeltoolDeps, fileId: number, options: Viewer = {}): Promise<CheckResult> {
  const file = await storedFile(d, fileId, options);
  return (await parseStored(d, file, await storedText(d, file), options)).check;
}

/** hubfile_exists: whether the id names a stored file (that this viewer may see). */
export async function hubfileExists(d: ModeltoolDeps, fileId: number, options: Viewer = {}): Promise<boolean> {
  const file = options.viewerId === undefined
    ? await d.ctx.services.hubfile.getFile(fileId)
    : await d.ctx.services.hubfile.getVisibleFile(fileId, options.viewerId);
  return file !== undefined;
}

/** A stored model converted to a target in memory, with the errors of `export` (rule 4: the target is checked first). */
async function converted(d: ModeltoolDeps, fileId: number, target: string, options: Viewer) {
  if (!isExportTarget(target)) throw new UnknownExportTargetError(target);
  const format = EXPORT_TARGETS[target];
  const file = await storedFile(d, fileId, options);
  const parsed = await parseStored(d, file, await storedText(d, file), options, target);
  const check = parsed.check;
  if (!check.valid) {
    throw new ModeltoolError('syntax-errors', `The UVL file ${file.name} (id ${file.id}) has syntax errors, so it cannot be converted.`, check.errors, check.warnings);
  }
  if (parsed.exportError !== undefined || parsed.output === undefined) {
    throw new ModeltoolError('not-exportable', `The UVL file ${file.name} (id ${file.id}) cannot be converted: ${parsed.exportError ?? 'no output'}`, [], check.warnings);
  }
  return { file, format, target, output: parsed.output };
}

/**
 * export: converts the stored model and writes it to a temporary file in a fresh temporary
 * folder; answers its path, the attachment name (`<stored name>_<target>.txt`) and the usual
 * one (`car.json`). The caller streams it and calls cleanup(d, path) once the answer has gone.
 */
export async function exportModel(d: ModeltoolDeps, fileId: number, target: string, options: Viewer = {}): Promise<{ path: string; downloadName: string; usualName: string }> {
  const { file, format, output } = await converted(d, fileId, target, options);
  const folder = await mkdtemp(join(tmpdir(), TEMP_PREFIX));
  d.liveExports.add(folder);
  const path = join(folder, `file_${file.id}${format.suffix}`);
  try {
    await writeFile(path, output);
  } catch (error) {
    await cleanup(d, path);
    throw error;
  }
  return { path, downloadName: `${file.name}${format.download}`, usualName: usualExportName(file.name, target as ExportTarget) };
}

/** The conversion of `export` as text, for callers that stream it themselves (the cart's zip). */
export async function exportText(d: ModeltoolDeps, fileId: number, target: string, options: Viewer = {}): Promise<{ text: string; downloadName: string }> {
  const { file, format, output } = await converted(d, fileId, target, options);
  return { text: output, downloadName: `${file.name}${format.download}` };
}

/** Removes every export folder still present (the app is closing). */
export async function cleanupAll(d: ModeltoolDeps): Promise<void> {
  await Promise.all([...d.liveExports].map((folder) => removeFolder(d, folder)));
}

/** The staging check of the dataset module: a text on its own (imports are not followed). */
export function checkText(d: ModeltoolDeps, text: string): CheckResult {
  return checkUvl(text);
}

/** Number of features as flamapy counts them (DSMetrics, decisions section 4). */
export function countFeatures(d: ModeltoolDeps, text: string): number {
  return countModel(parseUvl(text).model).features;
}

export function createModeltoolService(ctx: ModuleContext) {
  /** Temporary export folders not yet removed; the module removes any left when the app closes. */
  const deps: ModeltoolDeps = { ctx, liveExports: new Set<string>() };
  return bindOperations(deps, {
    validateUvl, hubfileExists, export: exportModel, exportText, cleanup, cleanupAll, checkText, countFeatures,
  });
}

export type ModeltoolService = ReturnType<typeof createModeltoolService>;
