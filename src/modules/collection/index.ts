// The collection module's public face: the only file other modules import.
import type { CollectionService } from './collection.service.ts';

export type { CollectionService, CollectionView, MemberRef } from './collection.service.ts';
// For the OAI-PMH module's `collections` set: ctx.services.collection.publishedCollections().
export type { PublishedCollection } from './collection.listing.ts';

declare module '../../core/modules.ts' {
  interface ServiceRegistry {
    collection: CollectionService;
  }
}
