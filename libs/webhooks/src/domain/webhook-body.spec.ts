// docs/webhooks.md#triggers-and-bodies and docs/webhooks.md#automation-posts. The signature:
// docs/webhooks.md#signatures.
import {
  TRIGGERS,
  automationStepData,
  buildWebhookBody,
  generateEndpointSecret,
  happeningDelivery,
  mostSpecificTrigger,
  recordOfBody,
  signBody,
  signStandard,
  standardWebhookKey,
  verifySignature,
  webhookBodyAfterId,
  webhookBodyWithId,
} from './webhook-body';

const base = {
  deliveryId: 'dlv_01JTEST',
  type: 'stage_entered' as const,
  at: new Date(Date.UTC(2025, 0, 2, 3, 4, 5, 0)),
  workspace: { id: 'wsp_1', slug: 'acme' },
  record: { id: 'per_1', kind: 'person' as const, name: 'Ada Lovelace', email: 'ada@acme.test', stage: 'Customer' },
  data: { stage: 'Customer', from: 'Lead', object: 'person' },
};

describe('outgoing webhook body', () => {
  it('is exactly id, type, at, workspace, record, data in that order', () => {
    expect(buildWebhookBody(base)).toBe(
      '{"id":"dlv_01JTEST","type":"stage_entered","at":"2025-01-02T03:04:05.000Z",' +
        '"workspace":{"id":"wsp_1","slug":"acme"},' +
        '"record":{"id":"per_1","kind":"person","name":"Ada Lovelace","email":"ada@acme.test","stage":"Customer"},' +
        '"data":{"stage":"Customer","from":"Lead","object":"person"}}',
    );
  });

  it('is the same text when the part after the id is written once for many deliveries', () => {
    const { deliveryId, ...rest } = base;
    const afterId = webhookBodyAfterId(rest);
    for (const id of [deliveryId, 'dlv_"quoted"\\']) {
      const body = webhookBodyWithId(id, afterId);
      expect(body).toBe(buildWebhookBody({ ...base, deliveryId: id }));
      expect(body).toBe(
        JSON.stringify({
          id,
          type: base.type,
          at: '2025-01-02T03:04:05.000Z',
          workspace: base.workspace,
          record: base.record,
          data: base.data,
        }),
      );
    }
  });

  it('writes at as ISO 8601 with milliseconds', () => {
    const body = JSON.parse(buildWebhookBody({ ...base, at: new Date(Date.UTC(2025, 5, 1, 0, 0, 0, 7)) }));
    expect(body.at).toBe('2025-06-01T00:00:00.007Z');
  });

  it('leaves email and stage out of record when the person has none', () => {
    const body = JSON.parse(
      buildWebhookBody({ ...base, record: { id: 'per_2', kind: 'person', name: '', email: null, stage: undefined } }),
    );
    expect(body.record).toEqual({ id: 'per_2', kind: 'person', name: '' });
    expect(Object.keys(body.record)).toEqual(['id', 'kind', 'name']);
  });

  it('shows no person fields beyond id, kind, name, email and stage', () => {
    const extra = { ...base.record, phone: '+1555', properties: { plan: 'pro' } } as typeof base.record;
    const body = JSON.parse(buildWebhookBody({ ...base, record: extra }));
    expect(Object.keys(body.record)).toEqual(['id', 'kind', 'name', 'email', 'stage']);
  });

  it('shows no workspace fields beyond id and slug', () => {
    const workspace = { id: 'wsp_1', slug: 'acme', secretKey: 'sk_live_x' } as { id: string; slug: string };
    expect(JSON.parse(buildWebhookBody({ ...base, workspace })).workspace).toEqual({ id: 'wsp_1', slug: 'acme' });
  });

  it('carries the test type with empty data', () => {
    expect(JSON.parse(buildWebhookBody({ ...base, type: 'test', data: {} }))).toMatchObject({ type: 'test', data: {} });
  });
});

describe('automation http_request body data', () => {
  it('is { automation: { number, name }, trigger: { kind, event } } for an event trigger', () => {
    expect(automationStepData({ number: 3, name: 'Welcome' }, { kind: 'event', event: 'signup' })).toEqual({
      automation: { number: 3, name: 'Welcome' },
      trigger: { kind: 'event', event: 'signup' },
    });
  });

  it('leaves trigger.event out when the trigger is not an event', () => {
    const data = automationStepData({ number: 4, name: 'Hook' }, { kind: 'webhook' });
    expect(data).toEqual({ automation: { number: 4, name: 'Hook' }, trigger: { kind: 'webhook' } });
    expect(Object.keys(data.trigger as object)).toEqual(['kind']);
  });
});

describe('most specific trigger', () => {
  it('lists the nine triggers', () => {
    expect([...TRIGGERS].sort()).toEqual(
      [
        'email_in',
        'event',
        'field_changed',
        'person_erased',
        'segment_entered',
        'segment_left',
        'stage_entered',
        'subscribed',
        'unsubscribed',
      ].sort(),
    );
  });

  it('types an erasure person_erased, heard only by an address that asked for it', () => {
    expect(mostSpecificTrigger(['person_erased'], ['person_erased', 'event'])).toBe('person_erased');
    expect(mostSpecificTrigger(['person_erased'], ['event', 'stage_entered', 'field_changed'])).toBeNull();
  });

  it('types a reply email_in, not event, for an address hearing both', () => {
    expect(mostSpecificTrigger(['event', 'email_in'], ['event', 'email_in'])).toBe('email_in');
  });

  it('lets an address that asked for event hear a reply, typed with the most specific name', () => {
    expect(mostSpecificTrigger(['email_in', 'event'], ['event'])).toBe('email_in');
  });

  it('types a plain event as event', () => {
    expect(mostSpecificTrigger(['event'], ['event', 'stage_entered'])).toBe('event');
  });

  it('types a subscribe that is also an event as subscribed', () => {
    expect(mostSpecificTrigger(['event', 'subscribed'], ['event'])).toBe('subscribed');
  });

  it('sends nothing to an address that hears none of the happening triggers', () => {
    expect(mostSpecificTrigger(['email_in', 'event'], ['stage_entered'])).toBeNull();
    expect(mostSpecificTrigger(['stage_entered'], [])).toBeNull();
    expect(mostSpecificTrigger([], ['event'])).toBeNull();
  });

  it('treats a stage change as a happening of its own', () => {
    expect(mostSpecificTrigger(['stage_entered'], ['stage_entered', 'event'])).toBe('stage_entered');
    expect(mostSpecificTrigger(['stage_entered'], ['event'])).toBeNull();
  });
});

describe("a segment's entry and exit (the happening's data, as the membership writes it)", () => {
  const entered = { segment_entered: { segment: { id: 'seg_1', name: 'Purchasers' } } };
  const left = { segment_left: { segment: { id: 'seg_1', name: 'Purchasers' } } };

  it('is typed segment_entered or segment_left, its data the segment id and name', () => {
    expect(happeningDelivery(entered, ['segment_entered', 'event'])).toEqual({
      type: 'segment_entered',
      data: { segment: { id: 'seg_1', name: 'Purchasers' } },
    });
    expect(happeningDelivery(left, ['segment_left'])).toEqual({
      type: 'segment_left',
      data: { segment: { id: 'seg_1', name: 'Purchasers' } },
    });
  });

  it('is heard only by an address that asked for it: an entry is not an exit, nor an event', () => {
    expect(happeningDelivery(entered, ['segment_left', 'event', 'stage_entered'])).toBeNull();
    expect(happeningDelivery(left, ['segment_entered'])).toBeNull();
  });

  it('writes the body with the person in record and the segment in data', () => {
    const heard = happeningDelivery(entered, ['segment_entered'])!;
    expect(buildWebhookBody({ ...base, ...heard })).toBe(
      '{"id":"dlv_01JTEST","type":"segment_entered","at":"2025-01-02T03:04:05.000Z",' +
        '"workspace":{"id":"wsp_1","slug":"acme"},' +
        '"record":{"id":"per_1","kind":"person","name":"Ada Lovelace","email":"ada@acme.test","stage":"Customer"},' +
        '"data":{"segment":{"id":"seg_1","name":"Purchasers"}}}',
    );
  });

  it('gives the other triggers their own facts as before', () => {
    const joined = { event: { event: 'subscribed' }, subscribed: { list: { address: 'news', name: 'News' } } };
    expect(happeningDelivery(joined, ['event'])).toEqual({
      type: 'subscribed',
      data: { list: { address: 'news', name: 'News' } },
    });
    expect(happeningDelivery({ person_erased: undefined }, ['person_erased'])).toEqual({
      type: 'person_erased',
      data: {},
    });
  });
});

const SECRET = 'whsec_0123456789abcdefABCDEF0123456789';
const BODY = '{"id":"dlv_1","type":"test"}';
// printf '{"id":"dlv_1","type":"test"}' | openssl dgst -sha256 -hmac 'whsec_0123456789abcdefABCDEF0123456789'
const BODY_HMAC = '7b6d9bab8bdc85e3e450b37f11cf3af8aaadba724978df806bd7dd96a71b3681';
const UNICODE_BODY = '{"name":"Zoë ✓"}';
// printf '{"name":"Zoë ✓"}' | openssl dgst -sha256 -hmac 'whsec_0123456789abcdefABCDEF0123456789'
const UNICODE_HMAC = '83244e1879aa85b19b5c07660d95d0ac2314cf5cb5f55ebac72181d7a61a0f32';

describe('X-Service-Signature', () => {
  it('is sha256= followed by the hex HMAC-SHA256 of the exact body under the secret', () => {
    expect(signBody(SECRET, BODY)).toBe(`sha256=${BODY_HMAC}`);
  });

  it('signs the UTF-8 bytes of the body, the same as the bytes sent', () => {
    expect(signBody(SECRET, UNICODE_BODY)).toBe(`sha256=${UNICODE_HMAC}`);
    expect(signBody(SECRET, Buffer.from(UNICODE_BODY, 'utf8'))).toBe(`sha256=${UNICODE_HMAC}`);
  });

  it('holds for a retry because the same bytes give the same signature', () => {
    expect(signBody(SECRET, BODY)).toBe(signBody(SECRET, Buffer.from(BODY)));
  });
});

describe('signature check recomputes the HMAC over the exact raw body', () => {
  it('accepts the right signature', () => {
    expect(verifySignature(SECRET, BODY, `sha256=${BODY_HMAC}`)).toBe(true);
    expect(verifySignature(SECRET, BODY, `sha256=${BODY_HMAC.toUpperCase()}`)).toBe(true);
  });

  it('refuses a body changed by one byte, even whitespace', () => {
    expect(verifySignature(SECRET, `${BODY} `, `sha256=${BODY_HMAC}`)).toBe(false);
    expect(verifySignature(SECRET, BODY.replace('test', 'tesT'), `sha256=${BODY_HMAC}`)).toBe(false);
  });

  it('refuses another secret', () => {
    expect(verifySignature(`${SECRET}x`, BODY, `sha256=${BODY_HMAC}`)).toBe(false);
  });

  it.each([
    ['a missing header', undefined],
    ['an empty header', ''],
    ['no sha256= prefix', BODY_HMAC],
    ['another algorithm name', `sha1=${BODY_HMAC}`],
    ['a truncated digest', `sha256=${BODY_HMAC.slice(0, 63)}`],
    ['a digest with extra characters', `sha256=${BODY_HMAC}00`],
    ['non-hex characters', `sha256=${BODY_HMAC.slice(0, 62)}zz`],
  ])('refuses %s without throwing', (_what, header) => {
    expect(verifySignature(SECRET, BODY, header)).toBe(false);
  });
});

describe('endpoint secret', () => {
  it('is whsec_ followed by 32 base62 characters', () => {
    expect(generateEndpointSecret()).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
  });

  it('is different every time', () => {
    const secrets = new Set(Array.from({ length: 50 }, () => generateEndpointSecret()));
    expect(secrets.size).toBe(50);
  });
});

describe('Standard Webhooks signature', () => {
  // The standardwebhooks package is the reference: what it signs and verifies, we must match.
  const { Webhook } = jest.requireActual<typeof import('standardwebhooks')>('standardwebhooks');
  const secret = 'whsec_' + Buffer.alloc(24, 1).toString('base64');

  it('is v1, and the base64 HMAC-SHA256 of "{id}.{timestamp}.{body}" under the decoded secret', () => {
    expect(signStandard([secret], 'dlv_1', 1_700_000_000, BODY)).toBe(
      new Webhook(secret).sign('dlv_1', new Date(1_700_000_000_000), BODY),
    );
    expect(signStandard([SECRET], 'dlv_1', 1_700_000_000, UNICODE_BODY)).toBe(
      new Webhook(SECRET).sign('dlv_1', new Date(1_700_000_000_000), UNICODE_BODY),
    );
  });

  it('carries one signature per secret, space-separated, newest first', () => {
    const both = signStandard([SECRET, secret], 'dlv_1', 1_700_000_000, BODY).split(' ');
    expect(both).toEqual([
      signStandard([SECRET], 'dlv_1', 1_700_000_000, BODY),
      signStandard([secret], 'dlv_1', 1_700_000_000, BODY),
    ]);
  });

  it('the key is the part after whsec_ decoded from base64 (base64url reads the same)', () => {
    expect(standardWebhookKey(secret)).toEqual(Buffer.alloc(24, 1));
    expect(standardWebhookKey('whsec_' + Buffer.alloc(32, 250).toString('base64url'))).toEqual(Buffer.alloc(32, 250));
  });
});

describe('the record a stored body named', () => {
  it("is the body's record id, email and name as sent", () => {
    const body = buildWebhookBody({
      ...base,
      record: { id: 'per_1', kind: 'person', name: 'Ada', email: 'ada@x.test' },
    });
    expect(recordOfBody(body)).toEqual({ id: 'per_1', email: 'ada@x.test', name: 'Ada' });
  });

  it('has no email or name when the body carried none, and is null for a body that names nobody', () => {
    const body = buildWebhookBody({ ...base, record: { id: 'per_2', kind: 'person', name: '' } });
    expect(recordOfBody(body)).toEqual({ id: 'per_2', email: null, name: null });
    expect(recordOfBody('{"id":"dlv_1","type":"event","redacted":true}')).toBeNull();
    expect(recordOfBody('not json')).toBeNull();
  });
});
