import { Refusal } from '@app/core';
import { parseBody, parseEventItem, parseIdentifyItem, parseItem, parseSubscribeItem, parseSupportItem } from './event-input';

const refusal = (value: unknown) => (value instanceof Refusal ? value.code : 'accepted');

describe('event items (interface.md "Event" fields and events rules 1, 3, 6)', () => {
  it.each([
    ['not an object', 'x', 'invalid_json'],
    ['no type', { email: 'a@b.co' }, 'unknown_event'],
    ['a reserved name', { type: 'email_received', email: 'a@b.co' }, 'reserved_event_name'],
    ['an action name used as an event', { type: 'subscribe_now', email: 'a@b.co' }, 'accepted'],
    ['no identity', { type: 'signup' }, 'no_identity'],
    ['a bad email', { type: 'signup', email: 'nope' }, 'invalid_email'],
    ['expires_at not a date', { type: 'signup', email: 'a@b.co', expires_at: 'soon' }, 'invalid_expiry'],
    ['expires_at equal to occurred_at', { type: 'signup', email: 'a@b.co', occurred_at: '2030-01-01T00:00:00Z', expires_at: '2030-01-01T00:00:00Z' }, 'invalid_expiry'],
    ['occurred_at not a date', { type: 'signup', email: 'a@b.co', occurred_at: 'yesterday' }, 'invalid_field'],
    ['value not a number', { type: 'purchase', email: 'a@b.co', value: '9' }, 'invalid_field'],
    ['properties not an object', { type: 'purchase', email: 'a@b.co', properties: [1] }, 'invalid_field'],
    ['detail too long', { type: 'purchase', email: 'a@b.co', detail: 'x'.repeat(501) }, 'invalid_field'],
    ['source.path not a string', { type: 'pageview', anon_id: 'a', source: { path: 1 } }, 'invalid_field'],
  ])('%s -> %s', (_case, raw, code) => {
    expect(refusal(parseEventItem(raw))).toBe(code);
  });

  it('an already-expired event is not a refusal: the caller answers status expired', () => {
    const command = parseEventItem({ type: 'signup', email: 'a@b.co', occurred_at: '2020-01-01T00:00:00Z', expires_at: '2020-01-02T00:00:00Z' });
    expect(command).not.toBeInstanceOf(Refusal);
    expect((command as { expiresAt: Date }).expiresAt.toISOString()).toBe('2020-01-02T00:00:00.000Z');
  });

  it('emails are folded to lower case; source.anon_id names the visitor when anon_id is absent', () => {
    const command = parseEventItem({ type: 'pageview', email: ' Ada@Example.COM ', source: { anon_id: 'tab-1' } });
    expect((command as { keys: unknown }).keys).toEqual([
      { kind: 'email', value: 'ada@example.com' },
      { kind: 'anon_id', value: 'tab-1' },
    ]);
  });

  it('a custom name is marked custom; a built-in one is not', () => {
    expect((parseEventItem({ type: 'report_built', account_id: 'u1' }) as { custom: boolean }).custom).toBe(true);
    expect((parseEventItem({ type: 'signup', account_id: 'u1' }) as { custom: boolean }).custom).toBe(false);
  });
});

describe('identify, subscribe and support items', () => {
  it('identify needs a key, takes fields of strings, numbers or null, and no expiry', () => {
    expect(refusal(parseIdentifyItem({ name: 'x' }))).toBe('nothing_to_identify');
    expect(refusal(parseIdentifyItem({ email: 'a@b.co', fields: { plan: { nested: true } } }))).toBe('invalid_field');
    expect(refusal(parseIdentifyItem({ email: 'a@b.co', expires_at: '2030-01-01T00:00:00Z' }))).toBe('invalid_field');
    expect(parseIdentifyItem({ email: 'a@b.co', fields: { plan: 'pro', seats: 3, old: null } })).toMatchObject({ fields: { plan: 'pro', seats: 3, old: null } });
  });

  it('subscribe keeps consent verbatim, as a string or an object with ip and granted_at', () => {
    expect(parseSubscribeItem({ email: 'a@b.co', list: 'news', consent: 'Yes please' }, { requireConsentText: false })).toMatchObject({
      consent: { raw: 'Yes please', text: 'Yes please' },
    });
    const object = { text: 'I agree', ip: '203.0.113.1', granted_at: '2026-01-01T00:00:00Z' };
    expect(parseSubscribeItem({ email: 'a@b.co', list: 'news', consent: object }, { requireConsentText: true })).toMatchObject({
      consent: { raw: object, text: 'I agree', ip: '203.0.113.1', grantedAt: new Date('2026-01-01T00:00:00Z') },
    });
  });

  it.each([
    [{ list: 'news', consent: 'x' }, 'invalid_email'],
    [{ email: 'a@b.co', consent: 'x' }, 'unknown_list'],
    [{ email: 'a@b.co', list: 'news' }, 'missing_consent'],
    [{ email: 'a@b.co', list: 'news', consent: { text: '  ' } }, 'missing_consent'],
  ])('subscribe %o -> %s', (raw, code) => {
    expect(refusal(parseSubscribeItem(raw, { requireConsentText: false }))).toBe(code);
  });

  it('on the public route consent.text is required: a bare string is missing_consent', () => {
    expect(refusal(parseSubscribeItem({ email: 'a@b.co', list: 'news', consent: 'Yes' }, { requireConsentText: true }))).toBe('missing_consent');
  });

  it('support needs a message and someone who wrote it', () => {
    expect(refusal(parseSupportItem({ from: 'a@b.co' }))).toBe('empty_message');
    expect(refusal(parseSupportItem({ message: 'hi' }))).toBe('no_identity');
    expect(refusal(parseSupportItem({ message: 'hi', from: 'not-email' }))).toBe('invalid_email');
    expect(parseSupportItem({ message: 'hi', anon_id: 'a1' })).toMatchObject({ keys: [{ kind: 'anon_id', value: 'a1' }] });
  });

  it('a batch item is read by its type', () => {
    expect(parseItem({ type: 'identify', account_id: 'u' })).toMatchObject({ kind: 'identify' });
    expect(parseItem({ type: 'support', from: 'a@b.co', message: 'm' })).toMatchObject({ kind: 'support' });
    expect(parseItem({ type: 'signup', account_id: 'u' })).toMatchObject({ kind: 'event' });
  });
});

describe('the body: one object or {events: [1..100]}', () => {
  it('reads single and batch bodies and refuses more than 100 items', () => {
    expect(parseBody({ type: 'signup' })).toEqual({ batch: false, item: { type: 'signup' } });
    expect(parseBody({ events: [{}, {}] })).toEqual({ batch: true, items: [{}, {}] });
    expect(refusal(parseBody({ events: Array.from({ length: 101 }, () => ({})) }))).toBe('too_many_items');
    expect(refusal(parseBody({ events: [] }))).toBe('invalid_json');
    expect(refusal(parseBody([1]))).toBe('invalid_json');
  });
});
