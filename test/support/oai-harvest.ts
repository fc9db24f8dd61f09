// The hub's OAI-PMH answers read as a harvester reads them (namespace prefixes kept, repeated
// elements always arrays): for the oai module's tests and for others that check what they publish
// is harvested (collections).
import assert from 'node:assert/strict';
import { XMLParser } from 'fast-xml-parser';
import type { TestServer } from './server.ts';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  // Namespace prefixes stay (dc:title, oai_dc:dc) so that the test checks them.
  removeNSPrefix: false,
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (name) => ['record', 'header', 'set', 'metadataFormat', 'creator', 'dc:creator', 'dc:identifier', 'dc:source', 'title', 'subject', 'relatedIdentifier'].includes(name),
});

export function parseXml(text: string): any {
  return parser.parse(text);
}

export async function oai(server: TestServer, query: string): Promise<any> {
  const res = await fetch(`${server.baseUrl}/oai?${query}`);
  assert.equal(res.status, 200, query);
  assert.match(res.headers.get('content-type') ?? '', /^text\/xml/);
  return parseXml(await res.text())['OAI-PMH'];
}
