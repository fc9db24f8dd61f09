// The auth module's public face: the only file other modules import.
import type { AuthService } from './auth.service.ts';
import type { SignedIn } from './auth.routes.ts';

export type { AuthService, AuthUser, SignupInput, LoginResult } from './auth.service.ts';
export { EmailInUseError, InvalidEmailError } from './auth.service.ts';
/** The one reading of an email address (extensions section 11), for every form that takes one. */
export { readEmail, normalizeEmail, type EmailReading } from './email-address.ts';
export { emailField } from './auth.routes.ts';
export type { SignInMethods } from './sign-in-methods.ts';
/** Starts a signed-in session (a fresh session id); for other ways of signing in, such as ORCID. */
export { logIn } from './auth.routes.ts';
/**
 * The sign-in event: modules listen with `ctx.events.on(SIGNED_IN, (e: SignedIn) => …)`; one that
 * does not require auth names it through HubEventPayloads below.
 */
export { SIGNED_IN, type SignedIn } from './auth.routes.ts';

declare module '../../core/modules.ts' {
  interface ServiceRegistry {
    auth: AuthService;
  }
  interface HubEventPayloads {
    'auth.signedIn': SignedIn;
  }
}
