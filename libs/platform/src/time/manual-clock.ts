// A clock that moves only when a test moves it: `advance(ms)` fires the timers that fall due, in the
// order of their times (and of their setting, for equal times), letting the code they run settle in
// between, so a wait of minutes takes a test no time.
import { Clock, ClockTimer, sleepOn } from './clock';

interface Scheduled {
  due: number;
  order: number;
  every: number | null;
  fn: () => void;
}

/** Lets pending promise callbacks (and any I/O callbacks already in) run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

export class ManualClock implements Clock {
  private at: number;
  private scheduled: Scheduled[] = [];
  private order = 0;

  /** Starts at `start` ms since the epoch (the real time by default). */
  constructor(start = Date.now()) {
    this.at = start;
  }

  now(): number {
    return this.at;
  }

  setTimeout(fn: () => void, ms: number): ClockTimer {
    return this.schedule(fn, ms, null);
  }

  setInterval(fn: () => void, ms: number): ClockTimer {
    return this.schedule(fn, ms, Math.max(1, ms));
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepOn(this, ms, signal);
  }

  /** Timers waiting to fire. */
  get pending(): number {
    return this.scheduled.length;
  }

  /** When the next timer fires, or null when none waits. */
  nextDue(): number | null {
    return this.earliest()?.due ?? null;
  }

  /**
   * Moves the time `ms` on, firing every timer due by then in order, each at its own time, with the code it runs let
   * settle before the next; a timer set meanwhile fires too when it falls due within the move.
   */
  async advance(ms: number): Promise<void> {
    const until = this.at + Math.max(0, ms);
    await settle();
    for (let next = this.earliest(); next && next.due <= until; next = this.earliest()) {
      this.at = Math.max(this.at, next.due);
      if (next.every === null) this.scheduled.splice(this.scheduled.indexOf(next), 1);
      else next.due += next.every;
      next.fn();
      await settle();
    }
    this.at = until;
    await settle();
  }

  /** Moves the time to the next timer's and fires what is due then; false when no timer waits. */
  async advanceToNext(): Promise<boolean> {
    const due = this.nextDue();
    if (due === null) return false;
    await this.advance(due - this.at);
    return true;
  }

  private schedule(fn: () => void, ms: number, every: number | null): ClockTimer {
    const entry: Scheduled = { due: this.at + Math.max(0, ms), order: this.order++, every, fn };
    this.scheduled.push(entry);
    const timer: ClockTimer = {
      cancel: () => {
        const place = this.scheduled.indexOf(entry);
        if (place >= 0) this.scheduled.splice(place, 1);
      },
      unref: () => timer,
    };
    return timer;
  }

  private earliest(): Scheduled | undefined {
    let first: Scheduled | undefined;
    for (const s of this.scheduled)
      if (!first || s.due < first.due || (s.due === first.due && s.order < first.order)) first = s;
    return first;
  }
}
