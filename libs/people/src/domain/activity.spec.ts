import { addToRevenue, nextLastSeen, revenueChange } from './activity';

describe("a person's revenue", () => {
  it('adds the value of a purchase, a credit purchase and a renewal', () => {
    expect(revenueChange('purchase', 49)).toBe(49);
    expect(revenueChange('credit_purchase', 5.5)).toBe(5.5);
    expect(revenueChange('subscription_renewed', 20)).toBe(20);
  });

  it('takes back the value of a refund', () => {
    expect(revenueChange('refund', 49)).toBe(-49);
  });

  it('is not moved by other kinds, or by a purchase without a value', () => {
    expect(revenueChange('pageview', 10)).toBe(0);
    expect(revenueChange('purchase', null)).toBe(0);
    expect(revenueChange('purchase', Number.NaN)).toBe(0);
  });

  it('adds cents without drifting', () => {
    expect(addToRevenue('0.1', 0.2)).toBe('0.3');
    expect(addToRevenue('49', -49)).toBe('0');
  });
});

describe("a person's last seen", () => {
  const at = new Date('2026-12-01T10:00:00Z');

  it('moves to a later time a minute or more after it', () => {
    expect(nextLastSeen(at, new Date('2026-12-01T10:01:00Z'))).toEqual(new Date('2026-12-01T10:01:00Z'));
  });

  it('stays within the minute, and for anything earlier', () => {
    expect(nextLastSeen(at, new Date('2026-12-01T10:00:59Z'))).toBeNull();
    expect(nextLastSeen(at, new Date('2026-11-30T10:00:00Z'))).toBeNull();
  });
});
