import { decodeCursor, encodeCursor, pageOf } from './connection';
import { pageSize } from './page-size';

describe('connections', () => {
  it('first is 1 to 100, 50 when absent', () => {
    expect(pageSize(undefined)).toBe(50);
    expect(pageSize(100)).toBe(100);
    expect(() => pageSize(101)).toThrow(/1 to 100/);
    expect(() => pageSize(0)).toThrow(/1 to 100/);
  });

  it('a cursor comes back as the position it was made from', () => {
    const position = { atMicros: '1763856000123456', id: 'per_01ABC' };
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
    expect(() => decodeCursor('not a cursor')).toThrow(/cursor/);
  });

  it('a page of first rows out of first + 1 says there is more', () => {
    const rows = [1, 2, 3].map((n) => ({ n }));
    const page = pageOf(rows, 2, (r) => ({ atMicros: String(r.n), id: `x${r.n}` }));
    expect(page.edges.map((e) => e.node.n)).toEqual([1, 2]);
    expect(page.pageInfo).toEqual({ hasNextPage: true, endCursor: page.edges[1].cursor });
    expect(pageOf(rows, 3, (r) => ({ atMicros: String(r.n), id: `x${r.n}` })).pageInfo.hasNextPage).toBe(false);
  });
});
