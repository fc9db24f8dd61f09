// What a harvested item says about itself, whatever its source (a dataset now, a collection
// later), and its two dissemination formats: DataCite Metadata Schema 4 and Dublin Core.
import { element, textElement } from './oai.xml.ts';

export interface ItemCreator {
  /** As stored: "Family, Given" or one free name. */
  name: string;
  affiliation: string | null;
  /** Bare ORCID iD. */
  orcid: string | null;
}

export interface ItemMetadata {
  doi: string;
  /** The landing page. */
  url: string;
  title: string;
  description: string;
  creators: ItemCreator[];
  /** The publication, `YYYY-MM-DD`: dc:date, DataCite's Issued date and publicationYear. */
  date: string;
  /** DataCite resourceTypeGeneral (`Dataset`, `Collection`) and the free text beside it. */
  resourceTypeGeneral: string;
  resourceType: string;
  subjects: string[];
  license: { id: string; url: string } | null;
  version: string | null;
  /** The DOI shared by all versions, when known. */
  conceptDoi: string | null;
  /** The publication the item supplements. */
  publicationDoi: string | null;
  /** Where its models were imported from (extensions section 13): URLs and bare DOIs, each once. */
  derivedFrom: { identifier: string; scheme: 'url' | 'doi' }[];
}

export const PUBLISHER = 'UVL Hub';
export const DATACITE_NS = 'http://datacite.org/schema/kernel-4';
export const DATACITE_SCHEMA = 'http://schema.datacite.org/meta/kernel-4/metadata.xsd';
export const OAI_DC_NS = 'http://www.openarchives.org/OAI/2.0/oai_dc/';
export const OAI_DC_SCHEMA = 'http://www.openarchives.org/OAI/2.0/oai_dc.xsd';
export const DC_NS = 'http://purl.org/dc/elements/1.1/';
const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';

function splitName(name: string): { family: string; given: string } | null {
  const comma = name.indexOf(',');
  if (comma <= 0) return null;
  const family = name.slice(0, comma).trim();
  const given = name.slice(comma + 1).trim();
  return family && given ? { family, given } : null;
}

function creator(c: ItemCreator): string {
  const parts = splitName(c.name);
  // A name without "Family, Given" may be a group or a person; DataCite leaves nameType out then.
  return element('creator', [
    textElement('creatorName', c.name.trim(), { nameType: parts ? 'Personal' : undefined }),
    parts ? textElement('givenName', parts.given) + textElement('familyName', parts.family) : '',
    c.orcid ? textElement('nameIdentifier', c.orcid, { nameIdentifierScheme: 'ORCID', schemeURI: 'https://orcid.org/' }) : '',
    c.affiliation ? textElement('affiliation', c.affiliation) : '',
  ]);
}

function relatedIdentifiers(item: ItemMetadata): string {
  const related = [
    item.conceptDoi && item.conceptDoi !== item.doi ? textElement('relatedIdentifier', item.conceptDoi, { relatedIdentifierType: 'DOI', relationType: 'IsVersionOf' }) : '',
    item.publicationDoi ? textElement('relatedIdentifier', item.publicationDoi, { relatedIdentifierType: 'DOI', relationType: 'IsSupplementTo' }) : '',
    ...item.derivedFrom.map((s) => textElement('relatedIdentifier', s.identifier, { relatedIdentifierType: s.scheme === 'doi' ? 'DOI' : 'URL', relationType: 'IsDerivedFrom' })),
  ];
  return related.some((r) => r !== '') ? element('relatedIdentifiers', related) : '';
}

/** The DataCite `<resource>` (schema 4), with its namespace, as a record carries it and as the DOI page exports it. */
export function dataciteResource(item: ItemMetadata): string {
  return element('resource', [
    textElement('identifier', item.doi, { identifierType: 'DOI' }),
    // DataCite requires at least one creator; an item without authors names its publisher.
    element('creators', item.creators.length > 0 ? item.creators.map(creator) : [creator({ name: PUBLISHER, affiliation: null, orcid: null })]),
    element('titles', textElement('title', item.title)),
    textElement('publisher', PUBLISHER),
    textElement('publicationYear', item.date.slice(0, 4)),
    textElement('resourceType', item.resourceType, { resourceTypeGeneral: item.resourceTypeGeneral }),
    item.subjects.length > 0 ? element('subjects', item.subjects.map((s) => textElement('subject', s))) : '',
    element('dates', textElement('date', item.date, { dateType: 'Issued' })),
    relatedIdentifiers(item),
    item.version ? textElement('version', item.version) : '',
    item.license ? element('rightsList', textElement('rights', item.license.id, { rightsURI: item.license.url, rightsIdentifier: item.license.id, rightsIdentifierScheme: 'SPDX' })) : '',
    item.description ? element('descriptions', textElement('description', item.description, { descriptionType: 'Abstract' })) : '',
  ], { xmlns: DATACITE_NS, 'xmlns:xsi': XSI_NS, 'xsi:schemaLocation': `${DATACITE_NS} ${DATACITE_SCHEMA}` });
}

/** The DataCite XML file of the DOI page's export. */
export function dataciteDocument(item: ItemMetadata): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${dataciteResource(item)}\n`;
}

/** Unqualified Dublin Core, as OAI-PMH requires every repository to offer. */
export function oaiDc(item: ItemMetadata): string {
  return element('oai_dc:dc', [
    textElement('dc:title', item.title),
    ...item.creators.map((c) => textElement('dc:creator', c.name.trim())),
    ...item.subjects.map((s) => textElement('dc:subject', s)),
    item.description ? textElement('dc:description', item.description) : '',
    textElement('dc:publisher', PUBLISHER),
    textElement('dc:date', item.date),
    textElement('dc:type', item.resourceTypeGeneral),
    textElement('dc:identifier', `https://doi.org/${item.doi}`),
    textElement('dc:identifier', item.url),
    item.publicationDoi ? textElement('dc:relation', `https://doi.org/${item.publicationDoi}`) : '',
    ...item.derivedFrom.map((s) => textElement('dc:source', s.scheme === 'doi' ? `https://doi.org/${s.identifier}` : s.identifier)),
    item.license ? textElement('dc:rights', item.license.url) : '',
  ], { 'xmlns:oai_dc': OAI_DC_NS, 'xmlns:dc': DC_NS, 'xmlns:xsi': XSI_NS, 'xsi:schemaLocation': `${OAI_DC_NS} ${OAI_DC_SCHEMA}` });
}

export const METADATA_FORMATS = [
  { prefix: 'oai_dc', schema: OAI_DC_SCHEMA, namespace: OAI_DC_NS, build: oaiDc },
  { prefix: 'oai_datacite', schema: DATACITE_SCHEMA, namespace: DATACITE_NS, build: dataciteResource },
] as const;

export function metadataFormat(prefix: string) {
  return METADATA_FORMATS.find((f) => f.prefix === prefix);
}
