// The review module's public face: the only file other modules import.
import type { ReviewService } from './review.service.ts';

export type { ReviewService, AnonymousDataset } from './review.service.ts';

declare module '../../core/modules.ts' {
  interface ServiceRegistry {
    review: ReviewService;
  }
}
