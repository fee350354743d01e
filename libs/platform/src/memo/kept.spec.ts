import { keptIn } from './kept';

describe('keptIn', () => {
  it('makes a value once per key and keeps it', () => {
    const kept = new Map<string, number>();
    let made = 0;
    const make = (key: string) => (made++, key.length);
    expect(keptIn(kept, 'abc', make)).toBe(3);
    expect(keptIn(kept, 'abc', make)).toBe(3);
    expect(made).toBe(1);
  });

  it('empties the map when it reaches the most it keeps, then keeps the new value', () => {
    const kept = new Map<number, number>();
    for (let n = 0; n < 3; n++) keptIn(kept, n, (k) => k * 2, 3);
    expect(kept.size).toBe(3);
    expect(keptIn(kept, 9, (k) => k * 2, 3)).toBe(18);
    expect([...kept.entries()]).toEqual([[9, 18]]);
  });
});
