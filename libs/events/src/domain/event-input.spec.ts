// Event items of the events endpoint (docs/rest.md#events): each refusal code, and what is accepted.
import { Refusal } from '@app/platform';
import { parseEventItem } from './event-input';
import { LIMITS } from './input-limits';

const codeOf = (value: unknown) => (value instanceof Refusal ? value.code : 'accepted');
const accepted = <T>(value: T | Refusal): T => {
  if (value instanceof Refusal) throw new Error(`refused: ${value.code} ${value.message}`);
  return value;
};
const now = new Date('2026-05-01T12:00:00Z');
const ada = { email: 'ada@example.com' };

describe('event items: each refusal code', () => {
  it.each<[string, unknown, string]>([
    ['a body that is not an object is invalid_json', 'x', 'invalid_json'],
    ['an array is invalid_json', [{ type: 'signup' }], 'invalid_json'],
    ['no type is unknown_event', { ...ada }, 'unknown_event'],
    ['a type that is not a string is unknown_event', { type: 5, ...ada }, 'unknown_event'],
    ['a malformed custom name is unknown_event', { type: 'Report-Built', ...ada }, 'unknown_event'],
    ['a timeline kind as type is reserved_event_name', { type: 'email_received', ...ada }, 'reserved_event_name'],
    [
      'an action name given to the event parser is reserved_event_name',
      { type: 'identify', ...ada },
      'reserved_event_name',
    ],
    ['no email, anon_id or account_id is no_identity', { type: 'signup' }, 'no_identity'],
    [
      'blank identity values are no_identity',
      { type: 'signup', email: ' ', anon_id: '', account_id: null },
      'no_identity',
    ],
    ['a bad email is invalid_email', { type: 'signup', email: 'nope' }, 'invalid_email'],
    [
      'a bad email beside a good anon_id is still invalid_email',
      { type: 'signup', email: 'nope', anon_id: 'a1' },
      'invalid_email',
    ],
    ['an email that is not a string is invalid_email', { type: 'signup', email: 42 }, 'invalid_email'],
    ['an anon_id that is not a string is invalid_field', { type: 'signup', anon_id: 42 }, 'invalid_field'],
    [
      'an account_id over 200 characters is invalid_field',
      { type: 'signup', account_id: 'u'.repeat(201) },
      'invalid_field',
    ],
    ['expires_at not a date is invalid_expiry', { type: 'signup', ...ada, expires_at: 'soon' }, 'invalid_expiry'],
    [
      'expires_at on an impossible day is invalid_expiry',
      { type: 'signup', ...ada, expires_at: '2030-02-30T00:00:00Z' },
      'invalid_expiry',
    ],
    ['expires_at as a number is invalid_expiry', { type: 'signup', ...ada, expires_at: 1893456000 }, 'invalid_expiry'],
    [
      'expires_at equal to occurred_at is invalid_expiry',
      { type: 'signup', ...ada, occurred_at: '2030-01-01T00:00:00Z', expires_at: '2030-01-01T00:00:00Z' },
      'invalid_expiry',
    ],
    [
      'expires_at before occurred_at is invalid_expiry',
      { type: 'signup', ...ada, occurred_at: '2030-01-02T00:00:00Z', expires_at: '2030-01-01T00:00:00Z' },
      'invalid_expiry',
    ],
    ['occurred_at not a date is invalid_field', { type: 'signup', ...ada, occurred_at: 'yesterday' }, 'invalid_field'],
    ['value as a string is invalid_field', { type: 'purchase', ...ada, value: '9' }, 'invalid_field'],
    ['an infinite value is invalid_field', { type: 'purchase', ...ada, value: Infinity }, 'invalid_field'],
    ['properties as an array is invalid_field', { type: 'purchase', ...ada, properties: [1] }, 'invalid_field'],
    ['properties as a string is invalid_field', { type: 'purchase', ...ada, properties: 'pro' }, 'invalid_field'],
    [
      'detail over 500 characters is invalid_field',
      { type: 'purchase', ...ada, detail: 'x'.repeat(501) },
      'invalid_field',
    ],
    ['detail that is not a string is invalid_field', { type: 'purchase', ...ada, detail: 3 }, 'invalid_field'],
    [
      'an idempotency_key that is not a string is invalid_field',
      { type: 'purchase', ...ada, idempotency_key: 1042 },
      'invalid_field',
    ],
    [
      'source.path that is not a string is invalid_field',
      { type: 'pageview', anon_id: 'a', source: { path: 1 } },
      'invalid_field',
    ],
  ])('%s', (_rule, raw, code) => {
    expect(codeOf(parseEventItem(raw, now))).toBe(code);
  });

  it('an invalid_field refusal names the field', () => {
    expect((parseEventItem({ type: 'signup', ...ada, occurred_at: 'yesterday' }, now) as Refusal).message).toMatch(
      /^occurred_at /,
    );
    expect((parseEventItem({ type: 'purchase', ...ada, value: '9' }, now) as Refusal).message).toMatch(/^value /);
    expect((parseEventItem({ type: 'purchase', ...ada, detail: 'x'.repeat(501) }, now) as Refusal).message).toMatch(
      /^detail /,
    );
  });

  it('checks run in order: type before identity, identity before expiry, expiry before other fields', () => {
    expect(codeOf(parseEventItem({ type: 'Bad Name' }, now))).toBe('unknown_event');
    expect(codeOf(parseEventItem({ type: 'signup', expires_at: 'soon' }, now))).toBe('no_identity');
    expect(codeOf(parseEventItem({ type: 'signup', email: 'nope', expires_at: 'soon' }, now))).toBe('invalid_email');
    expect(
      codeOf(parseEventItem({ type: 'signup', ...ada, expires_at: 'soon', occurred_at: 'x', value: 'y' }, now)),
    ).toBe('invalid_expiry');
  });
});

describe('event items: what is accepted', () => {
  it('a full event becomes a command with every field', () => {
    const command = accepted(
      parseEventItem(
        {
          type: 'purchase',
          email: ' Ada@Example.COM ',
          account_id: 'u-1',
          value: 49.5,
          properties: { plan: 'pro' },
          occurred_at: '2026-04-30T10:00:00+02:00',
          expires_at: '2027-01-01',
          idempotency_key: 'order_1042',
          detail: 'Pro plan',
          source: { path: '/buy' },
          unknown_field: 'dropped',
        },
        now,
      ),
    );
    expect(command).toEqual({
      kind: 'event',
      type: 'purchase',
      custom: false,
      keys: [
        { kind: 'email', value: 'ada@example.com' },
        { kind: 'account_id', value: 'u-1' },
      ],
      value: 49.5,
      properties: { plan: 'pro' },
      occurredAt: new Date('2026-04-30T08:00:00Z'),
      expiresAt: new Date('2027-01-01T00:00:00Z'),
      idempotencyKey: 'order_1042',
      detail: 'Pro plan',
      source: { path: '/buy' },
    });
  });

  it('the value charts sum: value, else properties.value when a number; given both ways, the top-level one', () => {
    const valueOf = (item: Record<string, unknown>) =>
      accepted(parseEventItem({ type: 'purchase', ...ada, ...item }, now)).value;
    expect(valueOf({ properties: { value: 5 } })).toBe(5);
    expect(valueOf({ value: 7, properties: { value: 5 } })).toBe(7);
    expect(valueOf({ value: 0, properties: { value: 5 } })).toBe(0);
    expect(valueOf({ properties: { value: '5' } })).toBeUndefined();
    expect(valueOf({ properties: { value: null } })).toBeUndefined();
    expect(valueOf({})).toBeUndefined();
    // properties stay as posted
    expect(accepted(parseEventItem({ type: 'purchase', ...ada, properties: { value: 5 } }, now)).properties).toEqual({
      value: 5,
    });
  });

  it('occurred_at defaults to the time of arrival', () => {
    expect(accepted(parseEventItem({ type: 'signup', ...ada }, now)).occurredAt).toEqual(now);
    expect(accepted(parseEventItem({ type: 'signup', ...ada, occurred_at: null }, now)).occurredAt).toEqual(now);
  });

  it('expires_at is checked against the default occurred_at when none is sent', () => {
    expect(codeOf(parseEventItem({ type: 'signup', ...ada, expires_at: '2026-05-01T12:00:00Z' }, now))).toBe(
      'invalid_expiry',
    );
    expect(codeOf(parseEventItem({ type: 'signup', ...ada, expires_at: '2026-05-01T12:00:01Z' }, now))).toBe(
      'accepted',
    );
  });

  it('an already-expired event is not a refusal: the caller answers status expired', () => {
    const command = accepted(
      parseEventItem(
        { type: 'signup', ...ada, occurred_at: '2020-01-01T00:00:00Z', expires_at: '2020-01-02T00:00:00Z' },
        now,
      ),
    );
    expect(command.expiresAt).toEqual(new Date('2020-01-02T00:00:00Z'));
    expect(command.expiresAt!.getTime()).toBeLessThanOrEqual(now.getTime());
  });

  it('emails are folded to lower case; source.anon_id names the visitor when anon_id is absent', () => {
    expect(
      accepted(parseEventItem({ type: 'pageview', email: ' Ada@Example.COM ', source: { anon_id: 'tab-1' } }, now))
        .keys,
    ).toEqual([
      { kind: 'email', value: 'ada@example.com' },
      { kind: 'anon_id', value: 'tab-1' },
    ]);
  });

  it('source.anon_id alone is an identity, and a top-level anon_id wins over it', () => {
    expect(accepted(parseEventItem({ type: 'pageview', source: { anon_id: 'tab-1', path: '/' } }, now)).keys).toEqual([
      { kind: 'anon_id', value: 'tab-1' },
    ]);
    expect(
      accepted(parseEventItem({ type: 'pageview', anon_id: 'top', source: { anon_id: 'tab-1' } }, now)).keys,
    ).toEqual([{ kind: 'anon_id', value: 'top' }]);
  });

  it('a custom name is marked custom; a built-in one is not', () => {
    expect(accepted(parseEventItem({ type: 'report_built', account_id: 'u1' }, now)).custom).toBe(true);
    expect(accepted(parseEventItem({ type: 'signup', account_id: 'u1' }, now)).custom).toBe(false);
  });

  it('null optional fields count as absent', () => {
    const command = accepted(
      parseEventItem(
        {
          type: 'signup',
          ...ada,
          value: null,
          properties: null,
          detail: null,
          idempotency_key: null,
          source: null,
          expires_at: null,
        },
        now,
      ),
    );
    expect(command).toMatchObject({
      value: undefined,
      properties: undefined,
      detail: undefined,
      idempotencyKey: undefined,
      source: undefined,
      expiresAt: undefined,
    });
  });

  it('value may be negative or a fraction: a refund, or money in whole currency units with cents', () => {
    expect(accepted(parseEventItem({ type: 'refund', ...ada, value: -19.99 }, now)).value).toBe(-19.99);
  });

  it('limits are exactly 500 for detail and 200 for idempotency_key and ids', () => {
    expect(codeOf(parseEventItem({ type: 'signup', ...ada, detail: 'x'.repeat(LIMITS.detail) }, now))).toBe('accepted');
    expect(codeOf(parseEventItem({ type: 'signup', ...ada, idempotency_key: 'k'.repeat(200) }, now))).toBe('accepted');
    expect(codeOf(parseEventItem({ type: 'signup', ...ada, idempotency_key: 'k'.repeat(201) }, now))).toBe(
      'invalid_field',
    );
    expect(codeOf(parseEventItem({ type: 'signup', anon_id: 'a'.repeat(200) }, now))).toBe('accepted');
  });
});
