// Citation service (extensions section 2): a dataset's citation files and the DOI page's citation
// box. Datasets come from the dataset service (only synchronized ones have a DOI page), the files
// from the pure builders of citation.formats.ts. Never sees the request. Each operation is an exported
// function taking CitationDeps (the context and what is kept) first, bound once below.
import { notFound } from '../../core/http/errors.ts';
import type { ModuleContext } from '../../core/modules.ts';
import { bindOperations } from '../../core/operations.ts';
import { doiPath, type DatasetSummary } from '../dataset/index.ts';
import { CITATION_FORMATS, formatInfo, jsonLdForHtml, toApaText, type CitationFormat } from './citation.formats.ts';
import { citationRecordOf, type CitationRecord } from './citation.record.ts';
import { exportUrl, signpostingLinks } from './citation.signposting.ts';
import type { CitationFile } from './citation.http.ts';
import { qrCodeSvg } from './citation.qr.ts';

export type ExportAnswer = { kind: 'moved'; location: string } | { kind: 'file'; file: CitationFile };

export interface CitationBox {
  /** APA-style reference as plain text. */
  text: string;
  /** Every format, BibTeX first (the default of the switcher). */
  entries: { format: CitationFormat; label: string; text: string; href: string; fileName: string }[];
  /** JSON-LD safe to place inside `<script type="application/ld+json">`. */
  jsonLd: string;
  /** The signposting Link header. */
  links: string;
  /** A QR code of the DOI URL, an inline SVG element (extensions section 8). */
  qrSvg: string;
  /** Exports of other modules, listed with the downloads (the oai module's DataCite XML). */
  moreDownloads: { label: string; href: string; fileName: string }[];
}

/** Built texts kept per record (its JSON is the key, so any change of the dataset is a new entry). */
const KEPT = 500;

/** Built texts kept per record, least recently used first out. */
export class KeptTexts {
  private readonly kept = new Map<string, Map<string, string>>();

  /** One format of a record, built once while the record stays the same (the DOI page builds all of them). */
  built(record: CitationRecord, part: string, build: (r: CitationRecord) => string): string {
    const key = JSON.stringify(record);
    let texts = this.kept.get(key);
    if (texts) {
      this.kept.delete(key);
    } else {
      texts = new Map();
      if (this.kept.size >= KEPT) this.kept.delete(this.kept.keys().next().value!);
    }
    this.kept.set(key, texts);
    let text = texts.get(part);
    if (text === undefined) {
      text = build(record);
      texts.set(part, text);
    }
    return text;
  }
}

function recordOf(dataset: DatasetSummary): CitationRecord {
  const record = citationRecordOf(dataset);
  // Callers pass datasets found by their DOI; one without would be a programming error.
  if (!record) throw new Error(`Dataset ${dataset.id} has no DOI and cannot be cited.`);
  return record;
}

function fileOf(texts: KeptTexts, record: CitationRecord, format: CitationFormat): CitationFile {
  const info = formatInfo(format)!;
  return { body: texts.built(record, format, info.build), contentType: info.contentType, fileName: info.fileName(record) };
}

function boxOf(texts: KeptTexts, record: CitationRecord, qrSvg: string, moreDownloads: CitationBox['moreDownloads']): CitationBox {
  return {
    text: texts.built(record, 'apa', toApaText),
    entries: CITATION_FORMATS.map((f) => ({
      format: f.format,
      label: f.label,
      text: texts.built(record, f.format, f.build),
      href: exportUrl(record, f.format).replace(/^https?:\/\/[^/]+/, ''),
      fileName: f.fileName(record),
    })),
    jsonLd: texts.built(record, 'jsonld-html', jsonLdForHtml),
    links: texts.built(record, 'links', signpostingLinks),
    qrSvg,
    moreDownloads,
  };
}

/**
 * The oai module answers `/doi/<prefix>/<suffix>/export/datacite.xml` (extensions section 13): a
 * DOI with one slash, as every DOI the deposit gives. Only asked whether it is enabled, not imported.
 */
function moreDownloadsOf(ctx: ModuleContext, doi: string): CitationBox['moreDownloads'] {
  if (!ctx.isEnabled('oai') || !/^[^/]+\/[^/]+$/.test(doi)) return [];
  return [{ label: 'DataCite XML', href: `/doi/${doiPath(doi)}/export/datacite.xml`, fileName: `${doi.replace(/[^A-Za-z0-9._-]/g, '_')}.datacite.xml` }];
}

/** The texts and boxes built so far, kept while the service lives. */
export interface CitationDeps {
  ctx: ModuleContext;
  texts: KeptTexts;
  boxes: Map<string, CitationBox>;
}

/** `/doi/<doi>/export/<format>`: the DOI is resolved as the DOI page resolves it (superseded DOIs move). */
export async function exportByDoi(d: CitationDeps, doi: string, format: string): Promise<ExportAnswer> {
  const info = formatInfo(format);
  if (!info) {
    throw notFound(`There is no citation format "${format}". Formats: ${CITATION_FORMATS.map((f) => f.format).join(', ')}.`);
  }
  const resolved = await d.ctx.services.dataset.resolveDoi(doi);
  if (resolved.kind === 'moved') return { kind: 'moved', location: `/doi/${doiPath(resolved.doi)}/export/${info.format}` };
  if (resolved.kind === 'missing') throw notFound('No dataset has this DOI.');
  return { kind: 'file', file: fileOf(d.texts, recordOf(resolved.dataset), info.format) };
}

/** One format of a synchronized dataset (the DOI page's answer to an Accept header). */
export function fileFor(d: CitationDeps, dataset: DatasetSummary, format: CitationFormat): CitationFile {
  return fileOf(d.texts, recordOf(dataset), format);
}

/** The DOI page's citation box, JSON-LD and Link header; null for a dataset without DOI. */
export function box(d: CitationDeps, dataset: DatasetSummary): CitationBox | null {
  const record = citationRecordOf(dataset);
  if (!record) return null;
  // The whole box is kept too: the DOI page asks for it at every view.
  const key = JSON.stringify(record);
  const known = d.boxes.get(key);
  if (known) return known;
  const built = boxOf(d.texts, record, qrCodeSvg(`https://doi.org/${doiPath(dataset.doi!)}`), moreDownloadsOf(d.ctx, record.doi));
  if (d.boxes.size >= KEPT) d.boxes.delete(d.boxes.keys().next().value!);
  d.boxes.set(key, built);
  return built;
}

/**
 * BibTeX entries as one .bib file (the cart's and a collection's CITATION.bib), their keys told
 * apart: two datasets can have the same key (first author's family name, year, first title word:
 * "Sample dataset 1" and "Sample dataset 4" by two Does), and a .bib with a key twice loses an
 * entry (BibTeX) or is refused (Biber). A later one gets `-2`, `-3`…. Empty when there are none.
 */
export function bibliography(entries: string[]): string {
  const used = new Set<string>();
  const distinct = entries.map((entry) => entry.trim()).filter((entry) => entry !== '').map((entry) => entry.replace(/^(@\w+\{)([^,\s]+),/, (_all, head: string, key: string) => {
    let unique = key;
    for (let n = 2; used.has(unique); n++) unique = `${key}-${n}`;
    used.add(unique);
    return `${head}${unique},`;
  }));
  return distinct.length === 0 ? '' : `${distinct.join('\n\n')}\n`;
}

export function createCitationService(ctx: ModuleContext) {
  const d: CitationDeps = { ctx, texts: new KeptTexts(), boxes: new Map() };
  return {
    formats: CITATION_FORMATS.map((f) => ({ format: f.format, label: f.label, mediaType: f.mediaType })),
    bibliography,
    /** The QR code of a DOI's URL (`https://doi.org/<doi>`), as the DOI page draws it: for other DOI landing pages (a published collection's). */
    doiQrSvg: (doi: string): string => qrCodeSvg(`https://doi.org/${doiPath(doi)}`),
    ...bindOperations(d, { exportByDoi, fileFor, box }),
  };
}

export type CitationService = ReturnType<typeof createCitationService>;
