// Outgoing email (extensions section 5): SMTP at SMTP_URL through nodemailer, sender MAIL_FROM.
// Without SMTP_URL each message is written to the log instead, link included, so a developer
// can follow it. Other modules reach this only through index.ts (the `mail` service).
import type { Transporter } from 'nodemailer';
import type { ModuleContext } from '../../core/modules.ts';

export interface MailMessage {
  to: string;
  subject: string;
  /** The plain-text body; every message has one. */
  text: string;
  /** An optional HTML alternative. */
  html?: string;
}

export function createMailService(ctx: ModuleContext) {
  const { smtpUrl, mailFrom } = ctx.config;
  let transport: Promise<Transporter> | undefined;
  // nodemailer is loaded on the first message only: a hub without SMTP_URL never pays for it at start.
  const transporter = () => (transport ??= import('nodemailer').then((m) => m.default.createTransport(smtpUrl!)));

  return {
    /** Whether messages leave the process (SMTP_URL set) or only reach the log. */
    get delivers(): boolean {
      return smtpUrl !== undefined;
    },

    /** Sends one message; rejects when the SMTP server refuses it or cannot be reached. */
    async send(message: MailMessage): Promise<void> {
      if (!smtpUrl) {
        ctx.log.info({ mail: { to: message.to, subject: message.subject } }, `mail not sent (SMTP_URL is unset):\n${message.text}`);
        return;
      }
      await (await transporter()).sendMail({ from: mailFrom, to: message.to, subject: message.subject, text: message.text, html: message.html });
    },

    close(): void {
      void transport?.then((t) => t.close());
    },
  };
}

export type MailService = ReturnType<typeof createMailService>;
