// Health and recovery (docs/webhooks.md#health-disabling-and-recovery) at the repositories: a disabled address gets no
// attempts, recover picks exactly the failed deliveries since a time (once, in order, paced), a rate-limited attempt is
// given back uncounted, and health flushes disable an address failing for the whole window. The graph runs on a
// ManualClock: paced and deferred deliveries fall due, and the health service flushes, as the test moves the time.
import { ManualClock } from '@app/platform/manual-clock';
import {
  DeliveriesRepository,
  DeliveryClaimsRepository,
  EndpointHealthService,
  EndpointsRepository,
  HEALTH_FLUSH_MS,
} from '@app/webhooks';
import { useMedium } from './medium';

const clock = new ManualClock();
const t = useMedium({ clock });
let ws: string;
let deliveries: DeliveriesRepository;
let claims: DeliveryClaimsRepository;
let endpoints: EndpointsRepository;
beforeAll(async () => {
  ws = (await t.make.workspace()).id;
  deliveries = t.get(DeliveriesRepository);
  claims = t.get(DeliveryClaimsRepository);
  endpoints = t.get(EndpointsRepository);
});

const row = async (id: string) =>
  (
    await t.db.query(
      `SELECT state, attempts, claimed_until IS NOT NULL AS claimed FROM deliveries WHERE workspace_id = $1 AND id = $2`,
      [ws, id],
    )
  )[0];

describe('a disabled address', () => {
  it('is not claimed: its due delivery becomes failed without counting an attempt', async () => {
    const endpoint = (await t.make.endpoint(ws, { disabled_at: new Date(), disabled_reason: 'test' })).id as string;
    const { id } = await t.make.delivery(ws, endpoint);
    expect(await claims.claim(ws, id as string)).toBeNull();
    expect(await row(id as string)).toEqual({ state: 'failed', attempts: 0, claimed: false });
  });
});

describe('recover', () => {
  it('makes exactly the failed deliveries since the time due again, in order and paced; a second recovery finds none', async () => {
    const endpoint = (await t.make.endpoint(ws)).id as string;
    const old = await t.make.delivery(ws, endpoint, {
      state: 'failed',
      attempts: 6,
      next_attempt_at: null,
      created_at: new Date(Date.now() - 3600_000),
    });
    const since = new Date(Date.now() - 60_000);
    const failed = [];
    for (let i = 0; i < 3; i++)
      failed.push(
        await t.make.delivery(ws, endpoint, {
          state: 'failed',
          attempts: 6,
          next_attempt_at: null,
          created_at: new Date(Date.now() - 30_000 + i),
        }),
      );
    const done = await t.make.delivery(ws, endpoint, { state: 'succeeded', attempts: 1, next_attempt_at: null });
    const [first, second] = await Promise.all([
      deliveries.makeFailedDue(ws, endpoint, since, 100),
      deliveries.makeFailedDue(ws, endpoint, since, 100),
    ]);
    const picked = [...first, ...second];
    expect(picked.map((d) => d.id)).toEqual(failed.map((d) => d.id));
    expect(picked.map((d) => d.due_in_ms)).toEqual([0, 100, 200]);
    expect(await row(old.id as string)).toMatchObject({ state: 'failed' });
    expect(await row(done.id as string)).toMatchObject({ state: 'succeeded' });
    // The next attempt is the seventh.
    const claim = await claims.claim(ws, failed[0].id as string);
    expect(claim).toMatchObject({ number: 7 });
    // The others fall due one pace apart.
    expect(await claims.claim(ws, failed[1].id as string)).toBeNull();
    await clock.advance(100);
    expect(await claims.claim(ws, failed[1].id as string)).toMatchObject({ number: 7 });
    expect(await claims.claim(ws, failed[2].id as string)).toBeNull();
    await clock.advance(100);
    expect(await claims.claim(ws, failed[2].id as string)).toMatchObject({ number: 7 });
  });
});

describe('rate limit', () => {
  it('a released attempt is not counted and the delivery waits for its slot, unclaimed', async () => {
    const endpoint = (await t.make.endpoint(ws, { rate_limit_per_second: 5 })).id as string;
    const { id } = await t.make.delivery(ws, endpoint);
    const claim = await claims.claim(ws, id as string);
    expect(claim).toMatchObject({ number: 1, rateLimitPerSecond: 5, endpointId: endpoint });
    expect(await claims.release(ws, id as string, 1, 60_000)).toBe(true);
    expect(await row(id as string)).toEqual({ state: 'pending', attempts: 0, claimed: false });
    expect(await claims.claim(ws, id as string)).toBeNull(); // not due for a minute
    await clock.advance(59_999);
    expect(await claims.claim(ws, id as string)).toBeNull();
    await clock.advance(1);
    expect(await claims.claim(ws, id as string)).toMatchObject({ number: 1 });
  });
});

describe('health flushes', () => {
  const WINDOW = 5 * 24 * 3600_000;
  const days = (n: number) => new Date(Date.now() - n * 24 * 3600_000);
  const reason = (since: Date) => `failing since ${since.toISOString()}`;
  const tally = (endpointId: string, ok: boolean, at: Date) => ({
    workspaceId: ws,
    endpointId,
    lastSuccessAt: ok ? at : null,
    firstFailureAfterSuccess: ok ? null : at,
    buckets: [{ bucket: Math.floor(at.getTime() / 300_000) * 300_000, succeeded: ok ? 1 : 0, failed: ok ? 0 : 1 }],
  });

  it('a failure 5 days after the first one with no success between disables the address; a success keeps it', async () => {
    const failing = (await t.make.endpoint(ws, { failing_since: days(6) })).id as string;
    const recovering = (await t.make.endpoint(ws, { failing_since: days(6) })).id as string;
    const disabled = await endpoints.recordHealth(
      [tally(failing, false, new Date()), tally(recovering, true, new Date())],
      new Date(),
      WINDOW,
      reason,
    );
    expect(disabled).toEqual([{ workspaceId: ws, endpointId: failing }]);
    const rows = await t.db.query(
      `SELECT id, disabled_at IS NOT NULL AS disabled, disabled_reason, failing_since FROM webhook_endpoints WHERE id = ANY($1)`,
      [[failing, recovering]],
    );
    expect(rows.find((r: any) => r.id === failing)).toMatchObject({
      disabled: true,
      disabled_reason: expect.stringContaining('failing since'),
    });
    expect(rows.find((r: any) => r.id === recovering)).toMatchObject({ disabled: false, failing_since: null });
    const rate = await endpoints.successCounts(ws, [failing, recovering], days(1));
    expect(rate.sort((a, b) => a.endpoint_id.localeCompare(b.endpoint_id))).toEqual(
      [
        { endpoint_id: failing, succeeded: 0, failed: 1 },
        { endpoint_id: recovering, succeeded: 1, failed: 0 },
      ].sort((a, b) => a.endpoint_id.localeCompare(b.endpoint_id)),
    );
  });

  it("the worker's health service adds what it tallied on its clock's every HEALTH_FLUSH_MS, not before", async () => {
    const failing = (await t.make.endpoint(ws, { failing_since: new Date(clock.now() - 6 * 24 * 3600_000) }))
      .id as string;
    const health = new EndpointHealthService(endpoints, t.config, clock);
    const flushes = jest.spyOn(endpoints, 'recordHealth');
    health.onModuleInit();
    try {
      health.record(ws, failing, false);
      await clock.advance(HEALTH_FLUSH_MS - 1);
      expect(flushes).not.toHaveBeenCalled();
      await clock.advance(1);
      expect(flushes).toHaveBeenCalledTimes(1);
      expect(await flushes.mock.results[0].value).toEqual([{ workspaceId: ws, endpointId: failing }]);
      const [endpoint] = await t.db.query(
        `SELECT disabled_at, disabled_reason FROM webhook_endpoints WHERE workspace_id = $1 AND id = $2`,
        [ws, failing],
      );
      expect(endpoint.disabled_at).toEqual(new Date(clock.now()));
      expect(endpoint.disabled_reason).toContain('Every delivery failed');
      const [counts] = await endpoints.successCounts(ws, [failing], new Date(clock.now() - 3600_000));
      expect(counts).toEqual({ endpoint_id: failing, succeeded: 0, failed: 1 });
    } finally {
      flushes.mockRestore();
      await health.onApplicationShutdown();
    }
  });
});
