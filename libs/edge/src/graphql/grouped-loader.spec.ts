import { groupedLoader, Loaders } from './grouped-loader';

describe('groupedLoader', () => {
  it('loads the rows of every parent asked in one tick with one call, each parent getting its own rows, none for a parent without', async () => {
    const calls: string[][] = [];
    const ctx: { loaders?: Loaders } = {};
    const load = async (ids: readonly string[]) => {
      calls.push([...ids]);
      return [
        { p: 'a', n: 1 },
        { p: 'b', n: 2 },
        { p: 'a', n: 3 },
      ];
    };
    const [a, b, c] = await Promise.all(
      ['a', 'b', 'c'].map((id) => groupedLoader(ctx, 'rows', load, (row) => row.p).load(id)),
    );
    expect(calls).toEqual([['a', 'b', 'c']]);
    expect(a).toEqual([
      { p: 'a', n: 1 },
      { p: 'a', n: 3 },
    ]);
    expect(b).toEqual([{ p: 'b', n: 2 }]);
    expect(c).toEqual([]);
    expect(groupedLoader(ctx, 'rows', load, (row) => row.p)).toBe(groupedLoader(ctx, 'rows', load, (row) => row.p));
  });
});
