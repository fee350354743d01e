// Delivery rules at the repositories (docs/webhooks.md#delivery-retries-and-the-log): every attempt is claimed
// in one UPDATE before it is sent, and settled only while its claim holds. The graph runs on a ManualClock:
// claims expire and retries fall due when the test moves the time, not after waiting for it.
import { ManualClock } from '@app/platform/manual-clock';
import {
  AttemptRecord,
  CLAIM_SECONDS,
  DeliveriesRepository,
  DeliveryClaimsRepository,
  LOST_ATTEMPT,
} from '@app/webhooks';
import { useMedium } from './medium';

const clock = new ManualClock();
const t = useMedium({ clock });
const CLAIM_MS = CLAIM_SECONDS * 1000;
let ws: string;
let endpoint: string;
let deliveries: DeliveriesRepository;
let claims: DeliveryClaimsRepository;
beforeAll(async () => {
  ws = (await t.make.workspace()).id;
  endpoint = (await t.make.endpoint(ws)).id;
  deliveries = t.get(DeliveriesRepository);
  claims = t.get(DeliveryClaimsRepository);
});

const attempt = (number: number, ok: boolean, nextDelayMs: number | null = 60_000): AttemptRecord => ({
  number,
  startedAt: new Date(clock.now()),
  ok,
  durationMs: 12,
  ...(ok ? { status: 200 } : { status: 500, error: 'HTTP 500' }),
  nextDelayMs,
});
// Outbox ids are unique per endpoint (a second insert of one is a replay and stores nothing): each from
// one counter, never from the clock, which two tests may read in the same millisecond.
let lastOutbox = Date.now() * 1000;
const outboxId = () => String(++lastOutbox);
const row = async (id: string) =>
  (
    await t.db.query(
      `SELECT state, attempts, claimed_until IS NOT NULL AS claimed FROM deliveries WHERE workspace_id = $1 AND id = $2`,
      [ws, id],
    )
  )[0];
const attempts = (id: string) =>
  t.db.query(
    `SELECT number, status_code, error FROM delivery_attempts WHERE workspace_id = $1 AND delivery_id = $2 ORDER BY number`,
    [ws, id],
  );

describe('claims', () => {
  it('a due delivery is claimed once however many ask at the same moment, and the claim counts the attempt', async () => {
    const { id } = await t.make.delivery(ws, endpoint, { body: '{"n":1}' });
    const asked = await Promise.all(Array.from({ length: 5 }, () => claims.claim(ws, id)));
    const won = asked.filter((c) => c !== null);
    expect(won).toEqual([
      {
        number: 1,
        type: 'event',
        body: '{"n":1}',
        endpointId: endpoint,
        url: 'https://receiver.example.com/hook',
        secretSealed: 'sealed',
        previousSecretSealed: null,
        rateLimitPerSecond: null,
        tookOver: false,
      },
    ]);
    expect(await row(id)).toEqual({ state: 'pending', attempts: 1, claimed: true });
  });

  it('a delivery not yet due is not claimed; once the time comes it is', async () => {
    const { id } = await t.make.delivery(ws, endpoint, { next_attempt_at: new Date(clock.now() + 60_000) });
    expect(await claims.claim(ws, id)).toBeNull();
    expect(await row(id)).toEqual({ state: 'pending', attempts: 0, claimed: false });
    await clock.advance(60_000);
    expect(await claims.claim(ws, id)).toMatchObject({ number: 1 });
  });

  it('a claim left by a stopped worker is taken over once it expires, and the lost attempt is logged', async () => {
    const { id } = await t.make.delivery(ws, endpoint, { attempts: 1, claimed_until: new Date(clock.now() + 5_000) });
    expect(await claims.claim(ws, id)).toBeNull(); // still held
    await clock.advance(5_001);
    const claim = await claims.claim(ws, id);
    expect(claim).toMatchObject({ number: 2, tookOver: true });
    expect(await attempts(id)).toEqual([{ number: 1, status_code: null, error: LOST_ATTEMPT }]);
  });
});

describe('storing', () => {
  it('stores every body whole, byte for byte, when rows share their tails (sent once) and when they do not', async () => {
    const stamp = Date.now();
    const tailA = '"type":"event","data":{"name":"é \\"quoted\\" 💡"}}';
    const tailB = '"type":"event","data":{"n":2}}';
    const rows = [
      { id: `dlv_tail_a1_${stamp}`, body: `{"id":"a1",${tailA}`, bodyTail: tailA },
      { id: `dlv_tail_a2_${stamp}`, body: `{"id":"a2",${tailA}`, bodyTail: tailA },
      { id: `dlv_tail_b1_${stamp}`, body: `{"id":"b1",${tailB}`, bodyTail: tailB },
      { id: `dlv_tail_none_${stamp}`, body: '{"id":"none"}' },
      { id: `dlv_tail_wrong_${stamp}`, body: '{"id":"wrong"}', bodyTail: tailB },
    ];
    await t.db.transaction((manager) =>
      deliveries.insert(
        manager,
        rows.map((r) => ({ workspaceId: ws, endpointId: endpoint, outboxId: outboxId(), type: 'event', ...r })),
      ),
    );
    const stored: Array<{ id: string; body: string }> = await t.db.query(
      `SELECT id, body FROM deliveries WHERE workspace_id = $1 AND id = ANY($2::text[])`,
      [ws, rows.map((r) => r.id)],
    );
    expect(Object.fromEntries(stored.map((d) => [d.id, d.body]))).toEqual(
      Object.fromEntries(rows.map((r) => [r.id, r.body])),
    );
  });
});

describe('first attempts claimed as the relay stores them', () => {
  it('a delivery stored claimed counts its first attempt and is claimed by nobody else; given back, it is claimed as attempt 1 again', async () => {
    const id = `dlv_pre_${Date.now()}`;
    const made = await t.db.transaction((manager) =>
      deliveries.insert(manager, [
        {
          workspaceId: ws,
          id,
          endpointId: endpoint,
          outboxId: outboxId(),
          type: 'event',
          body: '{"n":2}',
          claimed: true,
        },
      ]),
    );
    expect(made).toEqual([{ workspace_id: ws, id, state: 'pending', claimed: true }]);
    expect(await row(id)).toEqual({ state: 'pending', attempts: 1, claimed: true });
    expect(await claims.claim(ws, id)).toBeNull();
    expect(await claims.releaseFirst([{ workspaceId: ws, deliveryId: id }])).toEqual([
      { workspaceId: ws, deliveryId: id },
    ]);
    expect(await row(id)).toEqual({ state: 'pending', attempts: 0, claimed: false });
    expect(await claims.releaseFirst([{ workspaceId: ws, deliveryId: id }])).toEqual([]);
    expect(await claims.claim(ws, id)).toMatchObject({ number: 1, tookOver: false, body: '{"n":2}' });
    expect(await claims.settle(ws, id, attempt(1, true))).toEqual({ state: 'succeeded', dueInMs: 0 });
    expect(await attempts(id)).toEqual([{ number: 1, status_code: 200, error: null }]);
  });

  it('a stored-claimed delivery whose worker stopped is taken over once the claim expires, attempt 1 logged as lost', async () => {
    const id = `dlv_pre_lost_${Date.now()}`;
    await t.db.transaction((manager) =>
      deliveries.insert(manager, [
        { workspaceId: ws, id, endpointId: endpoint, outboxId: outboxId(), type: 'event', body: '{}', claimed: true },
      ]),
    );
    await clock.advance(CLAIM_MS);
    expect(await claims.claim(ws, id)).toBeNull(); // held for the whole claim
    await clock.advance(1);
    expect(await claims.claim(ws, id)).toMatchObject({ number: 2, tookOver: true });
    expect(await attempts(id)).toEqual([{ number: 1, status_code: null, error: LOST_ATTEMPT }]);
  });

  it('a delivery stored unclaimed (or failed, for a disabled address) is not claimed by the insert', async () => {
    const id = `dlv_unc_${Date.now()}`;
    const failed = `dlv_fail_${Date.now()}`;
    const made = await t.db.transaction((manager) =>
      deliveries.insert(manager, [
        { workspaceId: ws, id, endpointId: endpoint, outboxId: outboxId(), type: 'event', body: '{}' },
        {
          workspaceId: ws,
          id: failed,
          endpointId: endpoint,
          outboxId: outboxId(),
          type: 'event',
          body: '{}',
          state: 'failed',
          claimed: true,
        },
      ]),
    );
    expect(made.map((d) => d.claimed)).toEqual([false, false]);
    expect(await row(id)).toEqual({ state: 'pending', attempts: 0, claimed: false });
    expect(await row(failed)).toEqual({ state: 'failed', attempts: 0, claimed: false });
  });
});

describe('settlements', () => {
  it('a success settles the delivery as succeeded with its attempt logged', async () => {
    const { id } = await t.make.delivery(ws, endpoint);
    await claims.claim(ws, id);
    expect(await claims.settle(ws, id, attempt(1, true))).toEqual({ state: 'succeeded', dueInMs: 0 });
    expect(await row(id)).toEqual({ state: 'succeeded', attempts: 1, claimed: false });
    expect(await attempts(id)).toEqual([{ number: 1, status_code: 200, error: null }]);
  });

  it('a failure with attempts left stays pending and is due after the retry wait', async () => {
    const { id } = await t.make.delivery(ws, endpoint);
    await claims.claim(ws, id);
    const settled = await claims.settle(ws, id, attempt(1, false, 60_000));
    expect(settled?.state).toBe('pending');
    expect(settled!.dueInMs).toBeGreaterThan(50_000);
    expect(settled!.dueInMs).toBeLessThanOrEqual(60_000);
    expect(settled!.dueInMs).toBe(60_000); // the clock stood still
    await clock.advance(59_999);
    expect(await claims.claim(ws, id)).toBeNull();
    await clock.advance(1);
    expect(await claims.claim(ws, id)).toMatchObject({ number: 2, tookOver: false });
  });

  it('a failure of the last attempt settles the delivery as failed', async () => {
    const { id } = await t.make.delivery(ws, endpoint);
    await claims.claim(ws, id);
    expect(await claims.settle(ws, id, attempt(1, false, null))).toEqual({ state: 'failed', dueInMs: 0 });
  });

  it('an attempt whose claim was lost settles nothing', async () => {
    const { id } = await t.make.delivery(ws, endpoint);
    expect(await claims.settle(ws, id, attempt(1, true))).toBeNull();
    expect(await row(id)).toEqual({ state: 'pending', attempts: 0, claimed: false });
  });

  it('a Retry asked for while an attempt is out keeps the failed delivery due now, even within the same instant', async () => {
    const { id } = await t.make.delivery(ws, endpoint);
    await claims.claim(ws, id);
    expect(await claims.makeDue(ws, id)).toEqual({ attempts: 1, inFlight: true });
    const settled = await claims.settle(ws, id, attempt(1, false, null));
    expect(settled).toEqual({ state: 'pending', dueInMs: 0 });
  });
});
