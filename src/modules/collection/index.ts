// The collection module's public face: the only file other modules import.
import type { CollectionService } from './collection.service.ts';

export type { CollectionService, CollectionView, MemberRef } from './collection.service.ts';

declare module '../../core/modules.ts' {
  interface ServiceRegistry {
    collection: CollectionService;
  }
}
