// docs/rest.md#messages: SMTP through nodemailer (SMTP_URL); providerId is the Message-ID, without angle brackets.
// nodemailer loads when SMTP_URL is set, not in every api and worker.
import type * as Nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { DkimSettings } from '@app/platform';
import type { EmailProvider, OutgoingMail } from './email-provider';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** Transport options for an SMTP_URL; query parameters of the URL (nodemailer's own) still apply on top. */
export function smtpOptions(smtpUrl: string): Record<string, unknown> {
  const url = new URL(smtpUrl);
  const tlsChosen = url.searchParams.has('ignoreTLS') || url.searchParams.has('requireTLS');
  return {
    url: smtpUrl,
    pool: true,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    // Mail to a catcher on this machine never crosses a network, and such catchers offer STARTTLS with certificates
    // nobody can verify.
    ...(url.protocol === 'smtp:' && LOOPBACK.has(url.hostname) && !tlsChosen ? { ignoreTLS: true } : {}),
  };
}

export class SmtpEmailProvider implements EmailProvider {
  readonly name = 'smtp';
  private readonly transport: Transporter;

  constructor(smtpUrl: string, dkim: DkimSettings | null = null) {
    const { createTransport } = require('nodemailer') as typeof Nodemailer;
    // nodemailer signs each message with the key when `dkim` is set (docs/email.md#what-lifeline-signs).
    const options = { ...smtpOptions(smtpUrl), ...(dkim ? { dkim } : {}) };
    this.transport = createTransport(options as Parameters<typeof createTransport>[0]);
  }

  async send(mail: OutgoingMail): Promise<{ providerId: string }> {
    const info = await this.transport.sendMail({
      from: mail.from,
      to: mail.to,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      headers: mail.headers,
      ...(mail.messageId ? { messageId: mail.messageId } : {}),
    });
    const providerId = String(info.messageId ?? '').replace(/^<|>$/g, '');
    if (!providerId) throw new Error('The SMTP server accepted the email but no Message-ID came back.');
    return { providerId };
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
