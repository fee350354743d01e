// The email provider is SMTP (SMTP_URL) or Resend (RESEND_API_KEY); none: stored, not sent
// (docs/rest.md#messages, docs/configuration.md#settings).
import type { DkimSettings } from '@app/platform';
import { ResendEmailProvider } from './resend.provider';
import { SmtpEmailProvider } from './smtp.provider';

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  headers?: Record<string, string>;
  /**
   * The Message-ID header, angle brackets included, set by the caller so a resend of the same email carries the
   * same one (a broadcast's); absent: the provider makes one.
   */
  messageId?: string;
}

export interface EmailProvider {
  readonly name: string;
  /** Resolves to the provider's id for the email once it has left; throws an Error saying why otherwise. */
  send(mail: OutgoingMail): Promise<{ providerId: string }>;
  /** Releases pooled connections (SMTP); call on shutdown. */
  close?(): Promise<void>;
}

export interface EmailProviderConfig {
  smtpUrl?: string | null;
  resendApiKey?: string | null;
  resendApiUrl?: string | null;
  /** DKIM signing of SMTP mail (docs/email.md#sending-domain); Resend signs with the domain set up there. */
  dkim?: DkimSettings | null;
}

/**
 * Resend wins when both are set: the email door understands Resend's webhook events, so only
 * Resend's ids ever receive delivered/opened/clicked statuses. null when neither is set.
 */
export function createEmailProvider(cfg: EmailProviderConfig): EmailProvider | null {
  if (cfg.resendApiKey) return new ResendEmailProvider(cfg.resendApiKey, cfg.resendApiUrl ?? undefined);
  if (cfg.smtpUrl) return new SmtpEmailProvider(cfg.smtpUrl, cfg.dkim ?? null);
  return null;
}
