// The mail service (extensions section 5): SMTP through nodemailer when SMTP_URL is set, the log otherwise.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyBaseLogger } from 'fastify';
import { loadConfig } from '../../core/config.ts';
import type { ModuleContext } from '../../core/modules.ts';
import { startTestSmtp } from '../../../test/support/smtp.ts';
import { createMailService } from './mail.service.ts';

function contextWith(env: Record<string, string>, lines: string[]): ModuleContext {
  const log = { info: (obj: unknown, msg: string) => lines.push(`${JSON.stringify(obj)} ${msg}`) } as unknown as FastifyBaseLogger;
  return { config: loadConfig({ SECRET_KEY: 'x'.repeat(40), ...env }), log } as ModuleContext;
}

describe('mail service', () => {
  it('without SMTP_URL writes each message, link included, to the log', async () => {
    const lines: string[] = [];
    const mail = createMailService(contextWith({}, lines));
    assert.equal(mail.delivers, false);
    await mail.send({ to: 'someone@example.com', subject: 'Hello', text: 'Open http://localhost:5000/reset-password/abc' });
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /someone@example\.com/);
    assert.match(lines[0]!, /http:\/\/localhost:5000\/reset-password\/abc/);
  });

  it('with SMTP_URL sends through SMTP from MAIL_FROM, text and HTML', async () => {
    const smtp = await startTestSmtp();
    const mail = createMailService(contextWith({ SMTP_URL: smtp.url, MAIL_FROM: 'Hub <hub@example.org>' }, []));
    try {
      assert.equal(mail.delivers, true);
      await mail.send({ to: 'reader@example.com', subject: 'Grüße', text: 'plain body', html: '<p>html body</p>' });
      const received = await smtp.take('reader@example.com');
      assert.equal(received.from, 'hub@example.org');
      assert.match(received.decoded, /plain body/);
      assert.match(received.decoded, /<p>html body<\/p>/);
    } finally {
      mail.close();
      await smtp.close();
    }
  });

  it('rejects when the SMTP server cannot be reached', async () => {
    const smtp = await startTestSmtp();
    const url = smtp.url;
    await smtp.close();
    const mail = createMailService(contextWith({ SMTP_URL: url }, []));
    await assert.rejects(mail.send({ to: 'x@example.com', subject: 's', text: 't' }));
    mail.close();
  });
});
