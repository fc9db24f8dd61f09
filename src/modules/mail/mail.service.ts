// Outgoing email (extensions section 5): SMTP at SMTP_URL through nodemailer, sender MAIL_FROM.
// Without SMTP_URL each message is written to the log instead, link included, so a developer
// can follow it. Other modules reach this only through index.ts (the `mail` service). Each
// operation is an exported function taking MailDeps first, bound once below.
import type { Transporter } from 'nodemailer';
import type { ModuleContext } from '../../core/modules.ts';
import { bindOperations } from '../../core/operations.ts';

export interface MailMessage {
  to: string;
  subject: string;
  /** The plain-text body; every message has one. */
  text: string;
  /** An optional HTML alternative. */
  html?: string;
}

/** The context and the SMTP transport, opened on the first message and kept while the service lives. */
export interface MailDeps {
  ctx: ModuleContext;
  transport?: Promise<Transporter>;
}

// nodemailer is loaded on the first message only: a hub without SMTP_URL never pays for it at start.
function transporter(d: MailDeps): Promise<Transporter> {
  return (d.transport ??= import('nodemailer').then((m) => m.default.createTransport(d.ctx.config.smtpUrl!)));
}

/** Whether messages leave the process (SMTP_URL set) or only reach the log. */
export function delivers(d: MailDeps): boolean {
  return d.ctx.config.smtpUrl !== undefined;
}

/** Sends one message; rejects when the SMTP server refuses it or cannot be reached. */
export async function send(d: MailDeps, message: MailMessage): Promise<void> {
  const { smtpUrl, mailFrom } = d.ctx.config;
  if (!smtpUrl) {
    d.ctx.log.info({ mail: { to: message.to, subject: message.subject } }, `mail not sent (SMTP_URL is unset):\n${message.text}`);
    return;
  }
  await (await transporter(d)).sendMail({ from: mailFrom, to: message.to, subject: message.subject, text: message.text, html: message.html });
}

export function close(d: MailDeps): void {
  void d.transport?.then((t) => t.close());
}

export function createMailService(ctx: ModuleContext) {
  const d: MailDeps = { ctx };
  return {
    get delivers(): boolean {
      return delivers(d);
    },
    ...bindOperations(d, { send, close }),
  };
}

export type MailService = ReturnType<typeof createMailService>;
