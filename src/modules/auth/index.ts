// The auth module's public face: the only file other modules import.
import type { AuthService } from './auth.service.ts';

export type { AuthService, AuthUser, SignupInput, LoginResult } from './auth.service.ts';
export { EmailInUseError } from './auth.service.ts';

declare module '../../core/modules.ts' {
  interface ServiceRegistry {
    auth: AuthService;
  }
}
