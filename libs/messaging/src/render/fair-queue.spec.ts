import { FairQueue } from './fair-queue';

const queue = (running = 1, perWorkspace = 1, waitingPerWorkspace = 3) =>
  new FairQueue<string>({ running, perWorkspace, waitingPerWorkspace });

describe('FairQueue: per-workspace turns at expensive work', () => {
  it('runs a task at once while a place is free', () => {
    const q = queue(2, 2);
    expect(q.offer('a', 'a1')).toBe('run');
    expect(q.offer('b', 'b1')).toBe('run');
    expect([q.running, q.waiting]).toEqual([2, 0]);
  });

  it('makes a task wait when every place is taken', () => {
    const q = queue(1);
    q.offer('a', 'a1');
    expect(q.offer('b', 'b1')).toBe('wait');
    expect([q.running, q.waiting]).toEqual([1, 1]);
  });

  it('holds one workspace to its own cap while places are free for others', () => {
    const q = queue(3, 1);
    expect(q.offer('a', 'a1')).toBe('run');
    expect(q.offer('a', 'a2')).toBe('wait');
    expect(q.offer('b', 'b1')).toBe('run');
  });

  it('gives the next free place to another waiting workspace before the one just served', () => {
    const q = queue(1, 1, 10);
    q.offer('a', 'a1');
    for (const task of ['a2', 'a3', 'a4']) q.offer('a', task);
    q.offer('b', 'b1');
    expect(q.finish('a')).toEqual([{ workspace: 'b', task: 'b1' }]);
    expect(q.finish('b')).toEqual([{ workspace: 'a', task: 'a2' }]);
    expect(q.finish('a')).toEqual([{ workspace: 'a', task: 'a3' }]);
  });

  it("keeps one workspace's tasks in the order they came", () => {
    const q = queue(1, 1, 10);
    q.offer('a', 'a1');
    q.offer('a', 'a2');
    q.offer('a', 'a3');
    expect(q.finish('a').map((s) => s.task)).toEqual(['a2']);
    expect(q.finish('a').map((s) => s.task)).toEqual(['a3']);
    expect(q.finish('a')).toEqual([]);
    expect([q.running, q.waiting]).toEqual([0, 0]);
  });

  it('refuses a workspace past its waiting cap, and no other workspace', () => {
    const q = queue(1, 1, 2);
    q.offer('a', 'a1');
    expect(q.offer('a', 'a2')).toBe('wait');
    expect(q.offer('a', 'a3')).toBe('wait');
    expect(q.offer('a', 'a4')).toBe('full');
    expect(q.offer('b', 'b1')).toBe('wait');
  });

  it('starts as many waiting tasks as places free up, one workspace at a time within its cap', () => {
    const q = queue(2, 1, 10);
    q.offer('a', 'a1');
    q.offer('a', 'a2');
    q.offer('b', 'b1');
    q.offer('c', 'c1');
    expect(q.finish('a').map((s) => s.task)).toEqual(['c1']);
    expect(q.finish('b').map((s) => s.task)).toEqual(['a2']);
  });
});
