import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { OverLimit, RenderPool } from './render-pool';

const probe = join(__dirname, '../../../../test/support/render-thread-probe.ts');

describe('RenderPool: work off the event loop, inside hard limits', () => {
  const pool = new RenderPool({ filename: probe, threads: 1, timeoutMs: 1_000, memoryMb: 32, warmUp: 'answer' });
  afterAll(() => pool.close());

  it("runs a task in a thread of its own, not the event loop's", async () => {
    expect(await pool.run('answer')).not.toBe(threadId);
  });

  it('ends a task past its time limit by ending its thread, and the next task runs in a new one', async () => {
    const before = await pool.run('answer');
    const started = Date.now();
    await expect(pool.run('spin')).rejects.toEqual(new OverLimit('time'));
    expect(Date.now() - started).toBeLessThan(3_000);
    const after = await pool.run('answer');
    expect(after).not.toBe(before);
  });

  it('ends a task past its memory limit, and the next task runs', async () => {
    // A pool whose time limit cannot come first: on a loaded machine growing to 32 MB took over a second once.
    const roomy = new RenderPool({ filename: probe, threads: 1, timeoutMs: 15_000, memoryMb: 32, warmUp: 'answer' });
    try {
      await expect(roomy.run('grow')).rejects.toEqual(new OverLimit('memory'));
      expect(typeof (await roomy.run('answer'))).toBe('number');
    } finally {
      await roomy.close();
    }
  });

  it('runs nothing once closed', async () => {
    const closed = new RenderPool({ filename: probe, threads: 1, timeoutMs: 1_000, memoryMb: 32, warmUp: 'answer' });
    await closed.close();
    await expect(closed.run('answer')).rejects.toThrow(/closed/);
  });
});
