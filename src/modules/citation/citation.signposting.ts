// FAIR Signposting on the DOI page (extensions section 2; signposting.org level 1): the
// persistent identifier to cite, the metadata records, the files, the authors and the licence,
// as one HTTP Link header.
import { CITATION_FORMATS } from './citation.formats.ts';
import { DEFAULT_LICENSE, type CitationRecord } from './citation.record.ts';
import { licenseInfo } from './citation.licenses.ts';
import { doiPath } from '../dataset/index.ts';

/**
 * Files linked with rel="item" at most: a dataset may hold 200 models, and a header of many
 * kilobytes is refused by common proxies (nginx reads 4-8 KB of headers by default). The zip,
 * always linked, holds every file.
 */
export const MAX_ITEM_LINKS = 50;

/** A URI inside `<...>`: the characters that would end it or the header are percent-encoded. */
const target = (uri: string) => uri.replace(/[<>"\s,;]/g, (c) => encodeURIComponent(c));

export function exportUrl(record: CitationRecord, format: string): string {
  return `${new URL(record.url).origin}/doi/${doiPath(record.doi)}/export/${format}`;
}

export function signpostingLinks(record: CitationRecord): string {
  const links = [
    `<${target(`https://doi.org/${record.doi}`)}>; rel="cite-as"`,
    '<https://schema.org/Dataset>; rel="type"',
    '<https://schema.org/AboutPage>; rel="type"',
    ...CITATION_FORMATS.map((f) => `<${target(exportUrl(record, f.format))}>; rel="describedby"; type="${f.mediaType}"`),
    `<${target(record.zipUrl)}>; rel="item"; type="application/zip"`,
    ...record.files.slice(0, MAX_ITEM_LINKS).map((file) => `<${target(file.url)}>; rel="item"; type="application/octet-stream"`),
    ...record.authors.filter((a) => a.orcid).map((a) => `<https://orcid.org/${target(a.orcid!)}>; rel="author"`),
    `<${target(licenseInfo(record.license ?? DEFAULT_LICENSE).url)}>; rel="license"`,
  ];
  return links.join(', ');
}
