// interface.md "Outgoing webhook body", "Outgoing webhook triggers", "Automation http_request step";
// decisions.md section 6.
import { TRIGGERS, automationStepData, buildWebhookBody, mostSpecificTrigger, webhookBodyAfterId, webhookBodyWithId } from './webhook-body';

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
      expect(body).toBe(JSON.stringify({ id, type: base.type, at: '2025-01-02T03:04:05.000Z', workspace: base.workspace, record: base.record, data: base.data }));
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
  it('lists the six triggers', () => {
    expect([...TRIGGERS].sort()).toEqual(
      ['email_in', 'event', 'field_changed', 'stage_entered', 'subscribed', 'unsubscribed'].sort(),
    );
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
