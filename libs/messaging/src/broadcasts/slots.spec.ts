import { Slots } from './recipient-turn';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('Slots', () => {
  it('runs at most its size at once, the waiting ones in the order they came, a failure freeing its slot', async () => {
    const slots = new Slots(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const releases: Array<() => void> = [];
    const call = (n: number) =>
      slots.run(async () => {
        started.push(n);
        running++;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running--;
        if (n === 1) throw new Error('refused');
        return n;
      });
    const answers = [1, 2, 3, 4, 5].map((n) => call(n).catch((e: Error) => e.message));
    await tick();
    expect(started).toEqual([1, 2]);
    releases.shift()!();
    await tick();
    expect(started).toEqual([1, 2, 3]);
    while (started.length < 5 || releases.length) {
      releases.shift()?.();
      await tick();
    }
    expect(await Promise.all(answers)).toEqual(['refused', 2, 3, 4, 5]);
    expect(most).toBe(2);
  });
});
