// interface.md "Delivery rules" (Concurrency, Retry body) at the repository: every attempt is claimed
// in one UPDATE before it is sent, and settled only while its claim holds.
import { AttemptRecord, DeliveriesRepository, LOST_ATTEMPT } from '@app/webhooks';
import { useMedium } from './medium';

const t = useMedium();
let ws: string;
let endpoint: string;
let deliveries: DeliveriesRepository;
beforeAll(async () => {
  ws = (await t.make.workspace()).id;
  endpoint = (await t.make.endpoint(ws)).id;
  deliveries = t.get(DeliveriesRepository);
});

const attempt = (number: number, ok: boolean, nextDelayMs: number | null = 60_000): AttemptRecord => ({
  number,
  startedAt: new Date(),
  ok,
  durationMs: 12,
  ...(ok ? { status: 200 } : { status: 500, error: 'HTTP 500' }),
  nextDelayMs,
});
const row = async (id: string) => (await t.db.query(`SELECT state, attempts, claimed_until IS NOT NULL AS claimed FROM deliveries WHERE workspace_id = $1 AND id = $2`, [ws, id]))[0];
const attempts = (id: string) => t.db.query(`SELECT number, status_code, error FROM delivery_attempts WHERE workspace_id = $1 AND delivery_id = $2 ORDER BY number`, [ws, id]);

describe('claims', () => {
  it('a due delivery is claimed once however many ask at the same moment, and the claim counts the attempt', async () => {
    const { id } = await t.make.delivery(ws, endpoint, { body: '{"n":1}' });
    const claims = await Promise.all(Array.from({ length: 5 }, () => deliveries.claim(ws, id)));
    const won = claims.filter((c) => c !== null);
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

  it('a delivery not yet due is not claimed', async () => {
    const { id } = await t.make.delivery(ws, endpoint, { next_attempt_at: new Date(Date.now() + 60_000) });
    expect(await deliveries.claim(ws, id)).toBeNull();
    expect(await row(id)).toEqual({ state: 'pending', attempts: 0, claimed: false });
  });

  it('a claim left by a stopped worker is taken over once it expires, and the lost attempt is logged', async () => {
    const { id } = await t.make.delivery(ws, endpoint, { attempts: 1, claimed_until: new Date(Date.now() - 1000) });
    const claim = await deliveries.claim(ws, id);
    expect(claim).toMatchObject({ number: 2, tookOver: true });
    expect(await attempts(id)).toEqual([{ number: 1, status_code: null, error: LOST_ATTEMPT }]);
  });
});

describe('settlements', () => {
  it('a success settles the delivery as succeeded with its attempt logged', async () => {
    const { id } = await t.make.delivery(ws, endpoint);
    await deliveries.claim(ws, id);
    expect(await deliveries.settle(ws, id, attempt(1, true))).toEqual({ state: 'succeeded', dueInMs: 0 });
    expect(await row(id)).toEqual({ state: 'succeeded', attempts: 1, claimed: false });
    expect(await attempts(id)).toEqual([{ number: 1, status_code: 200, error: null }]);
  });

  it('a failure with attempts left stays pending and is due after the retry wait', async () => {
    const { id } = await t.make.delivery(ws, endpoint);
    await deliveries.claim(ws, id);
    const settled = await deliveries.settle(ws, id, attempt(1, false, 60_000));
    expect(settled?.state).toBe('pending');
    expect(settled!.dueInMs).toBeGreaterThan(50_000);
    expect(settled!.dueInMs).toBeLessThanOrEqual(60_000);
  });

  it('a failure of the last attempt settles the delivery as failed', async () => {
    const { id } = await t.make.delivery(ws, endpoint);
    await deliveries.claim(ws, id);
    expect(await deliveries.settle(ws, id, attempt(1, false, null))).toEqual({ state: 'failed', dueInMs: 0 });
  });

  it('an attempt whose claim was lost settles nothing', async () => {
    const { id } = await t.make.delivery(ws, endpoint);
    expect(await deliveries.settle(ws, id, attempt(1, true))).toBeNull();
    expect(await row(id)).toEqual({ state: 'pending', attempts: 0, claimed: false });
  });

  it('a Retry asked for while an attempt is out keeps the failed delivery due now', async () => {
    const { id } = await t.make.delivery(ws, endpoint);
    await deliveries.claim(ws, id);
    expect(await deliveries.makeDue(ws, id)).toEqual({ attempts: 1, inFlight: true });
    const settled = await deliveries.settle(ws, id, attempt(1, false, null));
    expect(settled).toEqual({ state: 'pending', dueInMs: 0 });
  });
});
