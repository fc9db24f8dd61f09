// The account emails, in the mail module's one shape (plain text with an HTML alternative).
import { composeMessage as message, type MailMessage } from '../mail/index.ts';

/** `otherMethods`: the account's ways in besides its password (extensions section 11), named. */
export function passwordResetEmail(to: string, url: string, otherMethods: string[] = []): MailMessage {
  const methods = otherMethods.length === 0
    ? 'Your account signs in with its email address and password only.'
    : `Your account signs in with its email address and password, and also with: ${otherMethods.join('; ')}. `
      + 'If you do not recognise one of these, it was linked by someone else: after choosing your password, remove it from your profile.';
  return message(to, 'Reset your UVL Hub password',
    ['Someone (we hope you) asked to reset the password of your UVL Hub account.', methods, 'The link works once, within one hour.'],
    { label: 'Choose a new password', url },
    'If you did not ask for this, ignore this email: your password stays as it is.');
}

/** To the old address once the change is done: a stolen session cannot move an account away unnoticed. */
export function emailChangedNotice(to: string, newEmail: string, loginUrl: string): MailMessage {
  return message(to, 'Your UVL Hub email address was changed',
    [`Your UVL Hub account now uses the address ${newEmail}; this address no longer logs in.`],
    { label: 'Log in', url: loginUrl },
    'If you did not make this change, reply to this email or contact the hub\'s administrators at once.');
}

export function emailChangeEmail(to: string, url: string): MailMessage {
  return message(to, 'Confirm your new UVL Hub email address',
    ['A UVL Hub account asked to use this address from now on.',
      'The link works once, within one hour, when you are logged in to that account. If you have no UVL Hub account, or did not ask for this, do not open it.'],
    { label: 'Confirm this address', url },
    'If you did not ask for this, ignore this email: nothing changes.');
}
