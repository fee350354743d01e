import { Logger } from '@nestjs/common';
import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import { z } from 'zod';
import { NEWER_PUT_BACK_MS, NEWER_WAIT_MS, NewerJobPayload, UnreadableJobPayload } from './job-payload';
import { declareJob, declaredQueues } from './queues';

const PING = declareJob('test-pings', 'ping', {
  version: 1,
  schema: z.object({ workspaceId: z.string().min(1), count: z.number().int().optional() }),
});

/** Version 2 renamed `ws` to `workspaceId`; version 1 payloads are brought to it. */
const PONG = declareJob('test-pings', 'pong', {
  version: 2,
  schema: z.object({ workspaceId: z.string() }),
  readOlder: (data, version) => {
    if (version !== 1) throw new Error(`no upgrade from version ${version}`);
    return { workspaceId: data.ws };
  },
});

const thrown = (read: () => unknown): Error => {
  try {
    read();
  } catch (error) {
    return error as Error;
  }
  throw new Error('it did not throw');
};

beforeAll(() => Logger.overrideLogger(false));

describe('declareJob', () => {
  it('lists the queue among the declared ones', () => {
    expect(declaredQueues()).toContain('test-pings');
  });

  it('refuses a version below 1', () => {
    expect(() => declareJob('test-pings', 'bad', { version: 0, schema: z.object({}) })).toThrow(
      'test-pings/bad: version must be >= 1',
    );
  });
});

describe('payload', () => {
  it('stamps the version the release produces', () => {
    expect(PING.payload({ workspaceId: 'w1', count: 2 })).toEqual({ workspaceId: 'w1', count: 2, v: 1 });
    expect(PONG.payload({ workspaceId: 'w1' })).toEqual({ workspaceId: 'w1', v: 2 });
  });
});

describe('read', () => {
  it('returns the data of a payload of the version it serves, without its v', () => {
    expect(PING.read({ data: PING.payload({ workspaceId: 'w1', count: 2 }) })).toEqual({ workspaceId: 'w1', count: 2 });
  });

  it('takes a payload without v (queued before versions) as version 1', () => {
    expect(PING.read({ data: { workspaceId: 'w1' } })).toEqual({ workspaceId: 'w1' });
  });

  it('drops keys the schema does not name', () => {
    expect(PING.read({ data: { workspaceId: 'w1', extra: true, v: 1 } })).toEqual({ workspaceId: 'w1' });
  });

  it('refuses a wrong shape with a sentence naming the job, both versions and each problem at its path', () => {
    const error = thrown(() => PING.read({ data: { v: 1, count: 'two' } }));
    expect(error).toBeInstanceOf(UnreadableJobPayload);
    expect(error.message).toBe(
      'Job test-pings/ping: the payload is version 1 (this process serves version 1) and is not valid: ' +
        'workspaceId: Invalid input: expected string, received undefined; ' +
        'count: Invalid input: expected number, received string.',
    );
    expect(error).toMatchObject({ job: 'test-pings/ping', got: 1, serves: 1 });
  });

  it('refuses a payload that is not an object, or whose v is no version', () => {
    expect(thrown(() => PING.read({ data: 'w1' })).message).toBe(
      'Job test-pings/ping: the payload has no readable version (this process serves version 1) and is not ' +
        'valid: (payload): expected an object.',
    );
    for (const v of [0, 1.5, '1', null]) {
      const error = thrown(() => PING.read({ data: { workspaceId: 'w1', v } }));
      expect(error).toBeInstanceOf(UnreadableJobPayload);
      expect(error.message).toContain(`v: expected a version (1 or more), received ${String(v)}`);
    }
  });

  it('refuses a newer version, even one whose shape it would read, with the error that puts it back', () => {
    const error = thrown(() => PING.read({ data: { workspaceId: 'w1', v: 2 } }));
    expect(error).toBeInstanceOf(NewerJobPayload);
    expect(error.message).toBe(
      'Job test-pings/ping: the payload is version 2 and this process serves version 1; ' +
        'it is left for a worker of the newer release.',
    );
    expect(error).toMatchObject({ job: 'test-pings/ping', got: 2, serves: 1 });
  });

  it('brings an older version to the current shape with readOlder, a payload without v included', () => {
    expect(PONG.read({ data: { ws: 'w1', v: 1 } })).toEqual({ workspaceId: 'w1' });
    expect(PONG.read({ data: { ws: 'w1' } })).toEqual({ workspaceId: 'w1' });
    expect(PONG.read({ data: { workspaceId: 'w2', v: 2 } })).toEqual({ workspaceId: 'w2' });
  });

  it('refuses an older payload its upgrade cannot read, naming the version it got', () => {
    const error = thrown(() => PONG.read({ data: { v: 1 } }));
    expect(error).toBeInstanceOf(UnreadableJobPayload);
    expect(error.message).toBe(
      'Job test-pings/pong: the payload is version 1 (this process serves version 2) and is not valid: ' +
        'workspaceId: Invalid input: expected string, received undefined.',
    );
  });

  it('reads an older payload with the current schema when the job has no readOlder', () => {
    const later = declareJob('test-pings', 'later', { version: 3, schema: z.object({ id: z.string() }) });
    expect(later.read({ data: { id: 'a', v: 2 } })).toEqual({ id: 'a' });
  });
});

describe('take (the processor side)', () => {
  /** A job as BullMQ hands it to a processor: what take reads of it, and where it was put back. */
  const job = (data: unknown, dueAgoMs = 0) => {
    const delayedTo: number[] = [];
    const stand = {
      id: 'j1',
      data,
      timestamp: Date.now() - dueAgoMs - 1_000,
      opts: { delay: 1_000 },
      moveToDelayed: (at: number) => (delayedTo.push(at), Promise.resolve()),
    };
    return { job: stand as unknown as Job, delayedTo };
  };

  it('returns the data of a readable payload', async () => {
    await expect(PING.take(job({ workspaceId: 'w1' }).job, 'token')).resolves.toEqual({ workspaceId: 'w1' });
  });

  it('puts a newer payload back on the queue for a while and tells BullMQ it did (DelayedError)', async () => {
    const { job: newer, delayedTo } = job({ workspaceId: 'w1', v: 2 });
    const before = Date.now();
    await expect(PING.take(newer, 'token')).rejects.toBeInstanceOf(DelayedError);
    expect(delayedTo).toHaveLength(1);
    expect(delayedTo[0]).toBeGreaterThanOrEqual(before + NEWER_PUT_BACK_MS);
  });

  it('fails a newer payload for good once no newer worker took it for NEWER_WAIT_MS after it was due', async () => {
    const { job: stale, delayedTo } = job({ workspaceId: 'w1', v: 2 }, NEWER_WAIT_MS + 1);
    await expect(PING.take(stale, 'token')).rejects.toBeInstanceOf(UnrecoverableError);
    expect(delayedTo).toEqual([]);
  });

  it('fails an unreadable payload without retry (UnrecoverableError), with the sentence of read', async () => {
    const { job: bad, delayedTo } = job({ v: 1 });
    const error = await PING.take(bad, 'token').catch((e: Error) => e);
    expect(error).toBeInstanceOf(UnrecoverableError);
    expect((error as Error).message).toContain('Job test-pings/ping: the payload is version 1');
    expect(delayedTo).toEqual([]);
  });
});
