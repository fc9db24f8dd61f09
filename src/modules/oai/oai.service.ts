// The OAI-PMH 2.0 repository (extensions section 13): a request's arguments in, the whole XML
// answer out, errors included (the protocol answers them with 200 and an <error> element).
// Items come from the sources of oai.sources.ts; the service never sees the HTTP request.
import type { ModuleContext } from '../../core/modules.ts';
import { checkArguments, OaiError, type OaiRequest, type RawArguments } from './oai.arguments.ts';
import { listPage, type ListPage } from './oai.lists.ts';
import { dataciteDocument, METADATA_FORMATS, metadataFormat } from './oai.metadata.ts';
import { collectionSource, datasetSource, type HarvestItem, type ItemSource } from './oai.sources.ts';
import { element, textElement } from './oai.xml.ts';

const OAI_NS = 'http://www.openarchives.org/OAI/2.0/';
const OAI_SCHEMA = 'http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd';
const IDENTIFIER_NS = 'http://www.openarchives.org/OAI/2.0/oai-identifier';
const IDENTIFIER_SCHEMA = 'http://www.openarchives.org/OAI/2.0/oai-identifier.xsd';

export interface OaiDeps {
  ctx: ModuleContext;
  sources: ItemSource[];
}

const seconds = (iso: string) => `${iso.slice(0, 19)}Z`;

function baseUrl(d: OaiDeps): string {
  return `http://${d.ctx.config.domain}/oai`;
}

function identifierPrefix(d: OaiDeps): string {
  return `oai:${d.ctx.config.domain}:`;
}

function header(d: OaiDeps, item: HarvestItem, set: string): string {
  return element('header', [
    textElement('identifier', identifierPrefix(d) + item.doi),
    textElement('datestamp', seconds(item.key.datestamp)),
    textElement('setSpec', set),
  ]);
}

function record(d: OaiDeps, item: HarvestItem, set: string, prefix: string): string {
  const format = metadataFormat(prefix)!;
  return element('record', [header(d, item, set), element('metadata', format.build(item.metadata))]);
}

/** The item an `oai:<DOMAIN>:<doi>` identifier names, with its set. */
async function itemOf(d: OaiDeps, identifier: string): Promise<{ item: HarvestItem; set: string }> {
  const prefix = identifierPrefix(d);
  const doi = identifier.startsWith(prefix) ? identifier.slice(prefix.length) : '';
  for (const source of doi ? d.sources : []) {
    const item = await source.byDoi(doi);
    // MariaDB finds a DOI ignoring case; the identifier names exactly one item.
    if (item && item.doi === doi) return { item, set: source.set };
  }
  throw new OaiError('idDoesNotExist', `No item has the identifier "${identifier}" (identifiers are ${prefix}<doi>).`);
}

async function identify(d: OaiDeps): Promise<string> {
  const firsts = await Promise.all(d.sources.map((s) => s.page({}, null, 1)));
  const earliest = firsts.flat().map((i) => i.key.datestamp).sort()[0] ?? '1970-01-01T00:00:00Z';
  const adminEmail = /<([^>]+)>/.exec(d.ctx.config.mailFrom)?.[1] ?? d.ctx.config.mailFrom;
  return element('Identify', [
    textElement('repositoryName', 'UVL Hub'),
    textElement('baseURL', baseUrl(d)),
    textElement('protocolVersion', '2.0'),
    textElement('adminEmail', adminEmail),
    textElement('earliestDatestamp', seconds(earliest)),
    textElement('deletedRecord', 'no'),
    textElement('granularity', 'YYYY-MM-DDThh:mm:ssZ'),
    element('description', element('oai-identifier', [
      textElement('scheme', 'oai'),
      textElement('repositoryIdentifier', d.ctx.config.domain),
      textElement('delimiter', ':'),
      textElement('sampleIdentifier', `${identifierPrefix(d)}10.5281/zenodo.1234567`),
    ], { xmlns: IDENTIFIER_NS, 'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance', 'xsi:schemaLocation': `${IDENTIFIER_NS} ${IDENTIFIER_SCHEMA}` })),
  ]);
}

async function listMetadataFormats(d: OaiDeps, args: Record<string, string>): Promise<string> {
  // Every item is offered in every format: an identifier only has to exist.
  if (args.identifier !== undefined) await itemOf(d, args.identifier);
  return element('ListMetadataFormats', METADATA_FORMATS.map((f) => element('metadataFormat', [
    textElement('metadataPrefix', f.prefix), textElement('schema', f.schema), textElement('metadataNamespace', f.namespace),
  ])));
}

function listSets(d: OaiDeps, args: Record<string, string>): string {
  // The sets fit one page: no token was ever given for them.
  if (args.resumptionToken !== undefined) throw new OaiError('badResumptionToken', 'ListSets has a single page: there is no resumptionToken to resume.');
  return element('ListSets', d.sources.map((s) => element('set', [textElement('setSpec', s.set), textElement('setName', s.setName)])));
}

function resumptionOf(page: ListPage): string {
  if (!page.resumption) return '';
  const { token, completeListSize, cursor } = page.resumption;
  return textElement('resumptionToken', token, { completeListSize, cursor });
}

async function list(d: OaiDeps, verb: 'ListIdentifiers' | 'ListRecords', args: Record<string, string>): Promise<string> {
  const page = await listPage(d.sources, args);
  const entries = page.items.map(({ item, set }) => (verb === 'ListRecords' ? record(d, item, set, page.args.metadataPrefix) : header(d, item, set)));
  return element(verb, [...entries, resumptionOf(page)]);
}

async function getRecord(d: OaiDeps, args: Record<string, string>): Promise<string> {
  if (!metadataFormat(args.metadataPrefix!)) {
    throw new OaiError('cannotDisseminateFormat', `The metadata format "${args.metadataPrefix}" is not offered. Formats: oai_dc, oai_datacite.`);
  }
  const { item, set } = await itemOf(d, args.identifier!);
  return element('GetRecord', record(d, item, set, args.metadataPrefix!));
}

function answerOf(d: OaiDeps, request: OaiRequest): Promise<string> | string {
  switch (request.verb) {
    case 'Identify': return identify(d);
    case 'ListMetadataFormats': return listMetadataFormats(d, request.args);
    case 'ListSets': return listSets(d, request.args);
    case 'ListIdentifiers': return list(d, 'ListIdentifiers', request.args);
    case 'ListRecords': return list(d, 'ListRecords', request.args);
    case 'GetRecord': return getRecord(d, request.args);
  }
}

/** The whole OAI-PMH document answering these arguments. */
export async function respond(d: OaiDeps, raw: RawArguments, now = new Date()): Promise<string> {
  let request: OaiRequest | undefined;
  let body: string;
  try {
    request = checkArguments(raw);
    body = await answerOf(d, request);
  } catch (error) {
    if (!(error instanceof OaiError)) throw error;
    // After badVerb or badArgument the request element carries no attributes (OAI-PMH 3.6).
    if (error.code === 'badVerb' || error.code === 'badArgument') request = undefined;
    body = textElement('error', error.message, { code: error.code });
  }
  const attrs = request ? { verb: request.verb, ...request.args } : {};
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element('OAI-PMH', [
    textElement('responseDate', seconds(now.toISOString())),
    textElement('request', baseUrl(d), attrs),
    body,
  ], { xmlns: OAI_NS, 'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance', 'xsi:schemaLocation': `${OAI_NS} ${OAI_SCHEMA}` })}\n`;
}

export type DataciteAnswer = { kind: 'file'; xml: string } | { kind: 'moved'; doi: string } | { kind: 'missing' };

/**
 * `/doi/<doi>/export/datacite.xml`: the DataCite XML of the item with this DOI. A superseded DOI or
 * another spelling of one moves to the current DOI, as the DOI page's other exports do.
 */
export async function dataciteXml(d: OaiDeps, doi: string): Promise<DataciteAnswer> {
  for (const source of d.sources) {
    const item = await source.byDoi(doi);
    if (item && item.doi === doi) return { kind: 'file', xml: dataciteDocument(item.metadata) };
  }
  const resolved = await d.ctx.services.dataset.resolveDoi(doi);
  return resolved.kind === 'moved' ? { kind: 'moved', doi: resolved.doi } : { kind: 'missing' };
}

export function createOaiService(ctx: ModuleContext) {
  const d: OaiDeps = { ctx, sources: [datasetSource(ctx), collectionSource(ctx)] };
  return {
    respond: (raw: RawArguments, now?: Date) => respond(d, raw, now),
    dataciteXml: (doi: string) => dataciteXml(d, doi),
  };
}

export type OaiService = ReturnType<typeof createOaiService>;
