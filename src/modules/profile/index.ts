import type { ProfileService } from './profile.service.ts';

export type { ProfileService, UserProfile, Pagination } from './profile.service.ts';
export { paginate } from './profile.service.ts';

declare module '../../core/modules.ts' {
  interface ServiceRegistry {
    profile: ProfileService;
  }
}
