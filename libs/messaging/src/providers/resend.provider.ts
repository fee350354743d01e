// docs/rest.md#messages: Resend's HTTP API, POST {RESEND_API_URL}/emails; providerId is the answer's id.
import type { EmailProvider, OutgoingMail } from './email-provider';

export const RESEND_TIMEOUT_MS = 10_000;

export class ResendEmailProvider implements EmailProvider {
  readonly name = 'resend';
  private readonly apiUrl: string;

  constructor(
    private readonly apiKey: string,
    apiUrl = 'https://api.resend.com',
  ) {
    this.apiUrl = apiUrl.replace(/\/+$/, '');
  }

  async send(mail: OutgoingMail): Promise<{ providerId: string }> {
    const body = {
      from: mail.from,
      to: [mail.to],
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      ...(mail.headers || mail.messageId
        ? { headers: { ...mail.headers, ...(mail.messageId ? { 'Message-ID': mail.messageId } : {}) } }
        : {}),
    };
    // The same Message-ID is the same email: Resend drops a repeat of its idempotency key for a day.
    const answer = await this.call('POST', '/emails', body, mail.messageId);
    const id = (answer as { id?: unknown } | null)?.id;
    if (typeof id !== 'string' || id === '') throw new Error('Resend accepted the email but its answer carried no id.');
    return { providerId: id };
  }

  /** A received email's text, html and headers: Resend's email.received webhook carries only metadata. */
  async fetchReceivedEmail(
    emailId: string,
  ): Promise<{ text: string | null; html: string | null; headers: Record<string, unknown> }> {
    const answer = (await this.call('GET', `/emails/receiving/${encodeURIComponent(emailId)}`)) as Record<
      string,
      unknown
    > | null;
    const str = (v: unknown) => (typeof v === 'string' ? v : null);
    const headers =
      answer && typeof answer.headers === 'object' && answer.headers !== null
        ? (answer.headers as Record<string, unknown>)
        : {};
    return { text: str(answer?.text), html: str(answer?.html), headers };
  }

  private async call(method: 'GET' | 'POST', path: string, body?: unknown, idempotencyKey?: string): Promise<unknown> {
    const response = await fetch(`${this.apiUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey.replace(/^<|>$/g, '').slice(0, 256) } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(RESEND_TIMEOUT_MS),
    });
    const raw = await response.text();
    let parsed: unknown = null;
    try {
      parsed = raw ? JSON.parse(raw) : null;
    } catch {
      parsed = null;
    }
    if (!response.ok) {
      const message = (parsed as { message?: unknown } | null)?.message;
      const error = new Error(
        `Resend answered ${response.status}: ` +
          `${typeof message === 'string' ? message : raw.slice(0, 300) || response.statusText}`,
      );
      // A 4xx other than 429 is the email itself refused: sending it again changes nothing.
      const permanent = response.status >= 400 && response.status < 500 && response.status !== 429;
      throw Object.assign(error, { permanent });
    }
    return parsed;
  }
}
