// The cart's zip (extensions section 8): each file in each chosen format, a manifest (DOI, file,
// format, SHA-256 of what is in the zip) and CITATION.bib with the datasets used. Built entry by
// entry while it streams: one converted file is in memory at a time.
import { createHash } from 'node:crypto';
import type { ModuleContext } from '../../core/modules.ts';
import { ModeltoolError } from '../modeltool/index.ts';
import { datasetFolder, type CartEntry } from './cart.service.ts';

/**
 * The formats of `GET /cart/download?format=`, how each is made and the extension its entries
 * carry (`car.uvl` → `car.dimacs`), so that a tool opening the unpacked folder recognises each file.
 * SPLOT's is `.sxfm` rather than its usual `.xml`: FeatureIDE's `.xml` sits beside it in the same folder.
 */
export const CART_FORMATS = {
  uvl: { label: 'UVL (as uploaded)', target: null, extension: '.uvl' },
  glencoe: { label: 'Glencoe (JSON)', target: 'glencoe', extension: '.json' },
  splot: { label: 'SPLOT (SXFM)', target: 'splot', extension: '.sxfm' },
  dimacs: { label: 'DIMACS CNF', target: 'cnf', extension: '.dimacs' },
  featureide: { label: 'FeatureIDE (XML)', target: 'featureide', extension: '.xml' },
} as const;

/** The entry's name in the zip: the stored name with its format's extension in place of `.uvl`. */
export const cartEntryName = (fileName: string, format: CartFormat) =>
  format === 'uvl' ? fileName : `${fileName.replace(/\.uvl$/i, '')}${CART_FORMATS[format].extension}`;
export type CartFormat = keyof typeof CART_FORMATS;

/**
 * Formats that are listed but cannot be made here (none today): the download refuses such a format
 * with its message rather than leaving it out of the zip.
 */
export const UNAVAILABLE_FORMATS: Partial<Record<CartFormat, string>> = {};

export const isCartFormat = (format: string): format is CartFormat => Object.hasOwn(CART_FORMATS, format);

export interface ZipEntry { name: string; body: string }

const csvField = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** Every entry of the zip in order; the manifest and CITATION.bib come last, once every file is known. */
export async function* cartZipEntries(ctx: ModuleContext, entries: CartEntry[], formats: CartFormat[], viewerId: number | null, root = 'cart'): AsyncGenerator<ZipEntry> {
  const manifest: string[] = ['doi,file,format,sha256,path,note'];
  const row = (entry: CartEntry, format: CartFormat, sha256: string, path: string, note: string) =>
    manifest.push([entry.doi ?? '', entry.fileName, format, sha256, path, note].map(csvField).join(','));
  for (const entry of entries) {
    const folder = `${root}/${datasetFolder(entry)}`;
    for (const format of formats) {
      const made = await converted(ctx, entry, format, viewerId);
      if ('note' in made) {
        row(entry, format, '', '', made.note);
        continue;
      }
      const path = `${folder}/${made.name}`;
      row(entry, format, createHash('sha256').update(made.body, 'utf8').digest('hex'), path, '');
      yield { name: path, body: made.body };
    }
  }
  yield { name: `${root}/manifest.csv`, body: `${manifest.join('\r\n')}\r\n` };
  yield { name: `${root}/CITATION.bib`, body: await citations(ctx, entries) };
}

async function converted(ctx: ModuleContext, entry: CartEntry, format: CartFormat, viewerId: number | null): Promise<{ name: string; body: string } | { note: string }> {
  if (format === 'uvl') {
    const file = await ctx.services.hubfile.getVisibleFile(entry.fileId, viewerId);
    const text = file && (await ctx.services.hubfile.readText(file));
    return text === undefined || text === null ? { note: 'the stored file is missing' } : { name: entry.fileName, body: text };
  }
  try {
    const exported = await ctx.services.modeltool.exportText(entry.fileId, CART_FORMATS[format].target!, { viewerId });
    return { name: cartEntryName(entry.fileName, format), body: exported.text };
  } catch (error) {
    // A model a converter refuses (syntax errors, constraints the format cannot express) is named in the manifest, not fatal to the zip.
    if (error instanceof ModeltoolError) return { note: `not converted: ${error.message}` };
    throw error;
  }
}

/** BibTeX of each dataset with a DOI, once each, from the citation module (when enabled). */
async function citations(ctx: ModuleContext, entries: CartEntry[]): Promise<string> {
  const withDoi = [...new Map(entries.filter((e) => e.doi !== null).map((e) => [e.datasetId, e])).keys()];
  if (withDoi.length === 0 || !ctx.isEnabled('citation')) return '';
  const datasets = await ctx.services.dataset.summariesOf(withDoi);
  return ctx.services.citation.bibliography(datasets.filter((d) => d.doi !== null).map((d) => ctx.services.citation.fileFor(d, 'bibtex').body));
}
