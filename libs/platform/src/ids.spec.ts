import { newId, ulid } from './ids';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const timeOf = (id: string) => [...id.slice(0, 10)].reduce((t, c) => t * 32 + CROCKFORD.indexOf(c), 0);

describe('ids (ULID spec)', () => {
  it('is 26 Crockford base32 characters whose first ten are the milliseconds', () => {
    const at = Date.UTC(2026, 10, 23, 12, 0, 0, 123);
    const id = ulid(at + 5000);
    expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(timeOf(id)).toBe(at + 5000);
  });

  it('counts up within one millisecond, so ids sort in the order they were made, and never repeat', () => {
    const at = Date.now() + 60_000;
    const ids = Array.from({ length: 10_000 }, () => ulid(at));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => timeOf(id) === at)).toBe(true);
  });

  it('stays in order when the clock steps back', () => {
    const at = Date.now() + 120_000;
    const first = ulid(at);
    const second = ulid(at - 1000);
    expect(second > first).toBe(true);
  });

  it('carries a readable prefix', () => {
    expect(newId('per')).toMatch(/^per_[0-9A-HJKMNP-TV-Z]{26}$/);
  });
});
