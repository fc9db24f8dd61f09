// Where harvested items come from: one source per OAI set, asked in a fixed order. A module that
// publishes items with a DOI (collections, later) becomes harvestable by adding its source here;
// the protocol, the paging and the formats do not change.
import type { ModuleContext, ServiceRegistry } from '../../core/modules.ts';
import { licenseUrl, type DatasetSummary, type HarvestedDataset, type HarvestKey, type HarvestWindow } from '../dataset/index.ts';
import type { ItemMetadata } from './oai.metadata.ts';

export type { HarvestKey, HarvestWindow };

export interface HarvestItem {
  /** The item's place in its source's stable order: its datestamp (the last change of its published metadata, ISO 8601 text) and id. */
  key: HarvestKey;
  doi: string;
  metadata: ItemMetadata;
}

export interface ItemSource {
  /** The setSpec. */
  set: string;
  setName: string;
  /** At most `limit` items after `after`, in (datestamp, id) order. */
  page(window: HarvestWindow, after: HarvestKey | null, limit: number): Promise<HarvestItem[]>;
  count(window: HarvestWindow): Promise<number>;
  /** The item with exactly this DOI, if this source has it. */
  byDoi(doi: string): Promise<HarvestItem | undefined>;
}

function datasetMetadata(dataset: DatasetSummary, doi: string): ItemMetadata {
  return {
    doi,
    // A dataset with a DOI always has its landing page.
    url: dataset.url!,
    title: dataset.title,
    description: dataset.description,
    creators: dataset.authors.map((a) => ({ name: a.name, affiliation: a.affiliation, orcid: a.orcid })),
    // Its publication (DataCite's publicationYear and Issued date), not its creation: a draft made
    // in one year and published in the next was issued in the next. Rows without it: their creation.
    date: (dataset.publishedAt ?? dataset.createdAt).slice(0, 10),
    resourceTypeGeneral: 'Dataset',
    resourceType: 'UVL feature models',
    subjects: dataset.tags,
    license: { id: dataset.license, url: licenseUrl(dataset.license) },
    version: String(dataset.version),
    conceptDoi: dataset.conceptDoi,
    publicationDoi: dataset.publicationDoi ? dataset.publicationDoi.trim().replace(/^https?:\/\/(dx\.)?doi\.org\//i, '').replace(/^doi:/i, '') : null,
    derivedFrom: dataset.importSources.map((s) => ({ identifier: s.identifier, scheme: s.scheme })),
  };
}

function datasetItem({ dataset, datestamp }: HarvestedDataset): HarvestItem | undefined {
  if (!dataset.doi) return undefined;
  return { key: { datestamp, id: dataset.id }, doi: dataset.doi, metadata: datasetMetadata(dataset, dataset.doi) };
}

export function datasetSource(ctx: ModuleContext): ItemSource {
  const items = (list: HarvestedDataset[]) => list.flatMap((d) => datasetItem(d) ?? []);
  return {
    set: 'datasets',
    setName: 'Published datasets of UVL feature models',
    page: async (window, after, limit) => items(await ctx.services.dataset.harvestPage(window, after, limit)),
    count: (window) => ctx.services.dataset.harvestCount(window),
    async byDoi(doi) {
      const found = await ctx.services.dataset.harvestByDoi(doi);
      return found && datasetItem(found);
    },
  };
}

// Named through the registry: oai does not require the collection module (it is asked only when enabled).
type PublishedCollection = Awaited<ReturnType<ServiceRegistry['collection']['publishedCollections']>>[number];

/** A published collection as an item: a DataCite `Collection` whose datestamp is its publication. */
function collectionItem(ctx: ModuleContext, c: PublishedCollection): HarvestItem {
  return {
    key: { datestamp: c.publishedAt, id: c.id },
    doi: c.doi,
    metadata: {
      doi: c.doi,
      url: `http://${ctx.config.domain}/collection/${c.id}/`,
      title: c.title,
      description: c.description,
      creators: c.creators.map((name) => ({ name, affiliation: null, orcid: null })),
      date: c.publishedAt.slice(0, 10),
      resourceTypeGeneral: 'Collection',
      resourceType: 'Collection of UVL feature models',
      subjects: c.tags,
      license: null,
      version: String(c.version),
      conceptDoi: c.conceptDoi,
      publicationDoi: null,
      derivedFrom: [],
    },
  };
}

const after = (a: HarvestKey, b: HarvestKey) => a.datestamp > b.datestamp || (a.datestamp === b.datestamp && a.id > b.id);

/**
 * The `collections` set (extensions section 13): the collection module's published collections,
 * asked through the service registry when that module is enabled (oai does not require it). They
 * are few beside datasets, so one list is read and windowed here.
 */
export function collectionSource(ctx: ModuleContext): ItemSource {
  const all = async (window: HarvestWindow) => {
    if (!ctx.isEnabled('collection')) return [];
    const items = (await ctx.services.collection.publishedCollections()).map((c) => collectionItem(ctx, c));
    return items
      .filter((i) => (window.from === undefined || i.key.datestamp >= window.from) && (window.before === undefined || i.key.datestamp < window.before))
      .sort((a, b) => (after(a.key, b.key) ? 1 : after(b.key, a.key) ? -1 : 0));
  };
  return {
    set: 'collections',
    setName: 'Published collections of feature models',
    page: async (window, from, limit) => (await all(window)).filter((i) => from === null || after(i.key, from)).slice(0, limit),
    count: async (window) => (await all(window)).length,
    byDoi: async (doi) => (await all({})).find((i) => i.doi === doi),
  };
}
