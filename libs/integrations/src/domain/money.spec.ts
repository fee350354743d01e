import { wholeUnits } from './money';

describe('wholeUnits: minor units to whole units, as Stripe counts them per currency', () => {
  it.each([
    [1999, 'usd', 19.99],
    [1999, 'EUR', 19.99],
    [500, 'jpy', 500],
    [1500, 'kwd', 1.5],
    [0, 'usd', 0],
  ])('%d %s -> %d', (minor, currency, whole) => {
    expect(wholeUnits(minor, currency)).toBe(whole);
  });
  it('no amount, no value', () => {
    expect(wholeUnits(undefined, 'usd')).toBeUndefined();
    expect(wholeUnits('12', 'usd')).toBeUndefined();
  });
});
