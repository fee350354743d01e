// Rate limits counted in process and reconciled with Redis. One process is exact; two
// processes sharing one Redis overshoot a window by at most what each had in hand (LOCAL_SHARE of the
// limit each), the tolerance docs/decisions.md#rate-limits-counted-in-process states.
import { AppConfig, clusterNodes, connectRedis, LIMITS, LOCAL_SHARE, RateLimits, Refusal } from '@app/platform';

/** The shared Redis, or the cluster test/webhooks-on-cluster.e2e-spec.ts reruns this file on. */
const connect = () =>
  connectRedis({ redisUrl: 'redis://127.0.0.1:6379', redisClusterNodes: clusterNodes(globalThis.process.env) });

const made: RateLimits[] = [];
function process(prefix: string): RateLimits {
  const limits = new RateLimits(connect(), { redisPrefix: prefix } as AppConfig);
  made.push(limits);
  return limits;
}
afterAll(() => Promise.all(made.map((m) => m.onApplicationShutdown())));

const admitted = async (limits: RateLimits, key: string, name: keyof typeof LIMITS = 'public:event') =>
  limits.consume(name, key).then(
    () => true,
    (error) => {
      if (error instanceof Refusal && error.code === 'rate_limited') return false;
      throw error;
    },
  );

describe('rate limits counted in process', () => {
  const limit = LIMITS['public:event'];

  it('one process admits exactly the limit, then refuses with a wait', async () => {
    const one = process(`test:rl:${Date.now()}:one`);
    let yes = 0;
    for (let i = 0; i < limit + 30; i++) if (await admitted(one, 'visitor')) yes++;
    expect(yes).toBe(limit);
    await expect(one.consume('public:event', 'visitor')).rejects.toMatchObject({
      code: 'rate_limited',
      extra: { retryAfter: expect.any(Number) },
    });
  });

  it('one process admits exactly the limit when the calls come all at once', async () => {
    const one = process(`test:rl:${Date.now()}:burst`);
    const small = LIMITS['public:subscribe'];
    // Arriving a tick apart, as posts do: some while the process is still asking Redis about others.
    const calls: Array<Promise<boolean>> = [];
    for (let i = 0; i < small + 10; i++) {
      calls.push(admitted(one, 'visitor', 'public:subscribe'));
      await new Promise((r) => setImmediate(r));
    }
    expect((await Promise.all(calls)).filter(Boolean)).toHaveLength(small);
  });

  it('two processes on one Redis, posting at once, overshoot by no more than their local allowances', async () => {
    const prefix = `test:rl:${Date.now()}:two`;
    const [a, b] = [process(prefix), process(prefix)];
    let yes = 0;
    for (let round = 0; round < limit; round++) {
      const answers = await Promise.all([admitted(a, 'visitor'), admitted(b, 'visitor')]);
      yes += answers.filter(Boolean).length;
    }
    expect(yes).toBeGreaterThanOrEqual(limit);
    expect(yes).toBeLessThanOrEqual(limit + 2 * Math.ceil(limit * LOCAL_SHARE));
  });

  /** A process on its own Redis connection, and how many times it has asked Redis (its limiter's scripts). */
  async function counted(name: string): Promise<{ limits: RateLimits; asked: () => number }> {
    const redis = connect();
    const limits = new RateLimits(redis, { redisPrefix: `test:rl:${Date.now()}:${name}` } as AppConfig);
    made.push(limits);
    await redis.ping();
    const sent = jest.spyOn(redis, 'sendCommand');
    return {
      limits,
      asked: () => sent.mock.calls.filter(([command]) => /eval/.test((command as { name: string }).name)).length,
    };
  }

  it('asks Redis far less often than once a call', async () => {
    const { limits, asked } = await counted('calls');
    for (let i = 0; i < 100; i++) await limits.consume('public:event', 'quiet-visitor');
    expect(asked()).toBeGreaterThan(0);
    expect(asked()).toBeLessThan(30);
  });

  it("a key's calls that arrive together while Redis is first asked wait for its answer, not each ask", async () => {
    const { limits, asked } = await counted('together');
    const answers = await Promise.all(Array.from({ length: 40 }, () => admitted(limits, 'busy-visitor')));
    expect(answers.every(Boolean)).toBe(true);
    // The first call asks; the window then had 239 of 240 left, a tenth of it (23) admitted here at
    // once; the 16 past that ask again, together, once.
    expect(asked()).toBe(2);
  });

  it('forgets a key once its window has ended, even one never admitted locally', async () => {
    const limits = process(`test:rl:${Date.now()}:forget`);
    await limits.consume('public:support', 'passing-visitor');
    const tallies = (limits as unknown as { tallies: Map<string, { resetAt: number }> }).tallies;
    expect(tallies.size).toBe(1);
    for (const tally of tallies.values()) tally.resetAt = Date.now() - 1; // the window has ended
    await new Promise((r) => setTimeout(r, 500));
    expect(tallies.size).toBe(0);
  });
});
