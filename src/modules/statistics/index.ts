// The statistics module's public face: the only file other modules import.
import type { StatisticsService } from './statistics.service.ts';

export type { StatisticsService } from './statistics.service.ts';
export type { Statistics } from './statistics.figures.ts';

declare module '../../core/modules.ts' {
  interface ServiceRegistry {
    statistics: StatisticsService;
  }
}
