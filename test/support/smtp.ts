// A real SMTP server in the test process (the smtp-server package): the hub sends through
// nodemailer to SMTP_URL=smtp://127.0.0.1:<port>, tests read what arrived.
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  /** The message as received, headers included. */
  raw: string;
  /** The message with quoted-printable soft breaks and escapes undone, for reading links and text. */
  decoded: string;
}

export interface TestSmtp {
  /** The value for SMTP_URL. */
  url: string;
  /** Every message received, in order. */
  messages: ReceivedMail[];
  /** The next message to `to` not taken yet; waits for it when none has arrived. */
  take(to: string): Promise<ReceivedMail>;
  /** The first link in a message whose path starts with `prefix`, as a path (the host is the configured DOMAIN). */
  linkPath(mail: ReceivedMail, prefix: string): string;
  close(): Promise<void>;
}

function decodeQuotedPrintable(text: string): string {
  const bytes = Buffer.from(text.replace(/=\r?\n/g, ''), 'latin1');
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const hex = bytes.subarray(i + 1, i + 3).toString('latin1');
    if (bytes[i] === 0x3d && /^[0-9A-F]{2}$/i.test(hex)) { out.push(parseInt(hex, 16)); i += 2; } else out.push(bytes[i]!);
  }
  return Buffer.from(out).toString('utf8');
}

export async function startTestSmtp(): Promise<TestSmtp> {
  const messages: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiting: { to: string; resolve: (mail: ReceivedMail) => void }[] = [];

  const deliver = (mail: ReceivedMail) => {
    messages.push(mail);
    const index = waiting.findIndex((w) => mail.to.includes(w.to));
    if (index >= 0) {
      taken.add(mail);
      waiting.splice(index, 1)[0]!.resolve(mail);
    }
  };

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const subject = /^Subject: (.*)$/im.exec(raw)?.[1]?.trim() ?? '';
        const envelope = session.envelope;
        // Recorded before the server answers 250, so the sender's await covers it.
        deliver({
          from: envelope.mailFrom ? envelope.mailFrom.address : '',
          to: envelope.rcptTo.map((r) => r.address.toLowerCase()),
          subject, raw, decoded: decodeQuotedPrintable(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    take(to) {
      const address = to.toLowerCase();
      const ready = messages.find((m) => !taken.has(m) && m.to.includes(address));
      if (ready) { taken.add(ready); return Promise.resolve(ready); }
      return new Promise((resolve) => waiting.push({ to: address, resolve }));
    },
    linkPath(mail, prefix) {
      const match = new RegExp(`https?://[^/\\s"<>]+(${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^\\s"<>]*)`).exec(mail.decoded);
      if (!match) throw new Error(`no link to ${prefix} in the message "${mail.subject}"`);
      return match[1]!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
