import { Refusal } from '@app/platform';
import { Webhook } from 'standardwebhooks';
import { IncomingHeaders, verifyEmailWebhook } from './email-webhook';

const secret = `whsec_${Buffer.from('a-test-secret-of-32-bytes-length!').toString('base64')}`;
const body = JSON.stringify({
  type: 'email.delivered',
  created_at: '2025-03-01T10:00:00.000Z',
  data: { email_id: 'e-1' },
});

function signed(raw: string, at = new Date(), id = 'msg_2abc', key = secret): IncomingHeaders {
  const signature = new Webhook(key).sign(id, at, raw);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

describe('verifyEmailWebhook: a Standard Webhooks signature under EMAIL_WEBHOOK_SECRET', () => {
  it('accepts a good signature and returns the parsed payload and the webhook-id', () => {
    const result = verifyEmailWebhook(secret, body, signed(body));
    expect(result).toEqual({ payload: JSON.parse(body), webhookId: 'msg_2abc' });
  });
  it('accepts the svix-* header names Resend delivers with', () => {
    const h = signed(body);
    const svix = {
      'svix-id': h['webhook-id'],
      'svix-timestamp': h['webhook-timestamp'],
      'svix-signature': h['webhook-signature'],
    };
    expect(verifyEmailWebhook(secret, body, svix)).toMatchObject({ webhookId: 'msg_2abc' });
  });
  it('reads header names case-insensitively and takes the first of repeated values', () => {
    const h = signed(body);
    const mixed = {
      'Webhook-Id': [h['webhook-id'] as string, 'other'],
      'WEBHOOK-TIMESTAMP': h['webhook-timestamp'],
      'webhook-signature': h['webhook-signature'],
    };
    expect(verifyEmailWebhook(secret, body, mixed)).toMatchObject({ webhookId: 'msg_2abc' });
  });
  it('refuses a signature made with another secret (bad signature)', () => {
    const other = `whsec_${Buffer.from('another-secret-of-32-bytes-long!!').toString('base64')}`;
    const r = verifyEmailWebhook(secret, body, signed(body, new Date(), 'msg_2abc', other));
    expect(r).toBeInstanceOf(Refusal);
    expect((r as Refusal).code).toBe('invalid_signature');
    expect((r as Refusal).status).toBe(401);
  });
  it('refuses a body changed after signing (tampered)', () => {
    const h = signed(body);
    expect((verifyEmailWebhook(secret, body.replace('delivered', 'clicked'), h) as Refusal).code).toBe(
      'invalid_signature',
    );
  });
  it('refuses a webhook-id changed after signing (tampered)', () => {
    const h = { ...signed(body), 'webhook-id': 'msg_other' };
    expect((verifyEmailWebhook(secret, body, h) as Refusal).code).toBe('invalid_signature');
  });
  it('refuses a timestamp outside the five-minute tolerance', () => {
    const old = new Date(Date.now() - 6 * 60_000);
    expect((verifyEmailWebhook(secret, body, signed(body, old)) as Refusal).code).toBe('invalid_signature');
  });
  it('refuses a post without the signature headers', () => {
    expect((verifyEmailWebhook(secret, body, {}) as Refusal).code).toBe('invalid_signature');
    const { 'webhook-signature': _dropped, ...rest } = signed(body);
    expect((verifyEmailWebhook(secret, body, rest) as Refusal).code).toBe('invalid_signature');
  });
});
