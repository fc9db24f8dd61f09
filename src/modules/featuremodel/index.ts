// The featuremodel module's public face: the only file other modules import.
import type { FeatureModelService } from './featuremodel.service.ts';

export type {
  FeatureModelService, FeatureModelView, FeatureModelAuthor, NewFeatureModel, DatasetRef,
} from './featuremodel.service.ts';

declare module '../../core/modules.ts' {
  interface ServiceRegistry {
    featuremodel: FeatureModelService;
  }
}
