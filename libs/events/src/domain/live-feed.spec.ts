import { Refusal } from '@app/platform';
import { LIVE_OVERLAP_MS, liveCursor, liveSince } from './live-feed';

describe('live feed cursor', () => {
  it('a first poll (no cursor) reads the window', () => {
    expect(liveSince(undefined)).toBeNull();
    expect(liveSince(null)).toBeNull();
  });

  it('a poll with a cursor reads from its read less the overlap', () => {
    const read = '1767225600123456';
    expect(liveSince(liveCursor(read))).toBe(String(BigInt(read) - BigInt(LIVE_OVERLAP_MS * 1000)));
  });

  it('the cursor is opaque (base64url)', () => {
    expect(liveCursor('1767225600123456')).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it.each([
    '',
    'nonsense',
    Buffer.from('live:').toString('base64url'),
    Buffer.from('live:12a').toString('base64url'),
    Buffer.from('123:evt_1').toString('base64url'),
  ])('a cursor it did not give (%j) is refused with invalid_field', (after) => {
    const thrown = (() => {
      try {
        liveSince(after);
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(Refusal);
    expect((thrown as Refusal).code).toBe('invalid_field');
  });
});
