// Models uploaded in another format (issue 27, extensions section 7): FeatureIDE XML, SPLOT SXFM
// and Glencoe JSON are converted to UVL when they are staged. The hub keeps the UVL as the model
// (`<stem>.uvl`) and the file as uploaded beside it (`<stem>.<ext>`); the loss report is read
// again from that original whenever it is shown, so nothing but the two files needs keeping.
import { createHash } from 'node:crypto';
import { extname } from 'node:path';
import { readModelFile, type ModelFormat } from '../../../../packages/uvl/src/index.ts';

/** The extensions an upload takes: UVL, and the formats converted to it. */
export const MODEL_EXTENSIONS = /\.(uvl|xml|sxfm|json)$/i;

export const ACCEPTED_FILES = 'Only .uvl, FeatureIDE or SPLOT .xml, SPLOT .sxfm and Glencoe .json files are accepted.';

/** What a staged model was converted from: the stored original's key and name. */
export interface StagedOriginal {
  key: string;
  name: string;
}

/** What the hub says about a converted model: its original's format and the loss report. */
export interface Conversion {
  format: Exclude<ModelFormat, 'uvl'>;
  losses: string[];
}

export const isUvlName = (name: string): boolean => /\.uvl$/i.test(name);

/** `model.xml` -> `model.uvl`: the name the converted model is stored under. */
export function uvlNameOf(name: string): string {
  return isUvlName(name) ? name : `${name.slice(0, name.length - extname(name).length)}.uvl`;
}

/** The original's name beside a staged or stored UVL name: `model (1).uvl` from `model.xml` -> `model (1).xml`. */
export function originalNameBeside(uvlName: string, originalName: string): string {
  return `${uvlName.slice(0, -4)}${extname(originalName).toLowerCase()}`;
}

const FORMAT_NAMES: Record<Conversion['format'], string> = { featureide: 'FeatureIDE', sxfm: 'SPLOT SXFM', glencoe: 'Glencoe' };

export function formatTitle(format: string): string {
  return FORMAT_NAMES[format as Conversion['format']] ?? format;
}

/** The refusal of a file that does not convert: a message naming the format, and the reader's `Line l:c - ...` errors. */
export class ConversionError extends Error {
  constructor(message: string, readonly errors: string[]) {
    super(message);
  }
}

/** Converts an uploaded file of another format to UVL text, or throws ConversionError. */
export function convertUpload(name: string, bytes: Uint8Array): { uvl: string } & Conversion {
  const result = readModelFile(name, bytes);
  if (result.errors.length > 0 || result.uvl === undefined || result.format === undefined || result.format === 'uvl') {
    const what = result.format && result.format !== 'uvl' ? `a valid ${formatTitle(result.format)} model` : 'a model in a format the hub reads';
    throw new ConversionError(`${name} is not ${what}: ${result.errors[0] ?? 'it could not be read'}`, result.errors);
  }
  return { uvl: result.uvl, format: result.format, losses: result.losses };
}

/** The format and loss report of a stored original, read again (the readers are deterministic). */
export function conversionOf(name: string, bytes: Uint8Array): Conversion {
  const result = readModelFile(name, bytes);
  const format = result.format === undefined || result.format === 'uvl' ? 'featureide' : result.format;
  return { format, losses: result.losses };
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
