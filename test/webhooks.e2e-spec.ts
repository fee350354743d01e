// Outgoing webhooks end to end: real receivers on 127.0.0.1, the real api and worker, PostgreSQL and
// Redis (docs/webhooks.md#triggers-and-bodies, docs/webhooks.md#delivery-retries-and-the-log).
// RETRY_UNIT_MS=5 runs the 1, 5, 30, 120, 720-minute schedule in ms.
import { createHmac } from 'node:crypto';
import { createServer as createTcpServer, connect, Socket } from 'node:net';
import { AddressInfo } from 'node:net';
import type { INestApplicationContext } from '@nestjs/common';
import { SweepRegistry } from '@app/platform';
import { AddressResolver, LOST_ATTEMPT } from '@app/webhooks';
import { createWorker } from '../apps/worker/src/bootstrap';
import { eventually, memberKey, startApp, useApp, useWorkspace } from './harness';
import { spawnWorker } from './support/child-worker';
import { receiver } from './support/receiver';

const sign = (secret: string, raw: string) => 'sha256=' + createHmac('sha256', secret).update(raw).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const CREATE = `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id url triggers } secret } }`;
const LOG = `{ webhookEndpoints { id deliveries { id type state attemptCount body attempts { number status bodyExcerpt durationMs error } } } }`;

const t = useApp({ worker: true, env: { RETRY_UNIT_MS: '5' } });
const ws = useWorkspace(t);

async function endpoint(url: string, triggers: string[], app = t, key = ws.secretKey) {
  const answer = await app.gql(CREATE, { input: { url, triggers } }, key);
  if (answer.errors) throw new Error(JSON.stringify(answer.errors));
  return answer.data.createWebhookEndpoint as {
    endpoint: { id: string; url: string; triggers: string[] };
    secret: string;
  };
}
const post = (body: unknown, app = t, key = ws.secretKey) => app.request('POST', '/api/v1/events', { key, body });
const deliveryLog = async (app = t, key = ws.secretKey) =>
  (await app.gql(LOG, {}, key)).data.webhookEndpoints[0].deliveries as any[];
const sendTest = async (endpointId: string) =>
  (
    await t.gql(
      'mutation($id: ID!) { sendTestDelivery(endpointId: $id) { id type state } }',
      { id: endpointId },
      ws.secretKey,
    )
  ).data.sendTestDelivery;

describe('the body and headers of each trigger (Outgoing webhook body, Delivery rules: Headers)', () => {
  it('event, stage_entered, subscribed and field_changed bodies are signed with the secret shown once', async () => {
    const r = await receiver();
    const { secret, endpoint: ep } = await endpoint(`${r.url}/hooks`, [
      'event',
      'stage_entered',
      'subscribed',
      'field_changed',
    ]);
    expect(secret).toMatch(/^whsec_/);
    expect(ep.triggers).toEqual(['event', 'stage_entered', 'subscribed', 'field_changed']);
    await t.gql('mutation { createList(input: {address: "news", name: "News"}) { id } }', {}, ws.secretKey);

    expect((await post({ type: 'signup', email: 'ada@example.com', properties: { plan: 'pro' } })).status).toBe(200);
    await eventually(async () => r.received.length === 2);
    expect(
      (await post({ type: 'subscribe', email: 'ada@example.com', list: 'news', consent: 'Yes, send me the news.' }))
        .status,
    ).toBe(200);
    await eventually(async () => r.received.length === 3);
    await post({ type: 'identify', email: 'ada@example.com', name: 'Ada' });
    await post({ type: 'identify', email: 'ada@example.com', name: 'Ada L.' });
    await eventually(async () =>
      r.received.some((x) => x.body.type === 'field_changed' && x.body.data.to === 'Ada L.'),
    );

    for (const x of r.received) {
      expect(x.path).toBe('/hooks');
      expect(x.headers['x-service-signature']).toBe(sign(secret, x.raw));
      expect(x.headers['x-service-delivery']).toBe(x.body.id);
      expect(x.headers['x-service-event']).toBe(x.body.type);
      expect(x.headers['content-type']).toBe('application/json');
      expect(Object.keys(x.body)).toEqual(['id', 'type', 'at', 'workspace', 'record', 'data']);
      expect(x.body.id).toMatch(/^dlv_/);
      expect(x.body.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(x.body.workspace).toEqual({ id: ws.workspace.id, slug: ws.workspace.slug });
      expect(x.body.record).toMatchObject({ kind: 'person', email: 'ada@example.com' });
      expect(Object.keys(x.body.record).every((k) => ['id', 'kind', 'name', 'email', 'stage'].includes(k))).toBe(true);
    }
    const of = (type: string) => r.received.filter((x) => x.body.type === type).map((x) => x.body);
    const [event] = of('event');
    expect(event.data).toEqual({
      event: 'signup',
      id: expect.any(String),
      occurred_at: expect.any(String),
      properties: { plan: 'pro' },
    });
    expect(of('stage_entered')[0].data).toEqual({ stage: 'account', from: null, object: 'person' });
    expect(of('stage_entered')[0].record.stage).toBe('account');
    // A list join also carries event data; the address hears it once, typed with the most specific name.
    expect(of('subscribed')).toHaveLength(1);
    expect(of('subscribed')[0].data).toEqual({ list: { address: 'news', name: 'News' } });
    expect(of('field_changed').at(-1)).toMatchObject({
      data: { field: 'name', from: 'Ada', to: 'Ada L.' },
      record: { name: 'Ada L.' },
    });
    await r.close();
  });

  it('an address hears only the triggers it chose; the type is still the most specific name', async () => {
    const r = await receiver();
    await endpoint(r.url, ['event']);
    await t.gql('mutation { createList(input: {address: "news", name: "News"}) { id } }', {}, ws.secretKey);
    await post({ type: 'signup', email: 'bo@example.com' });
    await post({ type: 'subscribe', email: 'bo@example.com', list: 'news', consent: 'Yes.' });
    await eventually(async () => r.received.length >= 2);
    await sleep(500);
    // signup (event; its stage_entered is not heard) and the list join, typed subscribed with its own data.
    expect(r.received.map((x) => x.body.type).sort()).toEqual(['event', 'subscribed']);
    await r.close();
  });

  it('Send a test posts a real body of type test with data {}', async () => {
    const r = await receiver();
    const { secret, endpoint: ep } = await endpoint(r.url, ['event']);
    const delivery = await sendTest(ep.id);
    expect(delivery).toMatchObject({ type: 'test' });
    await eventually(async () => r.received.length === 1);
    const [x] = r.received;
    expect(x.body).toMatchObject({
      id: delivery.id,
      type: 'test',
      data: {},
      workspace: { id: ws.workspace.id, slug: ws.workspace.slug },
    });
    expect(x.body.record).toEqual({ id: 'per_test', kind: 'person', name: 'Test person', email: 'test@example.com' });
    expect(x.headers['x-service-signature']).toBe(sign(secret, x.raw));
    await eventually(async () => (await deliveryLog())[0].state === 'succeeded');
    await r.close();
  });
});

describe('Delivery rules: success, failure, retry schedule', () => {
  it('a receiver that fails then succeeds gets the same bytes on the schedule, and the log shows each answer', async () => {
    const r = await receiver((n) => (n <= 2 ? 500 : 200));
    const { secret, endpoint: ep } = await endpoint(r.url, ['event']);
    const times: number[] = [];
    r.received.push = new Proxy(r.received.push, {
      apply: (target, self, args) => (times.push(Date.now()), Reflect.apply(target, self, args)),
    });
    await sendTest(ep.id);
    await eventually(async () => (await deliveryLog())[0].state === 'succeeded');
    expect(r.received).toHaveLength(3);
    expect(new Set(r.received.map((x) => x.raw)).size).toBe(1);
    expect(r.received.every((x) => x.headers['x-service-signature'] === sign(secret, x.raw))).toBe(true);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(5); // 1 unit
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(25); // 5 units
    const [log] = await deliveryLog();
    expect(log.attemptCount).toBe(3);
    expect(log.attempts.map((a: any) => a.status)).toEqual([500, 500, 200]);
    expect(log.attempts[0]).toMatchObject({
      number: 1,
      bodyExcerpt: 'answer 1',
      error: expect.stringContaining('2xx'),
    });
    expect(log.attempts[2].error).toBeNull();
    expect(log.attempts.every((a: any) => typeof a.durationMs === 'number')).toBe(true);
    await r.close();
  });

  it('after the sixth failed attempt the delivery is marked failed', async () => {
    const r = await receiver(() => 503);
    const { endpoint: ep } = await endpoint(r.url, ['event']);
    await sendTest(ep.id);
    await eventually(async () => (await deliveryLog())[0].state === 'failed', 15_000);
    await sleep(300);
    expect(r.received).toHaveLength(6);
    const [log] = await deliveryLog();
    expect(log.attempts.map((a: any) => a.status)).toEqual([503, 503, 503, 503, 503, 503]);
    await r.close();
  });

  it('a redirect is a failure and is not followed', async () => {
    const r = await receiver((n, req, res) => {
      if (req.url === '/elsewhere') return 200;
      if (n === 1) res.setHeader('location', '/elsewhere');
      return n === 1 ? 302 : 200;
    });
    const { endpoint: ep } = await endpoint(`${r.url}/hook`, ['event']);
    await sendTest(ep.id);
    await eventually(async () => (await deliveryLog())[0].state === 'succeeded');
    expect(r.received.map((x) => x.path)).toEqual(['/hook', '/hook']);
    const [log] = await deliveryLog();
    expect(log.attempts[0]).toMatchObject({ status: 302, error: expect.stringContaining('redirect') });
    await r.close();
  });

  it('one attempt gets ten seconds: a receiver that hangs is recorded as a failed attempt with an error', async () => {
    const r = await receiver((n) => (n === 1 ? null : 200));
    const { endpoint: ep } = await endpoint(r.url, ['event']);
    await sendTest(ep.id);
    await eventually(async () => (await deliveryLog())[0].state === 'succeeded', 15_000);
    const [log] = await deliveryLog();
    expect(log.attempts[0].status).toBeNull();
    expect(log.attempts[0].error).toContain('10000 ms');
    expect(log.attempts[0].durationMs).toBeGreaterThanOrEqual(9_900);
    expect(log.attempts[0].durationMs).toBeLessThan(12_000);
    expect(log.attempts[1].status).toBe(200);
    await r.close();
  }, 25_000);
});

describe('Delivery rules: Concurrency (each delivery is claimed before it is sent)', () => {
  it('five simultaneous Retries of a failed delivery send it once', async () => {
    let slow = false;
    const r = await receiver((n, _req, res) => {
      if (!slow) return 500;
      setTimeout(() => res.writeHead(200).end('late'), 300);
    });
    const { endpoint: ep } = await endpoint(r.url, ['event']);
    const { id } = await sendTest(ep.id);
    await eventually(async () => (await deliveryLog())[0].state === 'failed', 15_000);
    slow = true;
    const retries = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.gql('mutation($id: ID!) { retryDelivery(id: $id) { id state } }', { id }, ws.secretKey),
      ),
    );
    expect(retries.every((a) => a.data.retryDelivery.id === id)).toBe(true);
    await eventually(async () => (await deliveryLog())[0].state === 'succeeded');
    await sleep(1_000);
    expect(r.received).toHaveLength(7);
    const [log] = await deliveryLog();
    expect(log.attemptCount).toBe(7);
    expect(log.attempts.at(-1).status).toBe(200);
    await r.close();
  });

  it('a Retry while the attempt is out does not send a second copy when that attempt succeeds', async () => {
    const r = await receiver((_n, _req, res) => void setTimeout(() => res.writeHead(200).end('ok'), 400));
    const { endpoint: ep } = await endpoint(r.url, ['event']);
    const { id } = await sendTest(ep.id);
    await eventually(async () => r.received.length === 1);
    const retry = await t.gql('mutation($id: ID!) { retryDelivery(id: $id) { id } }', { id }, ws.secretKey);
    expect(retry.data.retryDelivery.id).toBe(id);
    await eventually(async () => (await deliveryLog())[0].state === 'succeeded');
    await sleep(1_000);
    expect(r.received).toHaveLength(1);
    await r.close();
  });

  it('a Retry of an unknown delivery answers not_found', async () => {
    const answer = await t.gql('mutation { retryDelivery(id: "dlv_nope") { id } }', {}, ws.secretKey);
    expect(answer.errors![0].extensions.code).toBe('not_found');
  });
});

describe('Outgoing webhooks settings (owners and admins, up to ten, address rule)', () => {
  it('a workspace has at most ten addresses, even when they are added at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        t.gql(CREATE, { input: { url: `http://127.0.0.1:9/${i}`, triggers: ['event'] } }, ws.secretKey),
      ),
    );
    expect(answers.filter((a) => !a.errors)).toHaveLength(10);
    expect(answers.filter((a) => a.errors?.[0].extensions.code === 'limit_reached')).toHaveLength(2);
    const list = await t.gql('{ webhookEndpoints { id } }', {}, ws.secretKey);
    expect(list.data.webhookEndpoints).toHaveLength(10);
    const id = list.data.webhookEndpoints[0].id;
    expect(
      (await t.gql('mutation($id: ID!) { deleteWebhookEndpoint(id: $id) }', { id }, ws.secretKey)).data
        .deleteWebhookEndpoint,
    ).toBe(true);
    expect(
      (await t.gql(CREATE, { input: { url: 'http://127.0.0.1:9/again', triggers: ['event'] } }, ws.secretKey)).errors,
    ).toBeUndefined();
  });

  it('triggers can be changed; unknown triggers are refused with invalid_field', async () => {
    const { endpoint: ep } = await endpoint('http://127.0.0.1:9/x', ['event']);
    const changed = await t.gql(
      'mutation($id: ID!) { updateWebhookEndpoint(id: $id, input: {triggers: ["email_in", "unsubscribed"]}) { triggers } }',
      { id: ep.id },
      ws.secretKey,
    );
    expect(changed.data.updateWebhookEndpoint.triggers).toEqual(['email_in', 'unsubscribed']);
    const bad = await t.gql(CREATE, { input: { url: 'http://127.0.0.1:9/y', triggers: ['purchase'] } }, ws.secretKey);
    expect(bad.errors![0].extensions.code).toBe('invalid_field');
  });

  it('members who are not owners or admins cannot manage addresses, and read them (never the secret)', async () => {
    const member = (await memberKey(t, ws, 'dev@example.com')).secretKey;
    const refused = await t.gql(CREATE, { input: { url: 'http://127.0.0.1:9/z', triggers: ['event'] } }, member);
    expect(refused.errors![0].extensions.code).toBe('forbidden');
    const read = await t.gql('{ webhookEndpoints { id url } }', {}, member);
    expect(read.errors).toBeUndefined();
    expect(read.data.webhookEndpoints).toEqual(
      (await t.gql('{ webhookEndpoints { id url } }', {}, ws.secretKey)).data.webhookEndpoints,
    );
  });

  it('the address rule refuses plain http, private, local and bare addresses when saved, and again at each attempt (UNSAFE_ALLOW_PRIVATE_TARGETS off)', async () => {
    const strict = await startApp({ worker: true, env: { UNSAFE_ALLOW_PRIVATE_TARGETS: 'false' } });
    // Saving resolves the name; this machine has no DNS, so the test stands for it with a public answer.
    strict.app.get(AddressResolver).resolveHost = async () => [{ address: '93.184.216.34' }];
    try {
      const own = await strict.workspace();
      const attempt = (url: string) => strict.gql(CREATE, { input: { url, triggers: ['event'] } }, own.secretKey);
      for (const [url, sentence] of [
        ['http://hooks.example.com/x', 'Use an https:// address'],
        ['https://127.0.0.1/x', 'Use a public address'],
        ['https://10.1.2.3/x', 'Use a public address'],
        ['https://169.254.169.254/latest', 'Use a public address'],
        ['https://100.64.0.1/x', 'Use a public address'],
        ['https://localhost/x', 'Use a public host name'],
        ['https://printer.local/x', 'Use a public host name'],
        ['https://intranet/x', 'Use a full public host name'],
      ]) {
        const answer = await attempt(url);
        expect(answer.errors?.[0]).toMatchObject({
          extensions: { code: 'invalid_field' },
          message: expect.stringContaining(sentence),
        });
      }
      const fine = await attempt('https://hooks.example.com/lifeline');
      expect(fine.errors).toBeUndefined();
      expect(fine.data.createWebhookEndpoint.endpoint.url).toBe('https://hooks.example.com/lifeline');

      // Checked again at every attempt: an address that became private since it was saved is not posted to.
      const r = await receiver();
      const id = fine.data.createWebhookEndpoint.endpoint.id;
      await strict.make.set(
        'webhook_endpoints',
        { url: r.url.replace('http:', 'https:') },
        { workspace_id: own.workspace.id, id },
      );
      await strict.gql('mutation($id: ID!) { sendTestDelivery(endpointId: $id) { id } }', { id }, own.secretKey);
      await eventually(async () => (await deliveryLog(strict, own.secretKey))[0].attempts.length >= 1);
      const [tried] = (await deliveryLog(strict, own.secretKey))[0].attempts;
      expect(tried).toMatchObject({ status: null, error: expect.stringContaining('Use a public address') });
      expect(r.received).toHaveLength(0);
      await r.close();
    } finally {
      await strict.close();
    }
  });
});

describe('Outgoing webhooks settings: who may manage addresses, and whose', () => {
  const UPDATE = 'mutation($id: ID!) { updateWebhookEndpoint(id: $id, input: {triggers: ["event"]}) { id } }';
  const DELETE = 'mutation($id: ID!) { deleteWebhookEndpoint(id: $id) }';
  const RETRY = 'mutation($id: ID!) { retryDelivery(id: $id) { id } }';
  const TEST = 'mutation($id: ID!) { sendTestDelivery(endpointId: $id) { id } }';

  it('a plain member is refused every change and Retry; an admin may manage addresses', async () => {
    const r = await receiver();
    const { endpoint: ep } = await endpoint(r.url, ['event']);
    const delivery = await sendTest(ep.id);
    await eventually(async () => r.received.length === 1);
    const member = (await memberKey(t, ws, 'plain@example.com')).secretKey;
    for (const [query, id] of [
      [UPDATE, ep.id],
      [DELETE, ep.id],
      [RETRY, delivery.id],
      [TEST, ep.id],
    ]) {
      expect((await t.gql(query, { id }, member)).errors?.[0].extensions.code).toBe('forbidden');
    }
    expect(r.received).toHaveLength(1);

    const admin = (await memberKey(t, ws, 'admin@example.com', 'admin')).secretKey;
    expect((await t.gql('{ webhookEndpoints { id } }', {}, admin)).data.webhookEndpoints).toEqual([{ id: ep.id }]);
    expect((await t.gql(UPDATE, { id: ep.id }, admin)).errors).toBeUndefined();
    expect((await t.gql(RETRY, { id: delivery.id }, admin)).errors).toBeUndefined();
    await eventually(async () => r.received.length === 2);
    expect((await t.gql(DELETE, { id: ep.id }, admin)).data.deleteWebhookEndpoint).toBe(true);
    await r.close();
  });

  it('another workspace can neither see nor touch an address or its deliveries (not_found)', async () => {
    const r = await receiver();
    const { endpoint: ep } = await endpoint(r.url, ['event']);
    const delivery = await sendTest(ep.id);
    await eventually(async () => r.received.length === 1);
    const other = await t.workspace();
    expect((await t.gql('{ webhookEndpoints { id } }', {}, other.secretKey)).data.webhookEndpoints).toEqual([]);
    for (const [query, id] of [
      [UPDATE, ep.id],
      [DELETE, ep.id],
      [RETRY, delivery.id],
      [TEST, ep.id],
    ]) {
      expect((await t.gql(query, { id }, other.secretKey)).errors?.[0].extensions.code).toBe('not_found');
    }
    await sleep(300);
    expect(r.received).toHaveLength(1);
    expect(await deliveryLog()).toHaveLength(1);
    await r.close();
  });
});

describe('Delivery rules: the delivery log', () => {
  it('shows the last twenty deliveries of an address, newest first', async () => {
    const r = await receiver();
    const { endpoint: ep } = await endpoint(r.url, ['event']);
    const sent: string[] = [];
    for (let i = 0; i < 25; i++) sent.push((await sendTest(ep.id)).id);
    await eventually(async () => r.received.length === 25);
    const log = await deliveryLog();
    expect(log.map((d) => d.id)).toEqual(sent.slice(5).reverse());
    await r.close();
  });

  it('a receiver that refuses the connection is a failed attempt whose error names the cause', async () => {
    const closed = await receiver();
    const url = closed.url;
    await closed.close();
    const { endpoint: ep } = await endpoint(url, ['event']);
    await sendTest(ep.id);
    await eventually(async () => (await deliveryLog())[0].attempts.length >= 1);
    const [attempt] = (await deliveryLog())[0].attempts;
    expect(attempt).toMatchObject({ number: 1, status: null, bodyExcerpt: null });
    expect(attempt.error).toMatch(/ECONNREFUSED/);
  });

  it('deleting an address deletes its delivery log', async () => {
    const r = await receiver();
    const { endpoint: ep } = await endpoint(r.url, ['event']);
    await sendTest(ep.id);
    await eventually(async () => (await deliveryLog())[0]?.state === 'succeeded');
    const count = async (table: string) =>
      (await t.db.query(`SELECT count(*)::int AS n FROM ${table} WHERE workspace_id = $1`, [ws.workspace.id]))[0].n;
    expect(await count('delivery_attempts')).toBe(1);
    await t.gql('mutation($id: ID!) { deleteWebhookEndpoint(id: $id) }', { id: ep.id }, ws.secretKey);
    expect(await count('deliveries')).toBe(0);
    expect(await count('delivery_attempts')).toBe(0);
    await r.close();
  });

  it('the sweep deletes deliveries after thirty days (Retention)', async () => {
    const r = await receiver();
    const { endpoint: ep } = await endpoint(r.url, ['event']);
    const old = await sendTest(ep.id);
    const recent = await sendTest(ep.id);
    await eventually(async () => r.received.length === 2);
    await t.make.age('deliveries', 'created_at', '31 days', { workspace_id: ws.workspace.id, id: old.id });
    await t.make.age('deliveries', 'created_at', '29 days', { workspace_id: ws.workspace.id, id: recent.id });
    await t.worker!.get(SweepRegistry).runAll();
    expect((await deliveryLog()).map((d) => d.id)).toEqual([recent.id]);
    await r.close();
  });
});

describe('nothing is lost', () => {
  it('a worker killed mid-delivery loses nothing: the next worker sends it, and it is answered once', async () => {
    const app = await startApp({ env: { RETRY_UNIT_MS: '5' } });
    let worker: INestApplicationContext | null = null;
    const r = await receiver((n) => (n === 1 ? null : 200));
    try {
      const own = await app.workspace();
      const { secret } = await endpoint(r.url, ['event'], app, own.secretKey);
      const { child, exited } = spawnWorker(app.config, { RETRY_UNIT_MS: '5' });
      await post({ type: 'pageview', email: 'kill@example.com' }, app, own.secretKey);
      // A child worker compiles the whole app as it starts: on a busy machine that alone takes half a minute.
      await eventually(async () => r.received.length === 1, 60_000);
      child.kill('SIGKILL');
      await exited;

      // The dead worker's claim holds the attempt for 30 seconds (CLAIM_SECONDS), then the poll hands it
      // on: the claim is aged past its end, as if they had gone by.
      expect(
        (
          await app.db.query(`SELECT 1 FROM deliveries WHERE workspace_id = $1 AND claimed_until > now()`, [
            own.workspace.id,
          ])
        ).length,
      ).toBe(1);
      await app.make.age('deliveries', 'claimed_until', '1 second', { workspace_id: own.workspace.id });
      worker = await createWorker(app.config);
      await eventually(async () => (await deliveryLog(app, own.secretKey))[0]?.state === 'succeeded', 50_000, 250);
      await sleep(1_000);
      expect(r.received).toHaveLength(2);
      expect(r.received.filter((x) => x.answered === 200)).toHaveLength(1);
      expect(r.received[1].raw).toBe(r.received[0].raw);
      expect(r.received[1].headers['x-service-signature']).toBe(sign(secret, r.received[1].raw));
      const [log] = await deliveryLog(app, own.secretKey);
      expect(log.attempts).toEqual([
        expect.objectContaining({ number: 1, status: null, error: LOST_ATTEMPT }),
        expect.objectContaining({ number: 2, status: 200 }),
      ]);
    } finally {
      await r.close();
      await worker?.close();
      await app.close();
    }
  }, 120_000);

  it('Redis stopped while events arrive, then started: every delivery still goes out once', async () => {
    // A TCP proxy in front of the shared Redis stands for this service's Redis: closing it stops Redis
    // for the api and the worker alike without disturbing the other test files.
    const sockets = new Set<Socket>();
    const proxy = createTcpServer((client) => {
      const upstream = connect(6379, '127.0.0.1');
      sockets.add(client).add(upstream);
      client.pipe(upstream).pipe(client);
      const end = () => (client.destroy(), upstream.destroy());
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const port = (proxy.address() as AddressInfo).port;
    const stopRedis = () =>
      new Promise<void>(
        (resolve) => (proxy.close(() => resolve()), sockets.forEach((s) => s.destroy()), sockets.clear()),
      );
    const startRedis = () => new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', resolve));

    const app = await startApp({ worker: true, env: { RETRY_UNIT_MS: '5', REDIS_URL: `redis://127.0.0.1:${port}` } });
    // Every first attempt fails, so every delivery needs a retry, and retries wait on the queue.
    const r = await receiver(() =>
      r.received.filter((x) => x.body.id === r.received.at(-1)!.body.id).length === 1 ? 500 : 200,
    );
    try {
      const own = await app.workspace();
      await endpoint(r.url, ['event'], app, own.secretKey);
      await stopRedis();
      for (let i = 0; i < 5; i++) {
        expect((await post({ type: 'pageview', email: `down${i}@example.com` }, app, own.secretKey)).status).toBe(200);
      }
      // The relay and first attempts need only PostgreSQL: the deliveries are stored and tried at once,
      // while the retries they schedule cannot be queued.
      await eventually(async () => r.received.length === 5, 15_000, 100);
      await sleep(2_500);
      expect(r.received).toHaveLength(5);
      const waiting = await app.db.query(`SELECT state, attempts FROM deliveries WHERE workspace_id = $1`, [
        own.workspace.id,
      ]);
      expect(waiting).toHaveLength(5);
      expect(waiting.every((s: { state: string; attempts: number }) => s.state === 'pending' && s.attempts === 1)).toBe(
        true,
      );
      await startRedis();
      await eventually(async () => r.received.length >= 10, 30_000, 100);
      await sleep(3_000);
      const ids = r.received.map((x) => x.body.id);
      expect(ids).toHaveLength(10);
      expect(new Set(ids).size).toBe(5);
      const states = await app.db.query(`SELECT state, attempts FROM deliveries WHERE workspace_id = $1`, [
        own.workspace.id,
      ]);
      expect(
        states.every((s: { state: string; attempts: number }) => s.state === 'succeeded' && s.attempts === 2),
      ).toBe(true);
    } finally {
      await r.close();
      await app.close();
      proxy.close();
      sockets.forEach((s) => s.destroy());
    }
  }, 60_000);
});
