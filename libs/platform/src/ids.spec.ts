import { newId, openToken, signToken, ulid } from './ids';

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

describe('signed tokens', () => {
  const token = signToken('preferences', 'ws_1.per_1', 'app-secret');

  it('open to their body under the same purpose and secret', () => {
    expect(openToken('preferences', token, 'app-secret')).toBe('ws_1.per_1');
  });

  it('are refused under another purpose, another secret, changed, cut, extended or too long', () => {
    const [body, mac] = token.split('.');
    expect(openToken('confirm-subscription', token, 'app-secret')).toBeNull();
    expect(openToken('preferences', token, 'another-secret')).toBeNull();
    const other = Buffer.from('ws_1.per_2').toString('base64url');
    expect(openToken('preferences', `${other}.${mac}`, 'app-secret')).toBeNull();
    expect(openToken('preferences', body, 'app-secret')).toBeNull();
    expect(openToken('preferences', `${token}.x`, 'app-secret')).toBeNull();
    expect(openToken('preferences', token, 'app-secret', token.length - 1)).toBeNull();
  });
});
