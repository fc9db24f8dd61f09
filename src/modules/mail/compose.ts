// The hub's emails as one shape: plain text first (every client shows it), with a small HTML
// alternative that reads well on a phone (one column, no fixed widths, the link also written out).
import type { MailMessage } from './mail.service.ts';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A message of paragraphs, one action link and a closing line, signed by the hub. */
export function composeMessage(to: string, subject: string, paragraphs: string[], action: { label: string; url: string }, closing: string): MailMessage {
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
