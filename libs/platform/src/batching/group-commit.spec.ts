import { GroupCommit, GroupCommitLanes, runIsolated } from './group-commit';

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

  it("a failed batch rejects no caller for another one's item: each is written again alone", async () => {
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

describe('GroupCommit with batches in flight at once', () => {
  it('starts up to maxInFlight batches together and the next when one finishes', async () => {
    const gates = [deferred<void>(), deferred<void>()];
    const batches: number[][] = [];
    const commit = new GroupCommit<number, number>(
      async (items) => {
        batches.push(items);
        if (batches.length <= 2) await gates[batches.length - 1].promise;
        return items;
      },
      10,
      2,
    );
    const all = [1, 2, 3, 4].map((n) => commit.submit(n));
    expect(batches).toEqual([[1], [2]]);
    gates[0].resolve();
    gates[1].resolve();
    expect(await Promise.all(all)).toEqual([1, 2, 3, 4]);
    expect(batches).toEqual([[1], [2], [3, 4]]);
    expect(commit.idle).toBe(true);
  });
});

describe('GroupCommit with an overlap', () => {
  // Items are strings "key:n"; a batch's keys are its items' keys.
  const keysOf = (item: string) => [item.split(':')[0]];
  const flush = () => new Promise((resolve) => setImmediate(resolve));

  it('starts a second batch only once the first has opened, and only when their keys differ', async () => {
    const started: string[][] = [];
    const gates = new Map<string, { opened: () => void; finish: () => void }>();
    const commit = new GroupCommit<string, string>(
      (items, opened) => {
        started.push(items);
        const finish = deferred<void>();
        gates.set(items[0], { opened: opened!, finish: () => finish.resolve() });
        return finish.promise.then(() => items);
      },
      1,
      2,
      undefined,
      { keysOf },
    );
    const answers = ['a:1', 'b:1', 'a:2', 'c:1'].map((item) => commit.submit(item));
    await flush();
    expect(started).toEqual([['a:1']]); // b:1 waits until a:1 has opened
    gates.get('a:1')!.opened();
    await flush();
    expect(started).toEqual([['a:1'], ['b:1']]);
    gates.get('b:1')!.opened();
    await flush();
    expect(started).toHaveLength(2); // two in flight; a:2 next, and c:1 does not jump ahead of it
    gates.get('b:1')!.finish();
    await flush();
    expect(started).toHaveLength(2); // a:2 shares its key with a:1, still running
    gates.get('a:1')!.finish();
    await flush();
    expect(started).toEqual([['a:1'], ['b:1'], ['a:2']]);
    gates.get('a:2')!.opened();
    await flush();
    expect(started).toEqual([['a:1'], ['b:1'], ['a:2'], ['c:1']]);
    gates.get('a:2')!.finish();
    gates.get('c:1')!.finish();
    expect(await Promise.all(answers)).toEqual(['a:1', 'b:1', 'a:2', 'c:1']);
  });
});

describe('GroupCommitLanes', () => {
  it('keeps one lane per key, batching only items of the same key, and drops a lane once idle', async () => {
    const batches: Array<[string, number[]]> = [];
    const gate = deferred<void>();
    const lanes = new GroupCommitLanes<number, number>(async (key, items) => {
      batches.push([key, items]);
      await gate.promise;
      return items.map((n) => n + 100);
    });
    const results = [lanes.submit('a', 1), lanes.submit('b', 2), lanes.submit('a', 3), lanes.submit('a', 4)];
    expect(lanes.size).toBe(2);
    gate.resolve();
    expect(await Promise.all(results)).toEqual([101, 102, 103, 104]);
    expect(batches).toEqual([
      ['a', [1]],
      ['b', [2]],
      ['a', [3, 4]],
    ]);
    expect(lanes.size).toBe(0);
  });
});

describe('runIsolated', () => {
  it('answers each item its own outcome when the shared run fails', async () => {
    const outcomes = await runIsolated(
      async (items: number[]) => {
        if (items.includes(2)) throw new Error(`bad ${items.join(',')}`);
        return items.map((n) => n * 2);
      },
      [1, 2, 3],
    );
    expect(outcomes).toEqual([
      { ok: true, value: 2 },
      { ok: false, error: new Error('bad 2') },
      { ok: true, value: 6 },
    ]);
  });
});
