// jsonbParam: the jsonb binary format (version 1, then the text) of exactly JSON.stringify's text,
// whatever the document holds, however long its arrays (written a slice at a time) and however often
// it is called (the scratch buffer is reused and grows).
import fc from 'fast-check';
import { jsonbParam } from './jsonb-param';

const textOf = (param: Buffer) => {
  expect(param[0]).toBe(1);
  return param.subarray(1).toString('utf8');
};

describe('jsonbParam', () => {
  it('writes what JSON.stringify writes, for any document of JSON values', () => {
    const array = fc.array(fc.jsonValue(), { maxLength: 300 });
    const doc = fc.dictionary(fc.string(), fc.oneof(fc.jsonValue(), array, fc.constant(undefined)), { maxKeys: 8 });
    fc.assert(
      fc.property(doc, (document) => expect(textOf(jsonbParam(document))).toBe(JSON.stringify(document))),
      { numRuns: 300 },
    );
  });

  it('writes arrays of any length across slices, with text outside Latin-1 and lone surrogates', () => {
    for (const length of [0, 1, 63, 64, 65, 128, 129, 1000]) {
      const rows = Array.from({ length }, (_, i) => ({
        id: `evt_${i}`,
        name: i % 3 ? 'Zoë 😀 \u2028' : '\ud800 "quoted" \\',
        n: i,
        none: null,
        gone: undefined,
      }));
      const document = {
        rows,
        empty: [],
        holes: [1, , 3],
        date: new Date(Date.UTC(2026, 10, 27)),
        skipped: undefined,
        fn: () => 1,
      };
      expect(textOf(jsonbParam(document))).toBe(JSON.stringify(document));
    }
  });

  it('grows past its first megabyte, and the buffer it returns is its own', () => {
    const big = { rows: Array.from({ length: 5000 }, (_, i) => ({ i, text: 'é'.repeat(200) })) };
    const first = jsonbParam(big);
    expect(first.length).toBeGreaterThan(2 << 20);
    const small = jsonbParam({ a: [1, 2] });
    expect(textOf(small)).toBe('{"a":[1,2]}');
    expect(textOf(first)).toBe(JSON.stringify(big));
  });

  it('leaves out what JSON.stringify leaves out, and keeps a toJSON of an array', () => {
    const arrayWithToJson = Object.assign([1, 2, 3], { toJSON: () => 'three' });
    const document = { a: 1, b: undefined, c: { toJSON: () => undefined }, d: Symbol('x'), e: arrayWithToJson };
    expect(textOf(jsonbParam(document))).toBe(JSON.stringify(document));
    expect(textOf(jsonbParam({}))).toBe('{}');
  });
});
