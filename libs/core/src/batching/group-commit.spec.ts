import { GroupCommit } from './group-commit';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('GroupCommit', () => {
  it('writes a lone item at once, and items that arrive during a write together in the next batch', async () => {
    const batches: number[][] = [];
    const gate = deferred<void>();
    const commit = new GroupCommit<number, number>(async (items) => {
      batches.push(items);
      if (batches.length === 1) await gate.promise;
      return items.map((n) => n * 10);
    });

    const first = commit.submit(1);
    const later = [commit.submit(2), commit.submit(3), commit.submit(4)];
    expect(batches).toEqual([[1]]);
    gate.resolve();

    expect(await first).toBe(10);
    expect(await Promise.all(later)).toEqual([20, 30, 40]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('splits a long wait into batches of at most maxBatch, in order', async () => {
    const batches: string[][] = [];
    const commit = new GroupCommit<string, string>(async (items) => {
      batches.push(items);
      return items.map((s) => s.toUpperCase());
    }, 2);
    const results = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((s) => commit.submit(s)));
    expect(results).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(batches).toEqual([['a'], ['b', 'c'], ['d', 'e']]);
  });

  it('a failed batch rejects no caller for another one\'s item: each is written again alone', async () => {
    const gate = deferred<void>();
    const batches: number[][] = [];
    const commit = new GroupCommit<number, number>(async (items) => {
      batches.push(items);
      if (items.length === 1 && items[0] === 1) await gate.promise;
      if (items.includes(13)) throw new Error('13 is refused');
      return items;
    });
    const first = commit.submit(1);
    const rest = [2, 13, 4].map((n) => commit.submit(n).then(String, (e: Error) => e.message));
    gate.resolve();
    expect(await first).toBe(1);
    expect(await Promise.all(rest)).toEqual(['2', '13 is refused', '4']);
    expect(batches).toEqual([[1], [2, 13, 4], [2], [13], [4]]);
  });

  it('a lone failed item is refused, and the next batch still runs', async () => {
    const gate = deferred<void>();
    let calls = 0;
    const commit = new GroupCommit<number, number>(async (items) => {
      calls += 1;
      if (calls === 1) {
        await gate.promise;
        throw new Error('connection lost');
      }
      return items;
    });
    const failed = commit.submit(1);
    const next = commit.submit(2);
    gate.resolve();
    await expect(failed).rejects.toThrow('connection lost');
    expect(await next).toBe(2);
  });

  it('a runner that answers the wrong number of results fails the batch instead of mismatching callers', async () => {
    const commit = new GroupCommit<number, number>(async () => [1, 2]);
    await expect(commit.submit(7)).rejects.toThrow('batch of 1 gave 2 results');
  });
});
