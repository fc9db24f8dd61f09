// The account emails: plain text first (every client shows it), with a small HTML alternative
// that reads well on a phone (one column, no fixed widths, the link also written out).
import type { MailMessage } from '../mail/index.ts';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function message(to: string, subject: string, paragraphs: string[], action: { label: string; url: string }, closing: string): MailMessage {
  const text = [...paragraphs, `${action.label}: ${action.url}`, closing, '-- UVL Hub'].join('\n\n');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:16px;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;font-size:16px;line-height:1.5;color:#212529;">
<div style="max-width:560px;margin:0 auto;">
<h1 style="font-size:20px;">${escapeHtml(subject)}</h1>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
<p><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:10px 16px;background:#0d6efd;color:#fff;text-decoration:none;border-radius:6px;">${escapeHtml(action.label)}</a></p>
<p style="font-size:14px;word-break:break-all;">${escapeHtml(action.url)}</p>
<p style="font-size:14px;color:#6c757d;">${escapeHtml(closing)}</p>
</div></body></html>`;
  return { to, subject, text, html };
}

export function passwordResetEmail(to: string, url: string): MailMessage {
  return message(to, 'Reset your UVL Hub password',
    ['Someone (we hope you) asked to reset the password of your UVL Hub account.', 'The link works once, within one hour.'],
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
    ['Your UVL Hub account asked to use this address from now on.', 'The link works once, within one hour.'],
    { label: 'Confirm this address', url },
    'If you did not ask for this, ignore this email: nothing changes.');
}
