import fc from 'fast-check';
import { PERSON_SKETCH_ERROR, PERSON_SKETCH_EXACT, PersonSketch } from './person-sketch';

const hashes = (n: number, seed: number) => {
  // A 64-bit mixer (splitmix64) over distinct inputs: n distinct, uniformly spread hashes.
  const out: bigint[] = [];
  const mask = (1n << 64n) - 1n;
  for (let i = 0; i < n; i++) {
    let z = (BigInt(seed) * 0x9e3779b97f4a7c15n + BigInt(i + 1) * 0xbf58476d1ce4e5b9n) & mask;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & mask;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & mask;
    out.push(z ^ (z >> 31n));
  }
  return out;
};
const sketchOf = (values: bigint[]) => {
  const sketch = new PersonSketch();
  for (const value of values) sketch.add(value);
  return sketch;
};
/** The same as sketchOf, from int8send's bytes (the fold's and the reads' way in). */
const sketchOfBytes = (values: bigint[]) => {
  const bytes = Buffer.alloc(8 * values.length);
  values.forEach((value, i) => bytes.writeBigUInt64BE(value, 8 * i));
  return new PersonSketch().addHashes(bytes);
};

describe('person sketch', () => {
  it('counts exactly up to the bound, repeats and unions included, and keeps its bytes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), { maxLength: PERSON_SKETCH_EXACT }),
        fc.nat({ max: 64 }),
        (values, split) => {
          const a = sketchOf(values.slice(0, split));
          const b = sketchOfBytes([...values.slice(split), ...values.slice(0, split / 2)]);
          const union = PersonSketch.fromBytes(a.toBytes()).mergeBytes(b.toBytes());
          expect(union.isExact()).toBe(true);
          expect(union.count()).toBe(new Set(values).size);
        },
      ),
      { numRuns: 50 },
    );
  });

  it(`estimates past the bound within 4 standard errors (${(4 * PERSON_SKETCH_ERROR * 100).toFixed(2)}%), merged or not`, () => {
    fc.assert(
      fc.property(
        fc.integer({ min: PERSON_SKETCH_EXACT + 1, max: 300_000 }),
        fc.integer({ min: 1, max: 1 << 30 }),
        fc.integer({ min: 1, max: 5 }),
        (n, seed, parts) => {
          const values = hashes(n, seed);
          // Split in overlapping parts (each repeats its neighbour's last tenth), merged through bytes.
          const size = Math.ceil(n / parts);
          const sketch = new PersonSketch();
          for (let p = 0; p < parts; p++) {
            const part = (p % 2 ? sketchOfBytes : sketchOf)(
              values.slice(Math.max(0, p * size - size / 10), (p + 1) * size),
            );
            if (p % 2) sketch.mergeBytes(part.toBytes());
            else sketch.merge(PersonSketch.fromBytes(part.toBytes()));
          }
          expect(sketch.isExact()).toBe(false);
          expect(Math.abs(sketch.count() - n) / n).toBeLessThanOrEqual(4 * PERSON_SKETCH_ERROR);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('an empty sketch counts 0, and the registers of a small set count it closely (the linear-counting range)', () => {
    expect(new PersonSketch().count()).toBe(0);
    const big = sketchOf(hashes(PERSON_SKETCH_EXACT + 1, 7));
    const small = new PersonSketch().merge(big);
    expect(Math.abs(small.count() - (PERSON_SKETCH_EXACT + 1))).toBeLessThan(
      4 * PERSON_SKETCH_ERROR * PERSON_SKETCH_EXACT,
    );
  });
});
