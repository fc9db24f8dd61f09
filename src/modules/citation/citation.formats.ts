// The citation formats of a dataset (extensions section 2), each built from a CitationRecord by a
// library where a well-kept one exists: citation-js for BibTeX, RIS and CSL-JSON, `yaml` for
// CITATION.cff; DataCite JSON, schema.org JSON-LD and the APA-style line are written here.
// Pure: no network (citation-js is handed CSL objects, so it never resolves an identifier
// online), no database, no request.
import { Cite, plugins } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import '@citation-js/plugin-ris';
import { stringify as toYaml } from 'yaml';
import { DEFAULT_LICENSE, PUBLISHER, splitName, type CitationAuthor, type CitationRecord } from './citation.record.ts';
import { licenseInfo } from './citation.licenses.ts';

export type CitationFormat = 'bibtex' | 'ris' | 'csl' | 'cff' | 'datacite' | 'jsonld';

export interface FormatInfo {
  format: CitationFormat;
  label: string;
  /** The media type a client names in Accept, and the one answered. */
  mediaType: string;
  /** The Content-Type header (a charset for the text formats). */
  contentType: string;
  fileName(record: CitationRecord): string;
  build(record: CitationRecord): string;
}

/** A file name from the DOI: `10.1234/dataset1` → `10.1234_dataset1`. */
const doiFileStem = (record: CitationRecord) => record.doi.replace(/[^A-Za-z0-9._-]+/g, '_');

const orcidUrl = (orcid: string) => `https://orcid.org/${orcid}`;
const doiUrl = (doi: string) => `https://doi.org/${doi}`;

// ---- CSL-JSON, and through citation-js BibTeX, RIS and the formatted reference -----------------

function cslName(author: CitationAuthor): Record<string, string> {
  const name = splitName(author.name);
  return 'literal' in name ? { literal: name.literal } : { family: name.family, given: name.given };
}

export function cslItem(record: CitationRecord): Record<string, unknown> {
  const [year, month, day] = record.date.split('-').map(Number);
  return {
    id: record.doi,
    type: 'dataset',
    title: record.title,
    author: record.authors.map(cslName),
    issued: { 'date-parts': [[year, month, day]] },
    DOI: record.doi,
    URL: record.url,
    publisher: PUBLISHER,
    abstract: record.description || undefined,
    keyword: record.tags.length > 0 ? record.tags.join(', ') : undefined,
    version: record.version,
    // CSL's `license` variable: the SPDX identifier, as CITATION.cff gives it (extensions section 2: the licence is in every export).
    license: record.license ?? DEFAULT_LICENSE,
  };
}

function cite(item: Record<string, unknown>): Cite {
  // The forced type keeps citation-js from guessing the input (and from fetching anything).
  return new Cite([item], { forceType: '@csl/list+object' });
}

// BibTeX is written in UTF-8, as biber, biblatex and BibTeX since 2010 (bibtexu, and bibtex with
// inputenc) read it: citation-js's default turns every character outside its table of TeX
// accents into nothing (a Chinese title lost its Chinese). Its escaping is therefore switched off
// and TeX's special characters are escaped here, before citation-js writes the entry.
plugins.config.get('@bibtex').format.asciiOnly = false;

/**
 * TeX's special characters and the markup characters `<` `>` as TeX commands; every other character as it is.
 * Braces as commands too: BibTeX readers split author lists by brace depth, escaped or not.
 */
const TEX_SPECIALS: Record<string, string> = {
  '\\': '\\textbackslash{}', '{': '\\textbraceleft{}', '}': '\\textbraceright{}', '&': '\\&', '%': '\\%', '$': '\\$', '#': '\\#', '_': '\\_',
  '^': '\\^{}', '~': '\\~{}', '<': '\\textless{}', '>': '\\textgreater{}',
};
const escapeTex = (text: string) => text.replace(/[\\{}&%$#_^~<>]/g, (c) => TEX_SPECIALS[c]!);

/** The first word of a text, folded to ASCII letters and digits (`Ünïcödé` → `Unicode`), skipping short words. */
function keyWord(text: string): string {
  const words = text.normalize('NFKD').replace(/[^A-Za-z0-9\s-]/g, '').split(/[\s-]+/);
  return words.find((w) => w.length > 3) ?? words.find((w) => w.length > 0) ?? '';
}

/**
 * The entry's key: first author's family name, year, first title word, in ASCII (keys are
 * identifiers in LaTeX sources), and `V<n>` for a later version, so that two versions of one
 * dataset cited in one paper never share a key.
 */
export function bibtexKey(record: CitationRecord): string {
  const first = record.authors[0];
  const name = first ? splitName(first.name) : null;
  const author = name ? keyWord('literal' in name ? name.literal : name.family) : '';
  const base = `${author}${record.year}${keyWord(record.title)}` || 'dataset';
  return `${base}${record.version ? `V${record.version}` : ''}`;
}

/** Stands for the title while citation-js writes the entry: lowercase, so it protects nothing in it. */
const TITLE_SLOT = 'hubtitleslot';

const CAPITAL = /[\p{Lu}\p{Lt}]/u;

/**
 * The title with each word holding a capital in braces, so that a style lowering titles keeps
 * it (`{UVL}`, `{Zoë}`). Done here, word by whole Unicode word: citation-js's own protection
 * cuts words at their first non-ASCII letter (`{Zo}ë`, `Å{B}`). BibTeX keeps a title's first
 * letter as it is, so the first word is braced only for a capital after it (`{UVL}`, not `{Sample}`).
 */
export function bibtexTitle(title: string): string {
  return title.split(/([\p{L}\p{M}\p{N}]+)/u)
    .map((part, i) => {
      if (i % 2 === 0) return escapeTex(part);
      const capitals = i === 1 && title.startsWith(part) ? [...part].slice(1).join('') : part;
      return CAPITAL.test(capitals) ? `{${part}}` : part;
    })
    .join('');
}

export function toBibtex(record: CitationRecord): string {
  const item = cslItem(record);
  const [year, month] = record.date.split('-').map(Number);
  item['citation-key'] = bibtexKey(record);
  item.title = TITLE_SLOT;
  item.publisher = escapeTex(PUBLISHER);
  item.author = (item.author as Record<string, string>[]).map((n) => Object.fromEntries(Object.entries(n).map(([k, v]) => [k, escapeTex(v)])));
  // BibTeX carries a year and a month; a day would come out as `month = {mar 5}`.
  item.issued = { 'date-parts': [[year, month]] };
  const entry = cite(item).format('bibtex', { format: 'text' }).replace(`{${TITLE_SLOT}}`, () => `{${bibtexTitle(record.title)}}`);
  // citation-js's BibTeX mapping has neither a version field (biblatex and natbib styles print it)
  // nor a licence (biblatex reads unknown fields and ignores them; reference managers keep them).
  const extra = [
    ...(record.version ? [`\tversion = {${escapeTex(record.version)}},`] : []),
    `\tlicense = {${escapeTex(record.license ?? DEFAULT_LICENSE)}},`,
  ];
  return entry.replace(/\n\}\s*$/, `\n${extra.join('\n')}\n}\n`);
}

/**
 * RIS, one line per tag: citation-js's text output folds every value after 70 characters, in
 * the middle of a word, and RIS readers take the folded part as a new line (Zotero kept
 * "BusyB" and "ox"). Its tag objects are written here, a value on one line (RIS values are single
 * lines: line breaks inside one become spaces).
 */
export function toRis(record: CitationRecord): string {
  const item = cslItem(record);
  // citation-js splits RIS keywords on commas and keeps the spaces after them.
  if (record.tags.length > 0) item.keyword = record.tags.join(',');
  const [entry] = cite(item).format('ris', { format: 'object' }) as Record<string, unknown>[];
  const lines = [`TY  - ${String(entry!.TY)}`];
  // RIS dates are YYYY/MM/DD/: citation-js leaves month and day unpadded (`2026/12/4/`), which readers refuse or misread.
  if (entry!.DA !== undefined) entry!.DA = `${record.date.replaceAll('-', '/')}/`;
  for (const [tag, value] of Object.entries(entry!)) {
    if (tag === 'TY') continue;
    for (const v of ([] as unknown[]).concat(value)) lines.push(`${tag}  - ${String(v).replace(/\s*[\r\n]+\s*/g, ' ')}`);
  }
  // RIS has no licence tag (and citation-js writes none): the licence goes in a note, with its address.
  const license = licenseInfo(record.license ?? DEFAULT_LICENSE);
  lines.push(`N1  - License: ${license.spdx} (${license.url})`);
  lines.push('ER  - ');
  return `${lines.join('\n')}\n`;
}

export function toCsl(record: CitationRecord): string {
  const item = cslItem(record);
  const [cleaned] = JSON.parse(cite(item).format('data', { format: 'text' }) as string) as Record<string, unknown>[];
  // citation-js 0.7 drops CSL 1.0.2's `license` variable while it cleans the item: put back after it.
  return JSON.stringify([{ ...cleaned, license: item.license }], null, 2);
}

/** "José María" → "J. M.", "Jean-Paul" → "J.-P.": APA's initials of the given names. */
function initials(given: string): string {
  return given.split(/\s+/).filter(Boolean)
    .map((word) => word.split('-').map((part) => part.match(/\p{L}/u)?.[0]).filter(Boolean).map((letter) => `${letter}.`).join('-'))
    .filter(Boolean).join(' ');
}

/**
 * An APA-style reference (7th edition, data set) as plain text, for the page. Written here rather
 * than by citation-js's CSL engine: its first reference takes 1.5 s of one core (the engine is
 * built) and each further one about 14 ms, on the request path of every DOI page.
 */
export function toApaText(record: CitationRecord): string {
  const names = record.authors.map((author) => {
    const name = splitName(author.name);
    if ('literal' in name) return name.literal;
    const given = initials(name.given);
    return given ? `${name.family}, ${given}` : name.family;
  });
  const authors = names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')}, & ${names.at(-1)}`;
  const title = `${record.title}${record.version ? ` (Version ${record.version})` : ''} [Data set]`;
  const rest = `${PUBLISHER}. ${doiUrl(record.doi)}`;
  return authors
    ? `${authors}${authors.endsWith('.') ? '' : '.'} (${record.year}). ${title}. ${rest}`
    : `${title}. (${record.year}). ${rest}`;
}

// ---- CITATION.cff (Citation File Format 1.2.0) --------------------------------------------------

export function toCff(record: CitationRecord): string {
  const authors = record.authors.map((author) => {
    const name = splitName(author.name);
    return {
      // A one-part name is cited as an entity (CFF persons need a family name; entities a name).
      ...('literal' in name ? { name: name.literal } : { 'family-names': name.family, 'given-names': name.given }),
      ...(author.affiliation ? { affiliation: author.affiliation } : {}),
      ...(author.orcid ? { orcid: orcidUrl(author.orcid) } : {}),
    };
  });
  const identifiers = [
    { type: 'doi', value: record.doi, description: 'This version of the dataset' },
    ...(record.conceptDoi ? [{ type: 'doi', value: record.conceptDoi, description: 'All versions of the dataset (concept DOI)' }] : []),
    { type: 'url', value: record.url, description: 'Landing page' },
  ];
  const cff: Record<string, unknown> = {
    'cff-version': '1.2.0',
    message: 'If you use this dataset, please cite it as below.',
    type: 'dataset',
    title: record.title,
    // CFF requires at least one author; a dataset listing none is cited as anonymous.
    authors: authors.length > 0 ? authors : [{ name: 'Anonymous' }],
    ...(record.description ? { abstract: record.description } : {}),
    doi: record.doi,
    identifiers,
    'date-released': record.date,
    ...(record.version ? { version: record.version } : {}),
    license: record.license ?? DEFAULT_LICENSE,
    url: record.url,
    ...(record.tags.length > 0 ? { keywords: record.tags } : {}),
  };
  // Plain scalars where YAML allows them, quotes where a value would otherwise change meaning.
  // Quoted as YAML 1.1 needs: CFF is YAML 1.2, but GitHub's reader (Ruby's Psych) and PyYAML are
  // 1.1, where a plain `yes`, `On`, `2024-01-01` or `1_000` is a boolean, a date or a number, not
  // the dataset's text. Quoted strings are the same strings in both versions.
  return toYaml(cff, { lineWidth: 0, version: '1.1' });
}

// ---- DataCite JSON (metadata schema 4.x field names) ---------------------------------------------

/** DataCite's resourceTypeGeneral of the publication a dataset supplements, from the hub's publication types. */
const RELATED_TYPES: Record<string, string> = {
  article: 'JournalArticle', book: 'Book', section: 'BookChapter', conferencepaper: 'ConferencePaper',
  datamanagementplan: 'OutputManagementPlan', preprint: 'Preprint', report: 'Report', thesis: 'Dissertation',
  softwaredocumentation: 'Text', technicalnote: 'Report', workingpaper: 'Preprint', deliverable: 'Report',
  milestone: 'Report', proposal: 'Text', patent: 'Text', annotationcollection: 'Collection', taxonomictreatment: 'Text', other: 'Other',
};

export function dataciteObject(record: CitationRecord): Record<string, unknown> {
  const license = licenseInfo(record.license ?? DEFAULT_LICENSE);
  const creators = record.authors.map((author) => {
    const name = splitName(author.name);
    return {
      name: 'literal' in name ? name.literal : `${name.family}, ${name.given}`,
      ...('literal' in name ? {} : { nameType: 'Personal', givenName: name.given, familyName: name.family }),
      affiliation: author.affiliation ? [{ name: author.affiliation }] : [],
      nameIdentifiers: author.orcid
        ? [{ nameIdentifier: orcidUrl(author.orcid), nameIdentifierScheme: 'ORCID', schemeUri: 'https://orcid.org' }]
        : [],
    };
  });
  const related: Record<string, string>[] = [];
  if (record.publicationDoi) {
    related.push({
      relatedIdentifier: record.publicationDoi, relatedIdentifierType: 'DOI', relationType: 'IsSupplementTo',
      ...(RELATED_TYPES[record.publicationType] ? { resourceTypeGeneral: RELATED_TYPES[record.publicationType]! } : {}),
    });
  }
  if (record.conceptDoi) related.push({ relatedIdentifier: record.conceptDoi, relatedIdentifierType: 'DOI', relationType: 'IsVersionOf' });
  // The sources its models were imported from (extensions section 13).
  for (const source of record.derivedFrom ?? []) {
    related.push({ relatedIdentifier: source.identifier, relatedIdentifierType: source.scheme === 'doi' ? 'DOI' : 'URL', relationType: 'IsDerivedFrom' });
  }
  return {
    schemaVersion: 'http://datacite.org/schema/kernel-4',
    doi: record.doi,
    identifiers: [{ identifier: doiUrl(record.doi), identifierType: 'DOI' }],
    url: record.url,
    types: { resourceTypeGeneral: 'Dataset', resourceType: 'UVL feature models' },
    creators: creators.length > 0 ? creators : [{ name: ':unav', affiliation: [], nameIdentifiers: [] }],
    titles: [{ title: record.title }],
    publisher: PUBLISHER,
    publicationYear: String(record.year),
    dates: [{ date: record.date, dateType: 'Issued' }],
    subjects: record.tags.map((subject) => ({ subject })),
    rightsList: [{
      rights: license.name, rightsUri: license.url, rightsIdentifier: license.spdx.toLowerCase(),
      rightsIdentifierScheme: 'SPDX', schemeUri: 'https://spdx.org/licenses/',
    }],
    descriptions: record.description ? [{ description: record.description, descriptionType: 'Abstract' }] : [],
    relatedIdentifiers: related,
    sizes: [`${record.files.length} ${record.files.length === 1 ? 'file' : 'files'}`],
    formats: ['UVL'],
    ...(record.version ? { version: record.version } : {}),
  };
}

export const toDatacite = (record: CitationRecord) => `${JSON.stringify(dataciteObject(record), null, 2)}\n`;

// ---- schema.org Dataset as JSON-LD -------------------------------------------------------------------

export function jsonLdObject(record: CitationRecord): Record<string, unknown> {
  const creator = record.authors.map((author) => {
    const name = splitName(author.name);
    return {
      '@type': 'Person',
      ...(author.orcid ? { '@id': orcidUrl(author.orcid) } : {}),
      name: 'literal' in name ? name.literal : `${name.given} ${name.family}`,
      ...('literal' in name ? {} : { givenName: name.given, familyName: name.family }),
      ...(author.affiliation ? { affiliation: { '@type': 'Organization', name: author.affiliation } } : {}),
    };
  });
  return {
    '@context': 'https://schema.org',
    '@type': 'Dataset',
    '@id': doiUrl(record.doi),
    identifier: doiUrl(record.doi),
    url: record.url,
    name: record.title,
    description: record.description,
    creator,
    keywords: record.tags,
    license: licenseInfo(record.license ?? DEFAULT_LICENSE).url,
    datePublished: record.date,
    ...(record.version ? { version: record.version } : {}),
    ...(record.conceptDoi ? { isPartOf: { '@type': 'Dataset', '@id': doiUrl(record.conceptDoi) } } : {}),
    ...(record.publicationDoi ? { citation: doiUrl(record.publicationDoi) } : {}),
    ...(record.derivedFrom?.length ? { isBasedOn: record.derivedFrom.map((s) => (s.scheme === 'doi' ? doiUrl(s.identifier) : s.identifier)) } : {}),
    publisher: { '@type': 'Organization', name: PUBLISHER },
    isAccessibleForFree: true,
    distribution: [
      { '@type': 'DataDownload', name: 'All files (zip)', contentUrl: record.zipUrl, encodingFormat: 'application/zip' },
      ...record.files.map((file) => ({ '@type': 'DataDownload', name: file.name, contentUrl: file.url, contentSize: `${file.size} B`, encodingFormat: 'text/plain' })),
    ],
  };
}

export const toJsonLd = (record: CitationRecord) => `${JSON.stringify(jsonLdObject(record), null, 2)}\n`;

/**
 * JSON-LD for a `<script type="application/ld+json">` element: `<`, `>` and `&` written as
 * \u escapes (still the same JSON), so no text of the dataset can close the element or open a
 * comment; U+2028/2029 too, for older parsers.
 */
export function jsonLdForHtml(record: CitationRecord): string {
  return JSON.stringify(jsonLdObject(record)).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// ---- the table -----------------------------------------------------------------------------------------

export const CITATION_FORMATS: readonly FormatInfo[] = [
  { format: 'bibtex', label: 'BibTeX', mediaType: 'application/x-bibtex', contentType: 'application/x-bibtex; charset=utf-8', fileName: (r) => `${doiFileStem(r)}.bib`, build: toBibtex },
  { format: 'ris', label: 'RIS', mediaType: 'application/x-research-info-systems', contentType: 'application/x-research-info-systems; charset=utf-8', fileName: (r) => `${doiFileStem(r)}.ris`, build: toRis },
  { format: 'csl', label: 'CSL-JSON', mediaType: 'application/vnd.citationstyles.csl+json', contentType: 'application/vnd.citationstyles.csl+json; charset=utf-8', fileName: (r) => `${doiFileStem(r)}.csl.json`, build: toCsl },
  { format: 'cff', label: 'CITATION.cff', mediaType: 'application/yaml', contentType: 'application/yaml; charset=utf-8', fileName: () => 'CITATION.cff', build: toCff },
  { format: 'datacite', label: 'DataCite JSON', mediaType: 'application/vnd.datacite.datacite+json', contentType: 'application/vnd.datacite.datacite+json; charset=utf-8', fileName: (r) => `${doiFileStem(r)}.datacite.json`, build: toDatacite },
  { format: 'jsonld', label: 'JSON-LD (schema.org)', mediaType: 'application/ld+json', contentType: 'application/ld+json; charset=utf-8', fileName: (r) => `${doiFileStem(r)}.jsonld`, build: toJsonLd },
];

export function formatInfo(name: string): FormatInfo | undefined {
  return CITATION_FORMATS.find((f) => f.format === name);
}
