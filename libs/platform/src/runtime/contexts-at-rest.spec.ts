import { AsyncLocalStorage } from 'node:async_hooks';
import { storage as requestLoggers } from 'nestjs-pino/storage';
import { readScope } from '../database/prepared';
import { readsFromPrimary, readsFromReplica } from '../database/read-database';
import { ContextsAtRest, contextsAtRest, REST_AFTER_MS } from './contexts-at-rest';

/** A continuation made inside a run() of `context`, let go later: what it then sees of its context. */
function parked<T>(context: AsyncLocalStorage<T>, store: T): { go(): Promise<T | undefined> } {
  let release!: () => void;
  const seen = context.run(store, () => new Promise<void>((r) => (release = r)).then(() => context.getStore()));
  return { go: () => (release(), seen) };
}

describe('ContextsAtRest', () => {
  const REST = 1_000;
  let context: AsyncLocalStorage<string>;
  let rest: ContextsAtRest;

  beforeEach(() => {
    jest.useFakeTimers();
    context = new AsyncLocalStorage<string>();
    rest = new ContextsAtRest([context as AsyncLocalStorage<unknown>], REST);
  });
  afterEach(() => {
    context.disable();
    jest.useRealTimers();
  });

  it('disables its contexts once nothing has held them for the rest time, and not before', async () => {
    rest.hold()();
    const early = parked(context, 'request');
    jest.advanceTimersByTime(REST - 1);
    expect(await early.go()).toBe('request');
    const late = parked(context, 'request');
    jest.advanceTimersByTime(1);
    expect(await late.go()).toBeUndefined();
    // the next run turns the context on again
    expect(context.run('next', () => context.getStore())).toBe('next');
  });

  it('keeps them on while any hold is out, however long; a release called twice counts once', async () => {
    const first = rest.hold();
    const second = rest.hold();
    first();
    first();
    jest.advanceTimersByTime(REST * 5);
    const held = parked(context, 'request');
    jest.advanceTimersByTime(REST * 5);
    expect(await held.go()).toBe('request');
    second();
    const after = parked(context, 'request');
    jest.advanceTimersByTime(REST);
    expect(await after.go()).toBeUndefined();
  });

  it('counts the rest from the last release', async () => {
    rest.hold()();
    jest.advanceTimersByTime(REST / 2);
    rest.hold()();
    const continuation = parked(context, 'request');
    jest.advanceTimersByTime(REST / 2 + 1);
    expect(await continuation.go()).toBe('request');
    const later = parked(context, 'request');
    jest.advanceTimersByTime(REST / 2);
    expect(await later.go()).toBeUndefined();
  });

  it('holding() holds until the work returns, or until its promise settles either way', async () => {
    expect(rest.holding(() => 7)).toBe(7);
    expect(() =>
      rest.holding(() => {
        throw new Error('no');
      }),
    ).toThrow('no');
    let settle!: (ok: boolean) => void;
    const work = rest.holding(
      () => new Promise<void>((resolve, reject) => (settle = (ok) => (ok ? resolve() : reject(new Error('failed'))))),
    );
    const during = parked(context, 'request');
    jest.advanceTimersByTime(REST * 3);
    expect(await during.go()).toBe('request');
    settle(false);
    await expect(work).rejects.toThrow('failed');
    const after = parked(context, 'request');
    jest.advanceTimersByTime(REST);
    expect(await after.go()).toBeUndefined();
  });
});

describe('the process contexts at rest', () => {
  afterEach(() => jest.useRealTimers());

  it('are the read scope and the request logger, rested REST_AFTER_MS after the last hold', async () => {
    jest.useFakeTimers();
    contextsAtRest.hold()();
    const scope = parked(readScope, { timeoutMs: 5 });
    const logger = parked(requestLoggers, { logger: null, responseLogger: null } as never);
    jest.advanceTimersByTime(REST_AFTER_MS - 1);
    const scopeLate = parked(readScope, { timeoutMs: 5 });
    jest.advanceTimersByTime(1);
    expect(await scope.go()).toBeUndefined();
    expect(await logger.go()).toBeUndefined();
    expect(await scopeLate.go()).toBeUndefined();
    // a read scope run after the rest holds its store again
    expect(readScope.run({ timeoutMs: 1 }, () => readScope.getStore())).toEqual({ timeoutMs: 1 });
  });
});

describe('replica and primary reads', () => {
  it.each([
    ['readsFromReplica', readsFromReplica, true],
    ['readsFromPrimary', readsFromPrimary, false],
  ] as const)(
    '%s holds the contexts until its work settles, and runs it in its read scope',
    async (_name, reads, replica) => {
      const before = contextsAtRest.held;
      let finish!: () => void;
      const gate = new Promise<void>((r) => (finish = r));
      const work = reads(async () => (await gate, readScope.getStore()?.replica));
      expect(contextsAtRest.held).toBe(before + 1);
      finish();
      expect(await work).toBe(replica);
      expect(contextsAtRest.held).toBe(before);
    },
  );
});
