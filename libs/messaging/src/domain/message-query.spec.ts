import { Refusal } from '@app/platform';
import {
  compareNewestFirst,
  decodeCursor,
  encodeCursor,
  isAfterCursor,
  MessageQuery,
  parseIsoDate,
  parseMessageQuery,
  toPage,
} from './message-query';

const ok = (query: Record<string, unknown>): MessageQuery => {
  const result = parseMessageQuery(query);
  if (result instanceof Refusal) throw new Error(`expected a query, got ${result.code}: ${result.message}`);
  return result;
};
const refusal = (query: Record<string, unknown>): Refusal => {
  const result = parseMessageQuery(query);
  if (!(result instanceof Refusal)) throw new Error(`expected a refusal, got ${JSON.stringify(result)}`);
  return result;
};

describe('parseMessageQuery: limit is 1 to 100, default 50', () => {
  it('defaults limit to 50 when absent', () => {
    expect(ok({})).toEqual({ limit: 50 });
  });
  it.each(['1', '100', '37'])('accepts limit=%s', (limit) => {
    expect(ok({ limit }).limit).toBe(Number(limit));
  });
  it.each(['0', '101', '-1', '2.5', 'ten', '1e2'])('refuses limit=%s with invalid_field naming limit', (limit) => {
    const r = refusal({ limit });
    expect(r.code).toBe('invalid_field');
    expect(r.message).toMatch(/limit/);
  });
});

describe('parseMessageQuery: since and until are ISO 8601 and inclusive', () => {
  it('reads a date-time with a zone', () => {
    expect(ok({ since: '2025-01-31T09:30:00+02:00' }).since?.toISOString()).toBe('2025-01-31T07:30:00.000Z');
  });
  it('reads a date-time without a zone as UTC', () => {
    expect(ok({ since: '2025-01-31T09:30' }).since?.toISOString()).toBe('2025-01-31T09:30:00.000Z');
  });
  it('takes a bare since date from the start of that day and a bare until date to its end, so the day is included', () => {
    const q = ok({ since: '2025-01-31', until: '2025-01-31' });
    expect(q.since?.toISOString()).toBe('2025-01-31T00:00:00.000Z');
    expect(q.until?.toISOString()).toBe('2025-01-31T23:59:59.999Z');
  });
  it.each(['yesterday', '2025-02-30', '2025-13-01', '2025-01-31T25:00Z', '31/01/2025'])(
    'refuses since=%s with invalid_field naming since',
    (since) => {
      const r = refusal({ since });
      expect(r.code).toBe('invalid_field');
      expect(r.message).toMatch(/since/);
    },
  );
  it('refuses an until before since, naming until', () => {
    expect(refusal({ since: '2025-02-01', until: '2025-01-01' }).message).toMatch(/until/);
  });
  it('keeps milliseconds', () => {
    expect(parseIsoDate('2025-01-31T09:30:00.123Z')?.toISOString()).toBe('2025-01-31T09:30:00.123Z');
  });
});

describe('parseMessageQuery: person and direction', () => {
  it('lower-cases a person given as email and keeps a record id as is', () => {
    expect(ok({ person: ' Ada@Example.com ' }).person).toBe('ada@example.com');
    expect(ok({ person: 'per_01J0000000000000000000000A' }).person).toBe('per_01J0000000000000000000000A');
  });
  it.each(['in', 'out'])('accepts direction=%s', (direction) => {
    expect(ok({ direction }).direction).toBe(direction);
  });
  it('refuses any other direction with invalid_field naming direction', () => {
    expect(refusal({ direction: 'sideways' }).message).toMatch(/direction/);
  });
  it('refuses a repeated parameter, naming it', () => {
    const r = refusal({ direction: ['in', 'out'] });
    expect(r.code).toBe('invalid_field');
    expect(r.message).toMatch(/direction/);
  });
});

describe('cursor: opaque base64url of {at, id}', () => {
  const at = new Date('2025-03-01T10:00:00.250Z');
  it('round-trips through encodeCursor and decodeCursor', () => {
    const cursor = encodeCursor(at, 'msg_01J0000000000000000000000A');
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual({ at, id: 'msg_01J0000000000000000000000A' });
    expect(ok({ cursor }).cursor).toEqual({ at, id: 'msg_01J0000000000000000000000A' });
  });
  it.each([
    ['not base64url', 'abc$%'],
    ['not JSON', Buffer.from('nope').toString('base64url')],
    ['JSON without id', Buffer.from(JSON.stringify({ at: at.toISOString() })).toString('base64url')],
    ['a bad time', Buffer.from(JSON.stringify({ at: 'soon', id: 'msg_1' })).toString('base64url')],
    ['an id with quotes', Buffer.from(JSON.stringify({ at: at.toISOString(), id: "x' OR 1=1" })).toString('base64url')],
  ])('refuses a tampered cursor (%s) with invalid_field naming cursor', (_label, cursor) => {
    const r = refusal({ cursor });
    expect(r.code).toBe('invalid_field');
    expect(r.message).toMatch(/cursor/);
  });
});

describe('keyset order: newest first by (at desc, id desc)', () => {
  const row = (iso: string, id: string) => ({ at: new Date(iso), id });
  it('sorts by time descending, then id descending', () => {
    const rows = [
      row('2025-01-01T00:00:00Z', 'msg_a'),
      row('2025-01-02T00:00:00Z', 'msg_a'),
      row('2025-01-01T00:00:00Z', 'msg_b'),
    ];
    expect(rows.sort(compareNewestFirst).map((r) => `${r.at.toISOString().slice(0, 10)}/${r.id}`)).toEqual([
      '2025-01-02/msg_a',
      '2025-01-01/msg_b',
      '2025-01-01/msg_a',
    ]);
  });
  it('places a row after the cursor when it is older, or as old with a smaller id', () => {
    const cursor = row('2025-01-02T00:00:00Z', 'msg_m');
    expect(isAfterCursor(row('2025-01-01T00:00:00Z', 'msg_z'), cursor)).toBe(true);
    expect(isAfterCursor(row('2025-01-02T00:00:00Z', 'msg_a'), cursor)).toBe(true);
    expect(isAfterCursor(row('2025-01-02T00:00:00Z', 'msg_m'), cursor)).toBe(false);
    expect(isAfterCursor(row('2025-01-02T00:00:00Z', 'msg_z'), cursor)).toBe(false);
    expect(isAfterCursor(row('2025-01-03T00:00:00Z', 'msg_a'), cursor)).toBe(false);
  });
  it('gives nextCursor only when more rows remain, pointing at the last row shown', () => {
    const rows = [
      row('2025-01-03T00:00:00Z', 'msg_c'),
      row('2025-01-02T00:00:00Z', 'msg_b'),
      row('2025-01-01T00:00:00Z', 'msg_a'),
    ];
    expect(toPage(rows, 3)).toEqual({ items: rows });
    const page = toPage(rows, 2);
    expect(page.items).toEqual(rows.slice(0, 2));
    expect(decodeCursor(page.nextCursor!)).toEqual({ at: rows[1].at, id: 'msg_b' });
  });
  it('walks every row exactly once across pages', () => {
    const all = Array.from({ length: 7 }, (_, i) => row(`2025-01-0${1 + (i % 3)}T00:00:00Z`, `msg_${i}`)).sort(
      compareNewestFirst,
    );
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const from = cursor ? (decodeCursor(cursor) as { at: Date; id: string }) : undefined;
      const fetched = all.filter((r) => !from || isAfterCursor(r, from)).slice(0, 3 + 1);
      const page = toPage(fetched, 3);
      seen.push(...page.items.map((r) => r.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.map((r) => r.id));
  });
});
