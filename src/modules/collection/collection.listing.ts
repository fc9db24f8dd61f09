// Published collections for harvesting (the OAI-PMH module's `collections` set, extensions
// section 13): each with its DOI, title, description, creators, tags and dates.
import type { ModuleContext } from '../../core/modules.ts';
import { splitTags } from '../../core/tags.ts';
import * as repo from './collection.repository.ts';

export interface PublishedCollection {
  id: number;
  doi: string;
  conceptDoi: string | null;
  version: number;
  title: string;
  description: string;
  tags: string[];
  creators: string[];
  createdAt: string;
  publishedAt: string;
  /** The DOIs of the member datasets. */
  memberDatasetDois: string[];
}

export async function publishedCollections(ctx: ModuleContext): Promise<PublishedCollection[]> {
  const rows = await repo.publishedCollections(ctx.db);
  const result: PublishedCollection[] = [];
  for (const row of rows) {
    const profile = ctx.isEnabled('profile') ? await ctx.services.profile.getByUserId(Number(row.user_id)) : undefined;
    const creator = profile ? [profile.surname, profile.name].filter((p) => p && p.trim() !== '').join(', ') : '';
    const entries = await ctx.services.cart.entries(await repo.memberIds(ctx.db, Number(row.id)), null);
    result.push({
      id: Number(row.id), doi: row.doi!, conceptDoi: row.concept_doi, version: Number(row.version), title: row.title,
      description: row.description, tags: splitTags(row.tags), creators: creator ? [creator] : [], createdAt: row.created_at,
      publishedAt: row.published_at ?? row.created_at, memberDatasetDois: [...new Set(entries.flatMap((e) => (e.doi ? [e.doi] : [])))],
    });
  }
  return result;
}
