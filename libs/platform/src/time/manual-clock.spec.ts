import { SYSTEM_CLOCK } from './clock';
import { ManualClock } from './manual-clock';

describe('ManualClock', () => {
  it('stands still until advanced, then reads the time moved on', async () => {
    const clock = new ManualClock(1_000);
    expect(clock.now()).toBe(1_000);
    await clock.advance(250);
    expect(clock.now()).toBe(1_250);
  });

  it('fires due timers in the order of their times, equal times in the order they were set, each at its own time', async () => {
    const clock = new ManualClock(0);
    const fired: Array<[string, number]> = [];
    const note = (name: string) => () => fired.push([name, clock.now()]);
    clock.setTimeout(note('c'), 300);
    clock.setTimeout(note('a'), 100);
    clock.setTimeout(note('b1'), 200);
    clock.setTimeout(note('b2'), 200);
    clock.setTimeout(note('late'), 1_000);
    await clock.advance(500);
    expect(fired).toEqual([
      ['a', 100],
      ['b1', 200],
      ['b2', 200],
      ['c', 300],
    ]);
    expect(clock.now()).toBe(500);
    expect(clock.pending).toBe(1);
  });

  it('lets the code a timer runs settle before the next timer fires', async () => {
    const clock = new ManualClock(0);
    const seen: string[] = [];
    clock.setTimeout(() => {
      void Promise.resolve()
        .then(() => Promise.resolve())
        .then(() => seen.push('first settled'));
    }, 10);
    clock.setTimeout(() => seen.push('second'), 20);
    await clock.advance(20);
    expect(seen).toEqual(['first settled', 'second']);
  });

  it('fires a timer set during an advance when it falls due within it, and leaves one due after', async () => {
    const clock = new ManualClock(0);
    const fired: Array<[string, number]> = [];
    clock.setTimeout(() => {
      fired.push(['outer', clock.now()]);
      clock.setTimeout(() => fired.push(['inner', clock.now()]), 50);
      clock.setTimeout(() => fired.push(['beyond', clock.now()]), 500);
    }, 100);
    await clock.advance(200);
    expect(fired).toEqual([
      ['outer', 100],
      ['inner', 150],
    ]);
    await clock.advance(400);
    expect(fired.at(-1)).toEqual(['beyond', 600]);
  });

  it('a sleep awaited in a loop wakes once per interval as the time passes', async () => {
    const clock = new ManualClock(0);
    const woke: number[] = [];
    void (async () => {
      for (let i = 0; i < 3; i++) {
        await clock.sleep(100);
        woke.push(clock.now());
      }
    })();
    await clock.advance(1_000);
    expect(woke).toEqual([100, 200, 300]);
  });

  it('a cancelled timer never fires, and an interval fires every period until cancelled', async () => {
    const clock = new ManualClock(0);
    const fired: number[] = [];
    const once = clock.setTimeout(() => fired.push(-1), 50);
    once.cancel();
    const every = clock.setInterval(() => {
      fired.push(clock.now());
      if (fired.length === 3) every.cancel();
    }, 40);
    await clock.advance(1_000);
    expect(fired).toEqual([40, 80, 120]);
    expect(clock.pending).toBe(0);
  });

  it('a sleep ends early when its signal aborts, and its timer is dropped', async () => {
    const clock = new ManualClock(0);
    const abort = new AbortController();
    let done = false;
    const sleeping = clock.sleep(10_000, abort.signal).then(() => (done = true));
    await clock.advance(10);
    expect(done).toBe(false);
    abort.abort();
    await sleeping;
    expect(clock.now()).toBe(10);
    expect(clock.pending).toBe(0);
    await clock.sleep(5, abort.signal); // already aborted: at once
  });

  it('advanceToNext moves to the next timer only', async () => {
    const clock = new ManualClock(0);
    const fired: number[] = [];
    clock.setTimeout(() => fired.push(clock.now()), 70);
    clock.setTimeout(() => fired.push(clock.now()), 90);
    expect(clock.nextDue()).toBe(70);
    expect(await clock.advanceToNext()).toBe(true);
    expect(fired).toEqual([70]);
    expect(clock.now()).toBe(70);
    await clock.advanceToNext();
    expect(await clock.advanceToNext()).toBe(false);
    expect(fired).toEqual([70, 90]);
  });
});

describe('SYSTEM_CLOCK', () => {
  it('reads Date.now() and sleeps on real timers', async () => {
    const before = Date.now();
    expect(SYSTEM_CLOCK.now()).toBeGreaterThanOrEqual(before);
    await SYSTEM_CLOCK.sleep(5);
    expect(Date.now() - before).toBeGreaterThanOrEqual(4);
    let fired = false;
    SYSTEM_CLOCK.setTimeout(() => (fired = true), 1).cancel();
    await SYSTEM_CLOCK.sleep(5);
    expect(fired).toBe(false);
  });
});
