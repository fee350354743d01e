// One test per row of the mapping of Segment's calls onto events-endpoint items
// (docs/rest.md#segments-http-tracking-api).
import { Refusal } from '@app/platform';
import { parseItem } from './event-input';
import { isoInstant, segmentArrival } from './segment-arrival';
import {
  osOfUserAgent,
  SEGMENT_PATHS,
  SEGMENT_SPEC_EVENTS,
  segmentAction,
  segmentEventName,
  segmentItem,
  snakeCase,
} from './segment-call';

const receivedAt = new Date('2026-05-01T12:00:10.000Z');
const arrival = { receivedAt };
const item = (raw: unknown, call?: Parameters<typeof segmentItem>[1]) =>
  segmentItem(raw, call, arrival) as Record<string, any>;
const refusal = (raw: unknown, call?: Parameters<typeof segmentItem>[1]) => segmentItem(raw, call, arrival) as Refusal;

describe('identity', () => {
  it('userId → account_id, anonymousId → anon_id (numbers as text)', () => {
    expect(item({ event: 'Signed Up', userId: 42, anonymousId: 'a-1' }, 'track')).toMatchObject({
      account_id: '42',
      anon_id: 'a-1',
    });
  });

  it('traits.email → email, else context.traits.email', () => {
    expect(item({ userId: 'u', traits: { email: 'ada@example.com' } }, 'identify').email).toBe('ada@example.com');
    expect(item({ event: 'Signed Up', context: { traits: { email: 'grace@example.com' } } }, 'track').email).toBe(
      'grace@example.com',
    );
  });

  it('a userId that is neither text nor a number is refused, naming it', () => {
    expect(refusal({ event: 'Signed Up', userId: { id: 1 } }, 'track')).toMatchObject({
      code: 'invalid_field',
      message: expect.stringContaining('userId'),
    });
  });

  it('no identity at all is left to the events endpoint, which refuses it no_identity', () => {
    expect(parseItem(item({ event: 'Signed Up' }, 'track'))).toMatchObject({ code: 'no_identity' });
  });
});

describe('idempotency and time', () => {
  it('messageId → idempotency_key', () => {
    expect(item({ event: 'Signed Up', userId: 'u', messageId: 'm-1' }, 'track').idempotency_key).toBe('m-1');
  });

  it('timestamp → occurred_at, corrected for the client clock: receivedAt − (sentAt − timestamp)', () => {
    // The client's clock is an hour fast: it stamped the call 5 s before it sent it.
    const raw = {
      event: 'Signed Up',
      userId: 'u',
      timestamp: '2026-05-01T13:00:00.000Z',
      sentAt: '2026-05-01T13:00:05.000Z',
    };
    expect(item(raw, 'track').occurred_at).toBe('2026-05-01T12:00:05.000Z');
  });

  it("a batch's sentAt corrects the messages that have none of their own", () => {
    const raw = { type: 'track', event: 'Signed Up', userId: 'u', timestamp: '2026-05-01T13:00:00.000Z' };
    expect(
      (
        segmentItem(raw, undefined, segmentArrival(receivedAt, { sentAt: '2026-05-01T13:00:02.000Z' })) as Record<
          string,
          unknown
        >
      ).occurred_at,
    ).toBe('2026-05-01T12:00:08.000Z');
  });

  it("beside originalTimestamp (the library's clock, as RudderStack's sends it), timestamp is the caller's, taken as sent", () => {
    const raw = {
      event: 'x_y',
      userId: 'u',
      originalTimestamp: '2026-05-01T11:00:00.000Z',
      timestamp: '2026-04-28T11:30:00.000Z',
      sentAt: '2026-05-01T11:00:01.000Z',
    };
    expect(item(raw, 'track').occurred_at).toBe('2026-04-28T11:30:00.000Z');
  });

  it('originalTimestamp alone is corrected for the client clock as timestamp is', () => {
    const raw = {
      event: 'x_y',
      userId: 'u',
      originalTimestamp: '2026-05-01T11:00:00.000Z',
      sentAt: '2026-05-01T11:00:01.000Z',
    };
    expect(item(raw, 'track').occurred_at).toBe('2026-05-01T12:00:09.000Z');
  });

  it('without sentAt the timestamp is taken as it is; without either, the time of arrival (occurred_at left out)', () => {
    expect(item({ event: 'x_y', userId: 'u', timestamp: '2026-04-01T00:00:00Z' }, 'track').occurred_at).toBe(
      '2026-04-01T00:00:00.000Z',
    );
    expect(item({ event: 'x_y', userId: 'u' }, 'track').occurred_at).toBeUndefined();
  });

  it('a timestamp that is no date is refused, naming it', () => {
    expect(refusal({ event: 'x_y', userId: 'u', timestamp: 'yesterday' }, 'track')).toMatchObject({
      code: 'invalid_field',
      message: expect.stringContaining('timestamp'),
    });
    expect(refusal({ event: 'x_y', userId: 'u', timestamp: '2026-02-30T00:00:00.000Z' }, 'track')).toMatchObject({
      code: 'invalid_field',
    });
  });

  it('occurred_at is written as toISOString writes it, whatever the instant', () => {
    for (const ms of [
      0, 5, 1_764_000_000_007, 1_764_000_000_070, 1_764_000_000_700, 1_764_000_001_000, 253_402_300_799_999,
      253_402_300_800_000, -1,
    ]) {
      expect(isoInstant(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it("a batch's context lies under each call's own", () => {
    const arrived = segmentArrival(receivedAt, {
      context: { userAgent: 'Mozilla/5.0 (Windows NT 10.0)', page: { path: '/a' } },
    });
    const mapped = segmentItem(
      { type: 'track', event: 'x_y', userId: 'u', context: { page: { path: '/b' } } },
      undefined,
      arrived,
    ) as Record<string, any>;
    expect(mapped.source).toEqual({ path: '/b', os: 'win' });
  });
});

describe('source, properties and value', () => {
  it('context.page (path, referrer), context.campaign (utm keys) and context.userAgent (os) → source', () => {
    const context = {
      page: { path: '/pricing', referrer: 'https://news.example.com/post' },
      campaign: { name: 'spring', source: 'newsletter', medium: 'email', term: 'crm', content: 'hero' },
      userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120',
    };
    expect(item({ event: 'Signed Up', userId: 'u', context }, 'track').source).toEqual({
      path: '/pricing',
      referrer: 'https://news.example.com/post',
      os: 'win',
      utm: { source: 'newsletter', medium: 'email', campaign: 'spring', term: 'crm', content: 'hero' },
    });
  });

  it('os as the website tag reads it', () => {
    expect(osOfUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0)')).toBe('mac');
    expect(osOfUserAgent('Mozilla/5.0 (X11; Linux x86_64)')).toBe('linux');
    expect(osOfUserAgent('Mozilla/5.0 (Linux; Android 14)')).toBe('other');
    expect(osOfUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)')).toBe('other');
  });

  it('properties → properties', () => {
    expect(item({ event: 'x_y', userId: 'u', properties: { plan: 'pro', seats: 3 } }, 'track').properties).toEqual({
      plan: 'pro',
      seats: 3,
    });
  });

  it('properties.revenue → value, else total, else value; only numbers', () => {
    const value = (properties: Record<string, unknown>) =>
      item({ event: 'Order Completed', userId: 'u', properties }, 'track').value;
    expect(value({ revenue: 49, total: 60, value: 70 })).toBe(49);
    expect(value({ total: 60, value: 70 })).toBe(60);
    expect(value({ value: 70 })).toBe(70);
    expect(value({ revenue: '49' })).toBeUndefined();
  });
});

describe('event names', () => {
  it.each(Object.entries(SEGMENT_SPEC_EVENTS))('the spec event %s → %s', (name, event) => {
    expect(segmentEventName(name)).toBe(event);
  });

  it('a catalogue name as itself', () => {
    expect(segmentEventName('purchase')).toBe('purchase');
    expect(segmentEventName('cta_click')).toBe('cta_click');
  });

  it('any other name snake_cased into a custom name', () => {
    expect(segmentEventName('Report Built')).toBe('report_built');
    expect(segmentEventName('videoPlayed')).toBe('video_played');
    expect(segmentEventName('Café — Visited!')).toBe('cafe_visited');
    expect(snakeCase('  Order   Completed ')).toBe('order_completed');
  });

  it('a name that makes no 2 to 40 character custom name is refused unknown_event', () => {
    expect(segmentEventName('!')).toMatchObject({ code: 'unknown_event' });
    expect(segmentEventName('x')).toMatchObject({ code: 'unknown_event' });
    expect(segmentEventName('a'.repeat(41))).toMatchObject({ code: 'unknown_event' });
    expect(segmentEventName(undefined)).toMatchObject({ code: 'unknown_event' });
  });

  it('a track becomes an event of that name', () => {
    expect(item({ event: 'Order Completed', userId: 'u', properties: { revenue: 5 } }, 'track')).toMatchObject({
      type: 'purchase',
      account_id: 'u',
      value: 5,
    });
  });
});

describe('identify', () => {
  it('traits.name → name; other scalar traits → fields (booleans as text, nested left out)', () => {
    const traits = {
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      plan: 'pro',
      seats: 3,
      admin: true,
      gone: null,
      address: { city: 'London' },
      'job title': 'CTO',
    };
    expect(item({ userId: 'u', traits }, 'identify')).toMatchObject({
      type: 'identify',
      account_id: 'u',
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      fields: { plan: 'pro', seats: 3, admin: 'true', gone: null, job_title: 'CTO' },
    });
  });

  it('first and last name → name when there is no name', () => {
    const mapped = item({ userId: 'u', traits: { firstName: 'Grace', lastName: 'Hopper', plan: 'team' } }, 'identify');
    expect(mapped.name).toBe('Grace Hopper');
    expect(mapped.fields).toEqual({ plan: 'team' });
  });

  it('is a valid identify item of the events endpoint', () => {
    expect(
      parseItem(item({ userId: 'u', traits: { email: 'ada@example.com', name: 'Ada' } }, 'identify')),
    ).toMatchObject({ kind: 'identify', name: 'Ada' });
  });
});

describe('page and screen', () => {
  it('page → pageview with the path (properties.path, else context.page.path) and its name beside it', () => {
    expect(
      item(
        { anonymousId: 'a', name: 'Pricing', properties: { path: '/pricing', referrer: 'https://x.example' } },
        'page',
      ),
    ).toMatchObject({
      type: 'pageview',
      anon_id: 'a',
      detail: 'Pricing',
      source: { path: '/pricing', referrer: 'https://x.example' },
    });
    expect(item({ anonymousId: 'a', context: { page: { path: '/docs' } } }, 'page').source).toEqual({ path: '/docs' });
  });

  it('screen → pageview with the screen name', () => {
    expect(item({ userId: 'u', name: 'Settings' }, 'screen')).toMatchObject({
      type: 'pageview',
      detail: 'Settings',
      source: { path: 'Settings' },
    });
  });
});

describe('alias and group', () => {
  it('alias → one person for previousId (the browser id) and userId', () => {
    expect(item({ previousId: 'anon-1', userId: 'u-1' }, 'alias')).toMatchObject({
      type: 'identify',
      anon_id: 'anon-1',
      account_id: 'u-1',
    });
    expect(refusal({ userId: 'u-1' }, 'alias')).toMatchObject({
      code: 'invalid_field',
      message: expect.stringContaining('previousId'),
    });
  });

  it("group → the group's id and traits as fields on the person", () => {
    expect(
      item({ userId: 'u', groupId: 'acme', traits: { name: 'Acme', employees: 50, id: 'acme' } }, 'group'),
    ).toMatchObject({
      type: 'identify',
      account_id: 'u',
      fields: { group_id: 'acme', group_name: 'Acme', group_employees: 50 },
    });
    expect(refusal({ userId: 'u' }, 'group')).toMatchObject({
      code: 'invalid_field',
      message: expect.stringContaining('groupId'),
    });
  });
});

describe('calls and paths', () => {
  it('a batch names each call in its type; another type is refused unknown_event', () => {
    expect(item({ type: 'page', anonymousId: 'a' }).type).toBe('pageview');
    expect(refusal({ type: 'trak', anonymousId: 'a' })).toMatchObject({ code: 'unknown_event' });
    expect(refusal('not an object')).toMatchObject({ code: 'invalid_json' });
  });

  it("every path of Segment's libraries: the names, the browser library's letters, batch, b and import", () => {
    expect(Object.keys(SEGMENT_PATHS).sort()).toEqual(
      [
        'a',
        'alias',
        'b',
        'batch',
        'g',
        'group',
        'i',
        'identify',
        'import',
        'p',
        'page',
        's',
        'screen',
        't',
        'track',
      ].sort(),
    );
    for (const call of ['track', 'identify', 'page', 'screen', 'group', 'alias'] as const)
      expect(SEGMENT_PATHS[call[0]]).toBe(call);
  });

  it('the heartbeat counts track, page and screen as events, identify, group and alias as identify', () => {
    expect(['track', 'page', 'screen'].map((type) => segmentAction({ type }, undefined))).toEqual([
      'event',
      'event',
      'event',
    ]);
    expect(['identify', 'group', 'alias'].map((type) => segmentAction({}, type as 'identify'))).toEqual([
      'identify',
      'identify',
      'identify',
    ]);
  });
});
