// Where harvested items come from: one source per OAI set, asked in a fixed order. A module that
// publishes items with a DOI (collections, later) becomes harvestable by adding its source here;
// the protocol, the paging and the formats do not change.
import type { ModuleContext } from '../../core/modules.ts';
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
    date: dataset.createdAt.slice(0, 10),
    resourceTypeGeneral: 'Dataset',
    resourceType: 'UVL feature models',
    subjects: dataset.tags,
    license: { id: dataset.license, url: licenseUrl(dataset.license) },
    version: String(dataset.version),
    conceptDoi: dataset.conceptDoi,
    publicationDoi: dataset.publicationDoi ? dataset.publicationDoi.trim().replace(/^https?:\/\/(dx\.)?doi\.org\//i, '').replace(/^doi:/i, '') : null,
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

/** The `collections` set: empty until published collections exist (extensions section 13). */
export function collectionSource(): ItemSource {
  return {
    set: 'collections',
    setName: 'Published collections of feature models',
    page: async () => [],
    count: async () => 0,
    byDoi: async () => undefined,
  };
}
