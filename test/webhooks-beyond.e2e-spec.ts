// Outgoing webhooks beyond the spec (docs/decisions.md#outgoing-webhooks-beyond-the-spec): Standard
// Webhooks headers verified with the standardwebhooks package, secret rotation, endpoint health
// (410 Gone, the failure window), recover, replay and the per-address rate limit. RETRY_UNIT_MS=1 makes
// a minute one millisecond: the retry schedule takes under a second and 5 days take 7.2 seconds. Only
// the failure-window tests run with the default 5 days; elsewhere a year keeps a slow run from
// disabling an address that is meant to fail for a while.
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { eventually, startApp, TestApp, useApp, useWorkspace } from './harness';
import { Received, receiver } from './support/receiver';

const UNIT_MS = 1;
const FIVE_DAYS_MS = 5 * 24 * 60 * UNIT_MS;

const sign = (secret: string, raw: string) => 'sha256=' + createHmac('sha256', secret).update(raw).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const verifies = (secret: string, x: Received) => {
  try {
    new Webhook(secret).verify(x.raw, x.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

const ENDPOINT_FIELDS = 'id url triggers disabledAt disabledReason successRate lastSuccessAt rateLimitPerSecond';
const CREATE = `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { ${ENDPOINT_FIELDS} } secret } }`;

const t = useApp({ worker: true, env: { RETRY_UNIT_MS: String(UNIT_MS), WEBHOOK_DISABLE_AFTER_DAYS: '365' } });
const ws = useWorkspace(t);

async function gql(query: string, variables: Record<string, unknown> = {}) {
  const answer = await t.gql(query, variables, ws.secretKey);
  if (answer.errors) throw new Error(JSON.stringify(answer.errors));
  return answer.data;
}
async function endpoint(url: string, triggers: string[], rateLimitPerSecond?: number) {
  return (await gql(CREATE, { input: { url, triggers, ...(rateLimitPerSecond ? { rateLimitPerSecond } : {}) } }))
    .createWebhookEndpoint as {
    endpoint: { id: string };
    secret: string;
  };
}
const endpointNow = async (id: string) =>
  ((await gql(`{ webhookEndpoints { ${ENDPOINT_FIELDS} } }`)).webhookEndpoints as any[]).find((e) => e.id === id);
const deliveries = async (id: string) =>
  ((await gql('{ webhookEndpoints { id deliveries { id state attemptCount body } } }')).webhookEndpoints as any[]).find(
    (e) => e.id === id,
  ).deliveries as any[];
const post = (body: unknown) => t.request('POST', '/api/v1/events', { key: ws.secretKey, body });
const sendTest = async (endpointId: string) =>
  (await gql('mutation($id: ID!) { sendTestDelivery(endpointId: $id) { id } }', { id: endpointId })).sendTestDelivery
    .id as string;

describe('Standard Webhooks headers on every post', () => {
  it('a receiver verifies each post with the standardwebhooks package, beside the spec headers, and refuses a replay older than five minutes', async () => {
    const r = await receiver();
    const { secret, endpoint: ep } = await endpoint(r.url, ['event']);
    expect((await post({ type: 'signup', email: 'ada@example.com' })).status).toBe(200);
    await sendTest(ep.id);
    await eventually(async () => r.received.length === 2);
    for (const x of r.received) {
      expect(verifies(secret, x)).toBe(true);
      expect(x.headers['webhook-id']).toBe(x.body.id);
      expect(x.headers['webhook-id']).toBe(x.headers['x-service-delivery']);
      expect(Math.abs(Number(x.headers['webhook-timestamp']) - x.at / 1000)).toBeLessThan(5);
      expect(x.headers['x-service-signature']).toBe(sign(secret, x.raw));
      expect(x.headers['x-service-event']).toBe(x.body.type);
    }
    // The same post replayed to the receiver six minutes later is refused; four minutes later it still holds.
    const [captured] = r.received;
    const now = Date.now();
    const later = jest.spyOn(Date, 'now');
    try {
      later.mockReturnValue(now + 4 * 60_000);
      expect(verifies(secret, captured)).toBe(true);
      later.mockReturnValue(now + 6 * 60_000);
      expect(() => new Webhook(secret).verify(captured.raw, captured.headers as Record<string, string>)).toThrow(
        /too old/,
      );
    } finally {
      later.mockRestore();
    }
    // Another secret, or a changed body, does not verify.
    expect(verifies('whsec_' + Buffer.alloc(24, 7).toString('base64'), captured)).toBe(false);
    expect(verifies(secret, { ...captured, raw: captured.raw.replace('"type"', '"type" ') })).toBe(false);
    await r.close();
  });

  it('a retry is signed again with a new timestamp over the same body bytes', async () => {
    const r = await receiver((n) => (n <= 6 ? 500 : 200));
    const { secret, endpoint: ep } = await endpoint(r.url, ['event']);
    const id = await sendTest(ep.id);
    await eventually(async () => (await deliveries(ep.id))[0].state === 'failed');
    await sleep(1_100);
    await gql('mutation($id: ID!) { retryDelivery(id: $id) { id } }', { id });
    await eventually(async () => r.received.length === 7);
    expect(new Set(r.received.map((x) => x.raw)).size).toBe(1);
    expect(r.received.every((x) => verifies(secret, x))).toBe(true);
    const stamps = r.received.map((x) => Number(x.headers['webhook-timestamp']));
    expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
    expect(stamps[6]).toBeGreaterThan(stamps[0]);
    expect(new Set(r.received.map((x) => x.headers['webhook-signature'])).size).toBeGreaterThan(1);
    await r.close();
  });

  it('after rotateWebhookSecret both secrets verify for the overlap, then only the new one', async () => {
    const r = await receiver();
    const { secret: before, endpoint: ep } = await endpoint(r.url, ['event']);
    const { secret: after } = (
      await gql('mutation($id: ID!) { rotateWebhookSecret(endpointId: $id) { secret } }', { id: ep.id })
    ).rotateWebhookSecret;
    expect(after).toMatch(/^whsec_/);
    expect(after).not.toBe(before);
    await sendTest(ep.id);
    await eventually(async () => r.received.length === 1);
    const [during] = r.received;
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifies(after, during)).toBe(true);
    expect(verifies(before, during)).toBe(true);
    // X-Service-Signature carries one HMAC: the previous secret's, until the overlap ends.
    expect(during.headers['x-service-signature']).toBe(sign(before, during.raw));

    // The 24 hours pass.
    await t.make.age('webhook_endpoints', 'previous_secret_until', '1 second', {
      workspace_id: ws.workspace.id,
      id: ep.id,
    });
    await sendTest(ep.id);
    await eventually(async () => r.received.length === 2);
    const past = r.received[1];
    expect(String(past.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifies(after, past)).toBe(true);
    expect(verifies(before, past)).toBe(false);
    expect(past.headers['x-service-signature']).toBe(sign(after, past.raw));

    const unknown = await t.gql(
      'mutation { rotateWebhookSecret(endpointId: "whe_nope") { secret } }',
      {},
      ws.secretKey,
    );
    expect(unknown.errors![0].extensions.code).toBe('not_found');
    await r.close();
  });
});

describe('endpoint health', () => {
  it('a 410 Gone disables the address at once; nothing more is sent until it is enabled; its deliveries wait as failed', async () => {
    let gone = true;
    const r = await receiver(() => (gone ? 410 : 200));
    const { endpoint: ep } = await endpoint(r.url, ['event']);
    const first = await sendTest(ep.id);
    await eventually(async () => (await endpointNow(ep.id)).disabledAt);
    const disabled = await endpointNow(ep.id);
    expect(disabled.disabledReason).toContain('410');
    await eventually(async () => (await deliveries(ep.id)).find((d) => d.id === first)?.state === 'failed');
    expect((await deliveries(ep.id)).find((d) => d.id === first).attemptCount).toBe(1);

    // An event while disabled makes a failed delivery and sends nothing.
    await post({ type: 'signup', email: 'gone@example.com' });
    await eventually(async () => (await deliveries(ep.id)).length === 2);
    await sleep(300);
    expect(r.received).toHaveLength(1);
    expect((await deliveries(ep.id)).map((d) => d.state)).toEqual(['failed', 'failed']);
    const refused = await t.gql(
      'mutation($id: ID!) { sendTestDelivery(endpointId: $id) { id } }',
      { id: ep.id },
      ws.secretKey,
    );
    expect(refused.errors![0].extensions.code).toBe('conflict');
    expect(refused.errors![0].message).toContain('enableWebhookEndpoint');

    gone = false;
    const enabled = (
      await gql(`mutation($id: ID!) { enableWebhookEndpoint(id: $id) { ${ENDPOINT_FIELDS} } }`, { id: ep.id })
    ).enableWebhookEndpoint;
    expect(enabled).toMatchObject({ disabledAt: null, disabledReason: null });
    const queued = (
      await gql('mutation($id: ID!, $since: DateTime!) { recoverDeliveries(endpointId: $id, since: $since) }', {
        id: ep.id,
        since: new Date(0).toISOString(),
      })
    ).recoverDeliveries;
    expect(queued).toBe(2);
    await eventually(async () => (await deliveries(ep.id)).every((d) => d.state === 'succeeded'));
    expect(r.received).toHaveLength(3);
    // Health counts are written every 2 s: wait for the last attempt's count, then the rate is exact.
    await eventually(async () => Math.abs((await endpointNow(ep.id)).successRate - 2 / 3) < 1e-9, 10_000);
    const health = await endpointNow(ep.id);
    expect(health.lastSuccessAt).toBeTruthy();
    expect(health.successRate).toBeCloseTo(2 / 3);
    await r.close();
  });
});

describe('endpoint health: the 5-day failure window', () => {
  let main: TestApp;
  beforeAll(async () => {
    main = { ...t };
    Object.assign(t, await startApp({ worker: true, env: { RETRY_UNIT_MS: String(UNIT_MS) } }));
  });
  afterAll(async () => {
    await t.close();
    Object.assign(t, main);
  });

  it('an address whose every delivery failed for 5 days (test unit) is disabled, with the reason and time', async () => {
    const r = await receiver(() => 500);
    const { endpoint: ep } = await endpoint(r.url, ['event']);
    let disabledAt: string | null = null;
    const until = Date.now() + 30_000;
    while (!disabledAt && Date.now() < until) {
      // Refused (conflict) once the address is disabled: the check below then sees it.
      await t.gql('mutation($id: ID!) { sendTestDelivery(endpointId: $id) { id } }', { id: ep.id }, ws.secretKey);
      await sleep(500);
      disabledAt = (await endpointNow(ep.id)).disabledAt;
    }
    expect(disabledAt).toBeTruthy();
    const health = await endpointNow(ep.id);
    expect(health.disabledReason).toMatch(/^Every delivery failed for 5 days/);
    expect(health.successRate).toBe(0);
    expect(health.lastSuccessAt).toBeNull();
    // Not before the window: the first failure was at least 5 days (test unit) earlier.
    expect(new Date(disabledAt!).getTime() - r.received[0].at).toBeGreaterThanOrEqual(FIVE_DAYS_MS - 1_000);
    const sent = r.received.length;
    await sendTest(ep.id).catch(() => undefined); // refused: disabled
    await post({ type: 'signup', email: 'late@example.com' });
    await sleep(1_000);
    expect(r.received).toHaveLength(sent);
    await r.close();
  }, 45_000);

  it('a success within the window keeps the address enabled', async () => {
    let n = 0;
    const r = await receiver(() => (++n % 8 === 0 ? 200 : 500));
    const { endpoint: ep } = await endpoint(r.url, ['event']);
    const started = Date.now();
    while (Date.now() - started < FIVE_DAYS_MS + 3_000) {
      await sendTest(ep.id);
      await sleep(500);
    }
    const health = await endpointNow(ep.id);
    expect(health.disabledAt).toBeNull();
    expect(health.lastSuccessAt).toBeTruthy();
    expect(health.successRate).toBeGreaterThan(0);
    expect(health.successRate).toBeLessThan(1);
    await r.close();
  }, 45_000);
});

describe('recover and replay', () => {
  it('recoverDeliveries sends exactly the failed deliveries since a time, once each, in order', async () => {
    let failing = true;
    const r = await receiver(() => (failing ? 500 : 200));
    const { endpoint: ep } = await endpoint(r.url, ['event']);
    const failedBefore = [await sendTest(ep.id), await sendTest(ep.id)];
    await eventually(async () => (await deliveries(ep.id)).every((d) => d.state === 'failed'));
    await sleep(20);
    const since = new Date().toISOString();
    const failedAfter: string[] = [];
    for (let i = 0; i < 4; i++) failedAfter.push(await sendTest(ep.id));
    await eventually(async () => (await deliveries(ep.id)).every((d) => d.state === 'failed'));
    failing = false;
    const succeeded = await sendTest(ep.id);
    await eventually(async () => (await deliveries(ep.id)).find((d) => d.id === succeeded)?.state === 'succeeded');
    const before = r.received.length;

    const recover = (s: string) =>
      gql('mutation($id: ID!, $since: DateTime!) { recoverDeliveries(endpointId: $id, since: $since) }', {
        id: ep.id,
        since: s,
      });
    expect((await recover(since)).recoverDeliveries).toBe(4);
    await eventually(async () =>
      (await deliveries(ep.id)).filter((d) => failedAfter.includes(d.id)).every((d) => d.state === 'succeeded'),
    );
    await sleep(500);
    const resent = r.received.slice(before).map((x) => x.body.id);
    expect(resent).toEqual(failedAfter);
    // Same bytes as before, as the next attempt.
    const log = await deliveries(ep.id);
    expect(log.filter((d) => failedAfter.includes(d.id)).every((d) => d.attemptCount === 7)).toBe(true);
    expect(log.filter((d) => failedBefore.includes(d.id)).every((d) => d.state === 'failed')).toBe(true);
    // Nothing failed since then any more: a second recovery queues nothing.
    expect((await recover(since)).recoverDeliveries).toBe(0);
    await sleep(300);
    expect(r.received.length).toBe(before + 4);
    await r.close();
  });

  it('replayEvents sends the happenings of a window again as new deliveries', async () => {
    const r = await receiver();
    const { secret, endpoint: ep } = await endpoint(r.url, ['event']);
    await post({ type: 'signup', email: 'one@example.com' });
    await eventually(async () => r.received.length === 1);
    await sleep(20);
    const since = new Date().toISOString();
    await post({ type: 'signup', email: 'two@example.com' });
    await post({ type: 'signup', email: 'three@example.com' });
    await eventually(async () => r.received.length === 3);
    await sleep(20);
    const until = new Date().toISOString();
    await post({ type: 'signup', email: 'four@example.com' });
    await eventually(async () => r.received.length === 4);

    const replay = (s: string, u: string) =>
      t.gql(
        'mutation($id: ID!, $s: DateTime!, $u: DateTime!) { replayEvents(endpointId: $id, since: $s, until: $u) }',
        { id: ep.id, s, u },
        ws.secretKey,
      );
    expect((await replay(since, until)).data.replayEvents).toBe(2);
    await eventually(async () => r.received.length === 6);
    const originals = r.received.slice(1, 3);
    const replayed = r.received.slice(4);
    expect(replayed.map((x) => x.body.record.email)).toEqual(['two@example.com', 'three@example.com']);
    expect(replayed.map((x) => x.body.data)).toEqual(originals.map((x) => x.body.data));
    expect(replayed.every((x) => x.body.type === 'event' && verifies(secret, x))).toBe(true);
    expect(replayed.map((x) => x.body.id).some((id) => originals.some((o) => o.body.id === id))).toBe(false);

    const tooOld = await replay(new Date(Date.now() - 31 * 24 * 3600_000).toISOString(), until);
    expect(tooOld.errors![0].extensions.code).toBe('invalid_field');
    expect(tooOld.errors![0].message).toContain('30 days');
    const backwards = await replay(until, since);
    expect(backwards.errors![0].extensions.code).toBe('invalid_field');
    await r.close();
  });
});

describe('per-address rate limit', () => {
  it('a rate of 5 per second holds under a burst of 100, and none is lost', async () => {
    const r = await receiver();
    const { endpoint: ep } = await endpoint(r.url, ['event'], 5);
    expect((await endpointNow(ep.id)).rateLimitPerSecond).toBe(5);
    const events = Array.from({ length: 100 }, (_, i) => ({ type: 'pageview', email: `burst${i}@example.com` }));
    expect((await post({ events })).status).toBe(200);
    await eventually(async () => r.received.length >= 100, 60_000, 200);
    await sleep(500);
    expect(r.received).toHaveLength(100);
    expect(new Set(r.received.map((x) => x.body.id)).size).toBe(100);
    const at = r.received.map((x) => x.at).sort((a, b) => a - b);
    // Posts start at most five in any second (on Redis's clock). The receiver, api and worker share this
    // process's event loop, so a post may arrive late, which only pushes arrivals apart, except that a
    // late post bunches with the ones after it. So the check is cumulative from the first arrival: the
    // k-th arrives no sooner than k/5 seconds after it (300 ms for the first post's own latency). A limit
    // of 6 per second fails it at the sixth post; 100 posts take at least 19 seconds.
    for (let k = 0; k < at.length; k++) expect(at[k] - at[0]).toBeGreaterThanOrEqual(Math.floor(k / 5) * 1000 - 300);
    expect(at[99] - at[0]).toBeGreaterThanOrEqual(19 * 1000 - 300);
    const log = await deliveries(ep.id);
    expect(log.every((d) => d.state === 'succeeded' && d.attemptCount === 1)).toBe(true);

    // The limit can be changed and removed; a bad one is refused.
    const update = (v: unknown) =>
      t.gql(
        `mutation($id: ID!, $v: Int) { updateWebhookEndpoint(id: $id, input: {rateLimitPerSecond: $v}) { rateLimitPerSecond } }`,
        { id: ep.id, v },
        ws.secretKey,
      );
    expect((await update(0)).errors![0].extensions.code).toBe('invalid_field');
    expect((await update(20)).data.updateWebhookEndpoint.rateLimitPerSecond).toBe(20);
    expect((await update(null)).data.updateWebhookEndpoint.rateLimitPerSecond).toBeNull();
    await r.close();
  }, 60_000);
});
