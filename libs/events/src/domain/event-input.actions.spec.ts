// The identify, subscribe and support fields, and the events endpoint's batches (docs/rest.md#events).
import { Refusal } from '@app/platform';
import { parseIdentifyItem, parseSubscribeItem, parseSupportItem } from './action-input';
import { parseBatch, parseBody, parseItem } from './event-input';

const codeOf = (value: unknown) => (value instanceof Refusal ? value.code : 'accepted');
const accepted = <T>(value: T | Refusal): T => {
  if (value instanceof Refusal) throw new Error(`refused: ${value.code} ${value.message}`);
  return value;
};
const server = { requireConsentText: false };
const browser = { requireConsentText: true };
const sub = { email: 'ada@example.com', list: 'news' };
/** The keys of an item with this email and anon_id a1, in the order identityKeys gives them. */
const emailAndA1 = (email: string) => [
  { kind: 'email', value: email },
  { kind: 'anon_id', value: 'a1' },
];

describe('identify', () => {
  it.each<[string, unknown, string]>([
    ['not an object is invalid_json', 'ada', 'invalid_json'],
    ['no email, anon_id or account_id is nothing_to_identify', { name: 'Ada' }, 'nothing_to_identify'],
    ['a bad email is invalid_email', { email: 'ada@', name: 'Ada' }, 'invalid_email'],
    [
      'expires_at is refused with invalid_field: identify never takes one',
      { email: 'a@b.co', expires_at: '2030-01-01T00:00:00Z' },
      'invalid_field',
    ],
    ['a name that is not a string is invalid_field', { email: 'a@b.co', name: ['Ada'] }, 'invalid_field'],
    ['fields that are not an object is invalid_field', { email: 'a@b.co', fields: 'pro' }, 'invalid_field'],
    ['a nested field value is invalid_field', { email: 'a@b.co', fields: { plan: { nested: true } } }, 'invalid_field'],
    ['a boolean field value is invalid_field', { email: 'a@b.co', fields: { beta: true } }, 'invalid_field'],
    ['a field key with spaces is invalid_field', { email: 'a@b.co', fields: { 'my plan': 'pro' } }, 'invalid_field'],
    [
      'over 100 fields is invalid_field',
      { email: 'a@b.co', fields: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, i])) },
      'invalid_field',
    ],
  ])('%s', (_rule, raw, code) => {
    expect(codeOf(parseIdentifyItem(raw))).toBe(code);
  });

  it('fields take strings, numbers or null; the name is trimmed; keys are normalized', () => {
    expect(
      accepted(
        parseIdentifyItem({
          email: 'Ada@X.io',
          anon_id: 'a1',
          name: ' Ada ',
          fields: { plan: 'pro', seats: 3, old: null },
        }),
      ),
    ).toEqual({
      kind: 'identify',
      keys: emailAndA1('ada@x.io'),
      name: 'Ada',
      fields: { plan: 'pro', seats: 3, old: null },
      source: undefined,
    });
  });

  it('source.anon_id names the visitor for an identify from the tag', () => {
    expect(accepted(parseIdentifyItem({ email: 'a@b.co', source: { anon_id: 'tab-1' } })).keys).toContainEqual({
      kind: 'anon_id',
      value: 'tab-1',
    });
  });
});

describe('subscribe', () => {
  it.each<[string, unknown, string]>([
    ['email missing is invalid_email', { list: 'news', consent: 'x' }, 'invalid_email'],
    ['a bad email is invalid_email', { email: 'ada.example.com', list: 'news', consent: 'x' }, 'invalid_email'],
    ['list not named is unknown_list', { email: 'a@b.co', consent: 'x' }, 'unknown_list'],
    ['a blank list is unknown_list', { email: 'a@b.co', list: ' ', consent: 'x' }, 'unknown_list'],
    ['a list that is not a string is unknown_list', { email: 'a@b.co', list: 7, consent: 'x' }, 'unknown_list'],
    ['consent missing is missing_consent', { ...sub }, 'missing_consent'],
    ['a blank consent string is missing_consent', { ...sub, consent: '  ' }, 'missing_consent'],
    ['consent.text blank is missing_consent', { ...sub, consent: { text: '  ' } }, 'missing_consent'],
    ['consent.text missing is missing_consent', { ...sub, consent: { ip: '203.0.113.1' } }, 'missing_consent'],
    ['consent as a number is missing_consent', { ...sub, consent: 1 }, 'missing_consent'],
    [
      'consent.ip that is not an address is invalid_field',
      { ...sub, consent: { text: 'Yes', ip: 'home' } },
      'invalid_field',
    ],
    [
      'consent.granted_at not a date is invalid_field',
      { ...sub, consent: { text: 'Yes', granted_at: 'today' } },
      'invalid_field',
    ],
    [
      'expires_at is refused with invalid_field: subscribe never takes one',
      { ...sub, consent: 'Yes', expires_at: '2030-01-01T00:00:00Z' },
      'invalid_field',
    ],
    ['an anon_id that is not a string is invalid_field', { ...sub, consent: 'Yes', anon_id: 5 }, 'invalid_field'],
  ])('%s', (_rule, raw, code) => {
    expect(codeOf(parseSubscribeItem(raw, server))).toBe(code);
  });

  it('consent as a string is kept verbatim as the text', () => {
    expect(accepted(parseSubscribeItem({ ...sub, consent: ' Yes, send me news. ' }, server)).consent).toEqual({
      raw: ' Yes, send me news. ',
      text: ' Yes, send me news. ',
    });
  });

  it('a consent object with ip and granted_at is kept verbatim and read', () => {
    const consent = { text: 'I agree', ip: '203.0.113.1', granted_at: '2026-01-01T00:00:00Z', form: 'footer' };
    expect(accepted(parseSubscribeItem({ ...sub, consent }, browser)).consent).toEqual({
      raw: consent,
      text: 'I agree',
      ip: '203.0.113.1',
      grantedAt: new Date('2026-01-01T00:00:00Z'),
    });
    expect(
      accepted(parseSubscribeItem({ ...sub, consent: { text: 'ok', ip: '2001:db8::1' } }, server)).consent.ip,
    ).toBe('2001:db8::1');
  });

  it('on the public route consent.text is required: a bare string is missing_consent', () => {
    expect(codeOf(parseSubscribeItem({ ...sub, consent: 'Yes' }, browser))).toBe('missing_consent');
  });

  it('the email is folded to lower case and links the anon_id; a name is ignored', () => {
    const command = accepted(
      parseSubscribeItem(
        {
          email: ' Ada@Example.COM',
          list: ' news ',
          consent: 'Yes',
          anon_id: 'a1',
          source_label: 'footer',
          name: 'Ada',
        },
        server,
      ),
    );
    expect(command).toEqual({
      kind: 'subscribe',
      keys: emailAndA1('ada@example.com'),
      email: 'ada@example.com',
      list: 'news',
      consent: { raw: 'Yes', text: 'Yes' },
      anonId: 'a1',
      sourceLabel: 'footer',
      source: undefined,
    });
  });

  it('source.anon_id links the visitor when anon_id is absent', () => {
    expect(accepted(parseSubscribeItem({ ...sub, consent: 'Yes', source: { anon_id: 'tab-1' } }, server)).anonId).toBe(
      'tab-1',
    );
  });
});

describe('support', () => {
  it.each<[string, unknown, string]>([
    ['no message is empty_message', { from: 'a@b.co' }, 'empty_message'],
    ['a blank message is empty_message', { from: 'a@b.co', message: ' \n ' }, 'empty_message'],
    ['a message that is not a string is empty_message', { from: 'a@b.co', message: 5 }, 'empty_message'],
    ['a bad from is invalid_email', { message: 'hi', from: 'not-email' }, 'invalid_email'],
    ['no from, anon_id or account_id is no_identity', { message: 'hi', who: 'Ada' }, 'no_identity'],
    [
      'expires_at is refused with invalid_field: support never takes one',
      { message: 'hi', from: 'a@b.co', expires_at: '2030-01-01T00:00:00Z' },
      'invalid_field',
    ],
    ['a topic that is not a string is invalid_field', { message: 'hi', from: 'a@b.co', topic: 1 }, 'invalid_field'],
    [
      'a message over 10,000 characters is invalid_field',
      { message: 'x'.repeat(10_001), from: 'a@b.co' },
      'invalid_field',
    ],
  ])('%s', (_rule, raw, code) => {
    expect(codeOf(parseSupportItem(raw))).toBe(code);
  });

  it('a full support post keeps the message verbatim and folds from', () => {
    expect(
      accepted(
        parseSupportItem({
          message: ' It crashed.\nTwice. ',
          from: 'Ada@X.io',
          who: 'Ada',
          topic: 'crash',
          version: '1.2.3',
          anon_id: 'a1',
        }),
      ),
    ).toEqual({
      kind: 'support',
      keys: emailAndA1('ada@x.io'),
      message: ' It crashed.\nTwice. ',
      from: 'ada@x.io',
      who: 'Ada',
      topic: 'crash',
      version: '1.2.3',
      anonId: 'a1',
      source: undefined,
    });
  });

  it('an anon_id alone, top-level or in source, is enough to land the post', () => {
    expect(accepted(parseSupportItem({ message: 'hi', anon_id: 'a1' })).keys).toEqual([
      { kind: 'anon_id', value: 'a1' },
    ]);
    expect(accepted(parseSupportItem({ message: 'hi', source: { anon_id: 'tab-1' } })).anonId).toBe('tab-1');
  });
});

describe('items and bodies', () => {
  it('an item is read by its type: identify, subscribe, support, else an event', () => {
    expect(parseItem({ type: 'identify', account_id: 'u' })).toMatchObject({ kind: 'identify' });
    expect(parseItem({ type: 'subscribe', ...sub, consent: 'Yes' })).toMatchObject({ kind: 'subscribe' });
    expect(parseItem({ type: 'support', from: 'a@b.co', message: 'm' })).toMatchObject({ kind: 'support' });
    expect(parseItem({ type: 'signup', account_id: 'u' })).toMatchObject({ kind: 'event' });
    expect(codeOf(parseItem(null))).toBe('invalid_json');
  });

  it("the public route's consent rule reaches subscribe items", () => {
    expect(codeOf(parseItem({ type: 'subscribe', ...sub, consent: 'Yes' }, browser))).toBe('missing_consent');
  });

  it('the time of arrival reaches event items as the default occurred_at', () => {
    const at = new Date('2026-02-03T04:05:06Z');
    expect(parseItem({ type: 'signup', account_id: 'u' }, { ...server, now: at })).toMatchObject({ occurredAt: at });
  });

  it('a batch holds 1 to 100 items', () => {
    expect(parseBatch({ events: [{}, {}] })).toEqual([{}, {}]);
    expect(parseBatch({ events: Array.from({ length: 100 }, () => ({})) })).toHaveLength(100);
  });

  it.each<[string, unknown, string]>([
    ['more than 100 items is too_many_items', { events: Array.from({ length: 101 }, () => ({})) }, 'too_many_items'],
    ['an empty batch is invalid_json', { events: [] }, 'invalid_json'],
    ['events that is not an array is invalid_json', { events: { type: 'signup' } }, 'invalid_json'],
    ['a body that is not an object is invalid_json', [1], 'invalid_json'],
  ])('%s', (_rule, raw, code) => {
    expect(codeOf(parseBatch(raw))).toBe(code);
    expect(codeOf(parseBody(raw))).toBe(code);
  });

  it('a body is one item, or a batch when it has events and no type', () => {
    expect(parseBody({ type: 'signup' })).toEqual({ batch: false, item: { type: 'signup' } });
    expect(parseBody({ events: [{}] })).toEqual({ batch: true, items: [{}] });
    expect(parseBody({ type: 'report_built', events: 3 })).toEqual({
      batch: false,
      item: { type: 'report_built', events: 3 },
    });
  });
});

describe('a public door takes its own kind only', () => {
  it.each(['identify', 'subscribe', 'support'])(
    '%s at the event door is unknown_event, whatever its fields',
    (type) => {
      const refused = parseItem({ type }, { ...browser, only: 'event' });
      expect(codeOf(refused)).toBe('unknown_event');
      expect((refused as Refusal).message).toContain(`post it to the ${type} address`);
    },
  );

  it('an event at the event door, and an action at its own door, pass', () => {
    expect(accepted(parseItem({ type: 'pageview', anon_id: 'v' }, { ...browser, only: 'event' })).kind).toBe('event');
    expect(accepted(parseItem({ type: 'identify', anon_id: 'v' }, { ...browser, only: 'identify' })).kind).toBe(
      'identify',
    );
  });
});
