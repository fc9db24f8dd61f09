// What a URL of the import (extensions section 13) holds: a Zenodo record (its URL or DOI, read
// through the Zenodo API), a zip archive (a Git host's repository archive, say) or one model file.
// Answers the model files found with their bytes, and the source's identifiers; nothing is staged here.
import { basename } from 'node:path';
import yauzl from 'yauzl';
import { fetchLimited, parseImportUrl, UrlImportError, type FetchLimits } from './url-fetch.ts';
import { MODEL_EXTENSIONS } from './converted-upload.ts';

/** At most as many models as a dataset may hold are taken from one source (decisions section 4). */
export const MAX_IMPORTED_FILES = 200;

export interface FoundModel { name: string; bytes: Buffer }

/** A file of the source left out, and why (not a model, or past the models one import takes). */
export interface SkippedFile { name: string; reason: string }

export const NOT_A_MODEL = 'Not a model file (.uvl, .xml, .sxfm or .json).';
export const OVER_LIMIT = `Not imported: one import takes at most ${MAX_IMPORTED_FILES} models, and the ones before it were taken.`;
export const ARCHIVE_OVER_LIMIT = `Not opened: one import takes at most ${MAX_IMPORTED_FILES} models, and the files before it hold them.`;
const notAModel = (name: string): SkippedFile => ({ name, reason: NOT_A_MODEL });
const overLimit = (name: string): SkippedFile => ({ name, reason: /\.zip$/i.test(name) ? ARCHIVE_OVER_LIMIT : OVER_LIMIT });

export interface ImportSource {
  /** The URL given (a DOI given is its https://doi.org/ URL). */
  url: string;
  /** The Zenodo record's DOI, when the source is one. */
  doi: string | null;
  models: FoundModel[];
  /** Files of the source left out: not models (an archive's README, say) or models past MAX_IMPORTED_FILES. */
  skipped: SkippedFile[];
}

export interface SourceOptions extends FetchLimits {
  /** The Zenodo API of DOIs 10.5281/zenodo.N (ZENODO_API_URL, else https://zenodo.org/api). */
  zenodoApiUrl: string;
  /** Largest model taken out of an archive. */
  maxModelBytes: number;
}

const ZENODO_DOI = /^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:)?(10\.5281\/zenodo\.(\d+))\/?$/i;
const ZENODO_HOSTS = new Set(['zenodo.org', 'www.zenodo.org', 'sandbox.zenodo.org']);

/** The Zenodo API URL of a record the text names (DOI or record page), or undefined when it names none. */
export function zenodoRecordApi(text: string, zenodoApiUrl: string): string | undefined {
  const doi = ZENODO_DOI.exec(text.trim());
  if (doi) return `${zenodoApiUrl.replace(/\/$/, '')}/records/${doi[2]}`;
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  const api = new URL(zenodoApiUrl);
  const record = /^\/(?:records?|api\/records)\/(\d+)\/?$/.exec(url.pathname);
  if (!record || !(ZENODO_HOSTS.has(url.hostname) || url.host === api.host)) return undefined;
  return `${url.host === api.host ? zenodoApiUrl.replace(/\/$/, '') : `${url.origin}/api`}/records/${record[1]}`;
}

/**
 * The answer's `skipped` (names, as before) and `skipped_reasons` ({name, reason} in the same
 * order): a script reading names keeps working, and a model left out for the limit says so.
 */
export function skippedFields(skipped: SkippedFile[]): { skipped: string[]; skipped_reasons: SkippedFile[] } {
  return { skipped: skipped.map((f) => f.name), skipped_reasons: skipped };
}

/** The models left out for the limit, as a clause of the message the upload page shows ('' when none). */
export function overLimitNote(skipped: SkippedFile[]): string {
  const left = skipped.filter((f) => f.reason === OVER_LIMIT || f.reason === ARCHIVE_OVER_LIMIT).length;
  return left > 0 ? `; ${left} more file${left === 1 ? '' : 's'} left out (at most ${MAX_IMPORTED_FILES} models per import, see skipped_reasons)` : '';
}

const isZip = (bytes: Buffer) => bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50;
const isModelName = (name: string) => MODEL_EXTENSIONS.test(name) && !name.startsWith('.');

/**
 * The model entries of a zip: base names, hidden files and macOS metadata left out, each entry
 * bounded. At most `room` models are unpacked; the ones after are listed as skipped, not read.
 */
export function modelsInZip(bytes: Buffer, options: SourceOptions, room = MAX_IMPORTED_FILES): Promise<{ models: FoundModel[]; skipped: SkippedFile[] }> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(new UrlImportError('no_models', 'The archive is not a zip the hub can read.'));
      const models: FoundModel[] = [];
      const skipped: SkippedFile[] = [];
      let total = 0;
      zip.on('error', () => reject(new UrlImportError('no_models', 'The archive is not a zip the hub can read.')));
      zip.on('end', () => resolve({ models, skipped }));
      zip.on('entry', (entry: yauzl.Entry) => {
        const name = basename(entry.fileName);
        if (entry.fileName.endsWith('/') || entry.fileName.includes('__MACOSX/')) return zip.readEntry();
        if (!isModelName(name) || models.length >= room) {
          skipped.push(isModelName(name) ? overLimit(entry.fileName) : notAModel(entry.fileName));
          return zip.readEntry();
        }
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(new UrlImportError('no_models', `The archive's entry ${entry.fileName} cannot be read.`));
          const chunks: Buffer[] = [];
          let size = 0;
          stream.on('data', (chunk: Buffer) => {
            size += chunk.length;
            total += chunk.length;
            // Bounded whatever the zip's headers claim: a small archive must not unpack into a huge one.
            if (size > options.maxModelBytes || total > options.maxBytes) {
              stream.destroy();
              zip.close();
              reject(new UrlImportError('too_large', `The archive unpacks to more than the hub takes (${entry.fileName}).`));
            } else chunks.push(chunk);
          });
          stream.on('end', () => {
            models.push({ name, bytes: Buffer.concat(chunks) });
            zip.readEntry();
          });
          stream.on('error', () => reject(new UrlImportError('no_models', `The archive's entry ${entry.fileName} cannot be read.`)));
        });
      });
      zip.readEntry();
    });
  });
}

/** A fetched body: the models of a zip (at most `room`), or the one model file it is. */
async function modelsOf(fetched: { url: URL; bytes: Buffer; dispositionName: string | undefined }, options: SourceOptions, room = MAX_IMPORTED_FILES) {
  if (isZip(fetched.bytes)) return modelsInZip(fetched.bytes, options, room);
  let name = fetched.dispositionName ?? '';
  if (!isModelName(basename(name))) {
    try {
      name = decodeURIComponent(basename(fetched.url.pathname));
    } catch {
      name = basename(fetched.url.pathname);
    }
  }
  name = basename(name);
  if (!isModelName(name)) return { models: [], skipped: [notAModel(name || fetched.url.pathname)] };
  return { models: [{ name, bytes: fetched.bytes }], skipped: [] };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

async function fromZenodo(api: string, given: string, options: SourceOptions): Promise<ImportSource> {
  const answer = await fetchLimited(parseImportUrl(api), options);
  let record: unknown;
  try {
    record = JSON.parse(answer.bytes.toString('utf8'));
  } catch {
    throw new UrlImportError('unreachable', 'Zenodo did not answer a record.');
  }
  // The answer is another server's JSON: each field is checked for its shape before it is read.
  if (!isObject(record)) throw new UrlImportError('unreachable', 'Zenodo did not answer a record.');
  const source: ImportSource = { url: given, doi: text(record.doi) ?? null, models: [], skipped: [] };
  for (const file of Array.isArray(record.files) ? record.files : []) {
    const key = (isObject(file) && text(file.key)) || '';
    const links = isObject(file) && isObject(file.links) ? file.links : {};
    const link = text(links.content) ?? text(links.self);
    if (!link || !(isModelName(basename(key)) || /\.zip$/i.test(key))) {
      source.skipped.push(notAModel(key));
      continue;
    }
    // Once the import holds all the models it takes, the record's other files are listed, not
    // fetched: a record of thousands of models is not read whole into memory to keep 200 of them.
    const room = MAX_IMPORTED_FILES - source.models.length;
    if (room <= 0) {
      source.skipped.push(overLimit(key));
      continue;
    }
    const found = await modelsOf({ ...(await fetchLimited(parseImportUrl(link), options)), dispositionName: basename(key) }, options, room);
    source.models.push(...found.models);
    source.skipped.push(...found.skipped);
  }
  return source;
}

/** The models of the source a URL or DOI names, fetched within the limits. */
export async function importSource(text: string, options: SourceOptions): Promise<ImportSource> {
  const given = text.trim();
  const api = zenodoRecordApi(given, options.zenodoApiUrl);
  const source = api !== undefined
    ? await fromZenodo(api, ZENODO_DOI.test(given) ? `https://doi.org/${ZENODO_DOI.exec(given)![1]}` : given, options)
    : { url: given, doi: null, ...(await modelsOf(await fetchLimited(parseImportUrl(given), options), options)) };
  if (source.models.length === 0) {
    throw new UrlImportError('no_models', 'No model file (.uvl, .xml, .sxfm or .json) was found at this URL.');
  }
  return source;
}
