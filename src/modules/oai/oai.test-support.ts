// Shared steps of the OAI-PMH tests: published datasets made quickly (no model files, straight
// through the dataset service, as the seeders do), the XML read as a harvester reads it, and a
// whole list harvested by following its resumption tokens.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '../../../test/support/server.ts';
import { oai, parseXml } from '../../../test/support/oai-harvest.ts';

/** A model for the drafts made here (a module's tests reach another module only through its index.ts). */
const DRAFT_UVL = `namespace Late
features
    Late
        optional
            Extra
`;

// Read as a harvester reads it: shared with other modules' tests in test/support.
export { oai, parseXml };

/** Published (synchronized) datasets with the given DOIs and creation times; a null DOI is a draft. */
export async function createDatasets(server: TestServer, userId: number, entries: { doi: string | null; createdAt: string; title?: string; tags?: string }[]): Promise<number[]> {
  const ids: number[] = [];
  for (const e of entries) {
    ids.push(await server.hub.ctx.services.dataset.createFromFiles(userId, {
      title: e.title ?? `Harvested ${e.doi ?? 'draft'}`, description: 'For the harvester', publicationType: 'none', publicationDoi: null,
      tags: e.tags ?? 'oai', license: 'CC-BY-4.0',
      authors: [{ name: 'Harvest, Hanna', affiliation: 'OAI Lab', orcid: null }],
    }, [], { doi: e.doi, createdAt: e.createdAt }));
  }
  return ids;
}

/** A draft with one model (so that it can be published) created at `createdAt`. */
export async function createDraft(server: TestServer, userId: number, createdAt: string, title = 'Published later'): Promise<number> {
  // createFromFiles reads a local file, as the seeders do.
  const source = mkdtempSync(join(tmpdir(), 'oai-draft-'));
  try {
    writeFileSync(join(source, 'late.uvl'), DRAFT_UVL);
    return await server.hub.ctx.services.dataset.createFromFiles(userId, {
      title, description: 'Created as a draft, published days later', publicationType: 'none', publicationDoi: null,
      tags: 'oai', license: 'CC-BY-4.0', authors: [{ name: 'Harvest, Hanna', affiliation: 'OAI Lab', orcid: null }],
    }, [{ path: join(source, 'late.uvl'), meta: { name: 'late.uvl', title: 'Late', description: '', publicationType: 'none', publicationDoi: null, tags: null, version: null, authors: [] } }], { createdAt });
  } finally {
    rmSync(source, { recursive: true, force: true });
  }
}

/** Publishes the owner's draft through the API's push (the fake deposit gives 10.1234/fakenodo.<id>); answers its DOI. */
export async function publishDraft(server: TestServer, userId: number, datasetId: number): Promise<string> {
  const outcome = await server.hub.ctx.services.dataset.publish(datasetId, userId);
  assert.equal(outcome.status, 'ok', JSON.stringify(outcome));
  return (outcome as { doi: string }).doi;
}

export interface Harvest {
  pages: any[];
  /** Every identifier in the order received. */
  identifiers: string[];
}

/** Follows the resumption tokens of a ListIdentifiers or ListRecords to the end (at most 50 pages). */
export async function harvestAll(server: TestServer, verb: 'ListIdentifiers' | 'ListRecords', query: string, between?: (page: number) => Promise<void>): Promise<Harvest> {
  const pages: any[] = [];
  const identifiers: string[] = [];
  let next = `verb=${verb}&${query}`;
  while (pages.length < 50) {
    const doc = await oai(server, next);
    assert.equal(doc.error, undefined, `page ${pages.length + 1}: ${JSON.stringify(doc.error)}`);
    const list = doc[verb];
    pages.push(list);
    const headers = verb === 'ListRecords' ? (list.record ?? []).map((r: any) => r.header[0]) : (list.header ?? []);
    identifiers.push(...headers.map((h: any) => h.identifier));
    const token = list.resumptionToken;
    const value = typeof token === 'object' ? token['#text'] : token;
    if (!value) break;
    await between?.(pages.length);
    next = `verb=${verb}&resumptionToken=${encodeURIComponent(value)}`;
  }
  return { pages, identifiers };
}
