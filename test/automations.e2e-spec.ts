// Automations end to end (docs/graphql.md#automations, docs/rest.md#an-automations-start-address,
// docs/webhooks.md#automation-posts): real receivers on 127.0.0.1, a real SMTP server, the real api and
// worker, PostgreSQL and Redis.
import { createHmac } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { Queue } from 'bullmq';
import { queueConnection, queuePrefix, SweepRegistry } from '@app/platform';
import { ADVANCE_RUN } from '@app/automations';
import { OutboxRelayService } from '@app/outbox';
import { AddressResolver } from '@app/webhooks';
import { createWorker } from '../apps/worker/src/bootstrap';
import { eventually, memberKey, startApp, useApp, useWorkspace } from './harness';
import { allRelayed, isRelayed, relayAgainFrom } from './support/outbox';
import { spawnWorker } from './support/child-worker';
import { receiver } from './support/receiver';
import { useSmtp } from './support/smtp';

const APP_SECRET = 'test-app-secret-0123456789-0123456789';
const sign = (secret: string, raw: string) => 'sha256=' + createHmac('sha256', secret).update(raw).digest('hex');
const stepSecretOf = (workspaceId: string) =>
  'whsec_' + createHmac('sha256', APP_SECRET).update(`step:${workspaceId}`).digest('base64url');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const CREATE = `mutation($input: CreateAutomationInput!) {
  createAutomation(input: $input) { automation { id number name status trigger { kind event stage list } steps { kind url template seconds } } address } }`;
const RUNS = `query($id: ID!) { automation(id: $id) { runs { id status startedAt finishedAt person { id } log { at line } } } }`;
const STATUS = `mutation($id: ID!, $status: String!) { setAutomationStatus(id: $id, status: $status) { id status } }`;

const smtp = useSmtp();
const mails = smtp.received;
const t = useApp({ worker: true, env: () => ({ SMTP_URL: smtp.url, EMAIL_FROM: 'Lifeline <hello@lifeline.test>' }) });
const ws = useWorkspace(t);

async function create(input: Record<string, unknown>, key = ws.secretKey, app = t) {
  const answer = await app.gql(CREATE, { input: { steps: [], ...input } }, key);
  if (answer.errors) throw new Error(JSON.stringify(answer.errors));
  return answer.data.createAutomation as {
    automation: { id: string; number: number; status: string };
    address: string | null;
  };
}
async function running(input: Record<string, unknown>, app = t, key = ws.secretKey) {
  const created = await create(input, key, app);
  await app.gql(STATUS, { id: created.automation.id, status: 'running' }, key);
  return created;
}
const runsOf = async (id: string, app = t, key = ws.secretKey) =>
  (await app.gql(RUNS, { id }, key)).data.automation.runs as any[];
const post = (body: unknown, app = t, key = ws.secretKey) => app.request('POST', '/api/v1/events', { key, body });
const startAt = (address: string, body: unknown, app = t) =>
  app.request('POST', new URL(address).pathname, { raw: typeof body === 'string' ? body : JSON.stringify(body) });
const count = async (table: string, app = t, workspaceId = ws.workspace.id) =>
  Number((await app.db.query(`SELECT count(*) AS n FROM ${table} WHERE workspace_id = $1`, [workspaceId]))[0].n);
const finished = (id: string, n = 1, app = t, key = ws.secretKey, timeoutMs = 10_000) =>
  eventually(async () => {
    const runs = await runsOf(id, app, key);
    return runs.length === n && runs.every((r) => r.status === 'finished' || r.status === 'failed') && runs;
  }, timeoutMs);
const linesOf = (run: { log: Array<{ line: string }> }) => run.log.map((l) => l.line);

describe('GraphQL: owners and admins change automations, members read them', () => {
  it('numbers count 1, 2, 3; a new automation is a draft; the address is answered for a webhook trigger only', async () => {
    const first = await create({ name: 'Welcome', trigger: { kind: 'webhook' } });
    const second = await create({
      name: 'On signup',
      trigger: { kind: 'event', event: 'signup' },
      steps: [{ kind: 'wait', seconds: 60 }],
    });
    const third = await create({ name: 'Any stage', trigger: { kind: 'stage_entered' } });
    expect([first, second, third].map((c) => c.automation.number)).toEqual([1, 2, 3]);
    expect(first.automation.status).toBe('draft');
    expect(first.address).toBe(
      `${t.url}/api/webhooks/automation/${first.automation.id}.${createHmac('sha256', APP_SECRET).update(`automation:${first.automation.id}`).digest('base64url')}`,
    );
    expect(second.address).toBeNull();
    const other = await t.workspace();
    expect((await create({ name: 'Elsewhere', trigger: { kind: 'webhook' } }, other.secretKey)).automation.number).toBe(
      1,
    );
  });

  it('numbers stay consecutive when automations are created at once', async () => {
    const made = await Promise.all(
      Array.from({ length: 6 }, (_, i) => create({ name: `A${i}`, trigger: { kind: 'webhook' } })),
    );
    expect(made.map((m) => m.automation.number).sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('the address appears on automation(id) for owners and admins, never in the list; members read but change nothing', async () => {
    const { automation, address } = await create({ name: 'Hook', trigger: { kind: 'webhook' } });
    const list = await t.gql(
      '{ automations { id number name status address trigger { kind } steps { kind } } }',
      {},
      ws.secretKey,
    );
    expect(list.data.automations).toEqual([
      {
        id: automation.id,
        number: 1,
        name: 'Hook',
        status: 'draft',
        address: null,
        trigger: { kind: 'webhook' },
        steps: [],
      },
    ]);
    const one = await t.gql('query($id: ID!) { automation(id: $id) { address } }', { id: automation.id }, ws.secretKey);
    expect(one.data.automation.address).toBe(address);

    const member = (await memberKey(t, ws, 'dev@example.com')).secretKey;
    expect((await t.gql('{ automations { id name } }', {}, member)).data.automations).toEqual([
      { id: automation.id, name: 'Hook' },
    ]);
    const hidden = await t.gql('query($id: ID!) { automation(id: $id) { address } }', { id: automation.id }, member);
    expect(hidden.errors![0].extensions.code).toBe('forbidden');
    expect(JSON.stringify(hidden)).not.toContain(address!.split('.').pop());
    expect(
      (await t.gql(CREATE, { input: { name: 'x', trigger: { kind: 'webhook' }, steps: [] } }, member)).errors![0]
        .extensions.code,
    ).toBe('forbidden');
    expect((await t.gql(STATUS, { id: automation.id, status: 'running' }, member)).errors![0].extensions.code).toBe(
      'forbidden',
    );
    expect((await t.gql('{ workspace { automationSigningSecret } }', {}, member)).errors![0].extensions.code).toBe(
      'forbidden',
    );

    const admin = (await memberKey(t, ws, 'admin@example.com', 'admin')).secretKey;
    expect(
      (await t.gql('query($id: ID!) { automation(id: $id) { address } }', { id: automation.id }, admin)).data.automation
        .address,
    ).toBe(address);
    expect((await t.gql(STATUS, { id: automation.id, status: 'running' }, admin)).data.setAutomationStatus.status).toBe(
      'running',
    );
  });

  it('updateAutomation changes name, trigger and steps, checked as when created; another workspace gets not_found', async () => {
    const { automation } = await create({ name: 'Old', trigger: { kind: 'webhook' } });
    const UPDATE = `mutation($id: ID!, $input: UpdateAutomationInput!) { updateAutomation(id: $id, input: $input) { name trigger { kind event } steps { kind seconds } } }`;
    const changed = await t.gql(
      UPDATE,
      {
        id: automation.id,
        input: { name: 'New', trigger: { kind: 'event', event: 'purchase' }, steps: [{ kind: 'wait', seconds: 5 }] },
      },
      ws.secretKey,
    );
    expect(changed.data.updateAutomation).toEqual({
      name: 'New',
      trigger: { kind: 'event', event: 'purchase' },
      steps: [{ kind: 'wait', seconds: 5 }],
    });
    expect(
      (await t.gql(UPDATE, { id: automation.id, input: { steps: [{ kind: 'wait', seconds: 0 }] } }, ws.secretKey))
        .errors![0].extensions.code,
    ).toBe('invalid_field');
    const other = await t.workspace();
    expect(
      (await t.gql(UPDATE, { id: automation.id, input: { name: 'Mine' } }, other.secretKey)).errors![0].extensions.code,
    ).toBe('not_found');
    expect(
      (await t.gql(STATUS, { id: automation.id, status: 'running' }, other.secretKey)).errors![0].extensions.code,
    ).toBe('not_found');
    expect((await t.gql(STATUS, { id: automation.id, status: 'on' }, ws.secretKey)).errors![0].extensions.code).toBe(
      'invalid_field',
    );
  });

  it('trigger and steps are checked when saved', async () => {
    const refused = async (input: Record<string, unknown>) =>
      (await t.gql(CREATE, { input: { name: 'x', steps: [], ...input } }, ws.secretKey)).errors?.[0].extensions.code;
    expect(await refused({ trigger: { kind: 'event', event: 'report_viewed' } })).toBe('unknown_event'); // not seen yet
    await post({ type: 'report_viewed', email: 'seen@example.com' });
    expect(await refused({ trigger: { kind: 'event', event: 'report_viewed' } })).toBeUndefined();
    expect(await refused({ trigger: { kind: 'event', event: 'email_sent' } })).toBe('reserved_event_name');
    expect(await refused({ trigger: { kind: 'purchase' } })).toBe('invalid_field');
    expect(await refused({ trigger: { kind: 'stage_entered', stage: 'vip' } })).toBe('invalid_field');
    expect(await refused({ trigger: { kind: 'subscribed', list: 'nope' } })).toBe('unknown_list');
    expect(await refused({ trigger: { kind: 'webhook' }, steps: [{ kind: 'send_email', template: 'missing' }] })).toBe(
      'unknown_template',
    );
    expect(await refused({ trigger: { kind: 'webhook' }, steps: [{ kind: 'wait', seconds: 0 }] })).toBe(
      'invalid_field',
    );
    expect(
      await refused({ trigger: { kind: 'webhook' }, steps: [{ kind: 'wait', seconds: 30 * 24 * 3600 + 1 }] }),
    ).toBe('invalid_field');
    expect(
      await refused({ trigger: { kind: 'webhook' }, steps: [{ kind: 'wait', seconds: 30 * 24 * 3600 }] }),
    ).toBeUndefined();
    expect(
      await refused({
        trigger: { kind: 'webhook' },
        steps: [{ kind: 'http_request', url: 'ftp://hooks.example.com' }],
      }),
    ).toBe('invalid_field');
    expect(await refused({ trigger: { kind: 'webhook' }, steps: [{ kind: 'sms' }] })).toBe('invalid_field');
    expect(await refused({ name: ' ', trigger: { kind: 'webhook' } })).toBe('invalid_field');
    expect(await count('automations')).toBe(2);
  });

  it('workspace{automationSigningSecret} is the derived step secret', async () => {
    const answer = await t.gql('{ workspace { id automationSigningSecret } }', {}, ws.secretKey);
    expect(answer.data.workspace.automationSigningSecret).toBe(stepSecretOf(ws.workspace.id));
  });
});

describe('triggers: each kind starts a run; a paused or draft automation starts none', () => {
  it('an event name, the http_request body and its signature checked independently', async () => {
    const r = await receiver();
    const { automation } = await running({
      name: 'Signup hook',
      trigger: { kind: 'event', event: 'signup' },
      steps: [{ kind: 'http_request', url: `${r.url}/in` }],
    });
    await post({ type: 'identify', email: 'ada@example.com', name: 'Ada' });
    await post({ type: 'signup', email: 'ada@example.com' });
    await eventually(async () => r.received.length === 1);
    const [x] = r.received;
    expect(x.path).toBe('/in');
    expect(x.headers['x-service-signature']).toBe(sign(stepSecretOf(ws.workspace.id), x.raw));
    expect(x.headers['x-service-event']).toBe('automation');
    expect(x.headers['x-service-delivery']).toBe(x.body.id);
    // The same signed post as outgoing webhooks: the Standard Webhooks headers come along.
    expect(x.headers['webhook-id']).toBe(x.body.id);
    expect(x.headers['webhook-signature']).toMatch(/^v1,/);
    expect(Object.keys(x.body)).toEqual(['id', 'type', 'at', 'workspace', 'record', 'data']);
    expect(x.body).toMatchObject({
      type: 'automation',
      workspace: { id: ws.workspace.id, slug: ws.workspace.slug },
      record: { kind: 'person', name: 'Ada', email: 'ada@example.com', stage: 'account' },
      data: { automation: { number: 1, name: 'Signup hook' }, trigger: { kind: 'event', event: 'signup' } },
    });
    expect(x.body.data).toEqual({
      automation: { number: 1, name: 'Signup hook' },
      trigger: { kind: 'event', event: 'signup' },
    });
    const [run] = await finished(automation.id);
    expect(run.status).toBe('finished');
    expect(run.person.id).toBe(x.body.record.id);
    expect(run.log.map((l: any) => l.line)).toEqual([
      'started by event signup',
      `posted to ${new URL(r.url).host}: 200`,
      'finished',
    ]);
    expect(run.finishedAt).not.toBeNull();
    await r.close();
  });

  it('a custom event name, stage_entered (one stage and any), subscribed (one list and any); paused and draft start none', async () => {
    await post({ type: 'report_viewed', email: 'seen@example.com' });
    // Relayed before the automations below run: the relay starts a pass at most every 50 ms, and a
    // happening it reaches once an automation is running starts it, whenever it happened.
    await eventually(() => allRelayed(t.db));
    await t.gql('mutation { createList(input: {address: "news", name: "News"}) { id } }', {}, ws.secretKey);
    await t.gql('mutation { createList(input: {address: "offers", name: "Offers"}) { id } }', {}, ws.secretKey);
    const custom = await running({ name: 'custom', trigger: { kind: 'event', event: 'report_viewed' } });
    const account = await running({ name: 'account', trigger: { kind: 'stage_entered', stage: 'account' } });
    const purchaser = await running({ name: 'purchaser', trigger: { kind: 'stage_entered', stage: 'purchaser' } });
    const anyStage = await running({ name: 'any stage', trigger: { kind: 'stage_entered' } });
    const news = await running({ name: 'news', trigger: { kind: 'subscribed', list: 'news' } });
    const anyList = await running({ name: 'any list', trigger: { kind: 'subscribed' } });
    const paused = await running({ name: 'paused', trigger: { kind: 'event', event: 'signup' } });
    await t.gql(STATUS, { id: paused.automation.id, status: 'paused' }, ws.secretKey);
    const draft = await create({ name: 'draft', trigger: { kind: 'event', event: 'signup' } });

    await post({ type: 'report_viewed', email: 'bo@example.com' });
    await post({ type: 'signup', email: 'bo@example.com' });
    await post({ type: 'subscribe', email: 'bo@example.com', list: 'offers', consent: 'Yes, send me offers.' });
    await finished(custom.automation.id);
    await finished(account.automation.id);
    await finished(anyStage.automation.id);
    const [joined] = await finished(anyList.automation.id);
    await sleep(1_000);
    expect(joined.log[0].line).toBe('started by subscribed offers');
    expect((await runsOf(anyStage.automation.id))[0].log[0].line).toBe('started by stage_entered account');
    expect(await runsOf(news.automation.id)).toEqual([]);
    expect(await runsOf(purchaser.automation.id)).toEqual([]);
    expect(await runsOf(paused.automation.id)).toEqual([]);
    expect(await runsOf(draft.automation.id)).toEqual([]);
    await post({ type: 'subscribe', email: 'bo@example.com', list: 'news', consent: 'Yes, send me news.' });
    await finished(news.automation.id);
    await finished(anyList.automation.id, 2);
  });

  it('one happening relayed twice starts one run', async () => {
    const { automation } = await running({ name: 'once', trigger: { kind: 'event', event: 'purchase' } });
    await post({ type: 'purchase', email: 'twice@example.com' });
    await finished(automation.id);
    const [row] = await t.db.query(`SELECT outbox_id FROM automation_runs WHERE workspace_id = $1`, [ws.workspace.id]);
    await relayAgainFrom(t.db, row.outbox_id);
    await eventually(() => isRelayed(t.db, row.outbox_id));
    await t.worker!.get(OutboxRelayService).relayOnce();
    await sleep(500);
    expect(await runsOf(automation.id)).toHaveLength(1);
  });
});

describe("the automation's own start address", () => {
  it('a running automation answers started; paused and draft answer paused and write nothing', async () => {
    const { automation, address } = await create({ name: 'Hook', trigger: { kind: 'webhook' } });
    const people = await count('people');
    expect(await startAt(address!, { email: 'new@example.com' })).toMatchObject({
      status: 200,
      body: { ok: true, status: 'paused' },
    });
    await t.gql(STATUS, { id: automation.id, status: 'paused' }, ws.secretKey);
    expect(await startAt(address!, { email: 'new@example.com' })).toMatchObject({
      status: 200,
      body: { ok: true, status: 'paused' },
    });
    expect(await count('people')).toBe(people);
    expect(await count('automation_runs')).toBe(0);

    await t.gql(STATUS, { id: automation.id, status: 'running' }, ws.secretKey);
    const started = await startAt(address!, {
      email: 'New@Example.com',
      properties: { plan: 'pro-secret-value', coupon: 'HUSH-42' },
    });
    expect(started).toMatchObject({ status: 200, body: { ok: true, status: 'started' } });
    expect(started.body).toEqual({ ok: true, status: 'started' });
    const [run] = await finished(automation.id);
    expect(run.log.map((l: any) => l.line)).toEqual([
      'started by its address with properties plan, coupon',
      'finished',
    ]);
    // Only the names of properties reach the log, never their values.
    const stored = JSON.stringify(
      await t.db.query(`SELECT log FROM automation_runs WHERE workspace_id = $1`, [ws.workspace.id]),
    );
    expect(stored).not.toMatch(/pro-secret-value|HUSH-42/);
    expect(JSON.stringify(await runsOf(automation.id))).not.toMatch(/pro-secret-value|HUSH-42/);
    // { email } created a person on no list, with no consent, not engaged.
    const [row] = await t.db.query(
      `SELECT id, engaged_at FROM people WHERE workspace_id = $1 AND email = 'new@example.com'`,
      [ws.workspace.id],
    );
    expect(row.id).toBe(run.person.id);
    expect(row.engaged_at).toBeNull();
    expect(await count('subscriptions')).toBe(0);
  });

  it('a bad signature and an unknown automation both answer 404 not_found; so does a trigger that is no longer webhook', async () => {
    const { automation, address } = await running({ name: 'Hook', trigger: { kind: 'webhook' } });
    const path = new URL(address!).pathname;
    const signature = path.split('.').pop()!;
    const tries = [
      path.replace(/\.[^.]+$/, `.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`),
      path.replace(/\.[^.]+$/, ''),
      path.replace(automation.id, 'aut_01J00000000000000000000000'),
      `/api/webhooks/automation/aut_01J00000000000000000000000.${createHmac('sha256', APP_SECRET).update('automation:aut_01J00000000000000000000000').digest('base64url')}`,
    ];
    for (const tried of tries) {
      const answer = await t.request('POST', tried, { raw: JSON.stringify({ email: 'x@example.com' }) });
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ ok: false, error: 'not_found' });
      expect(JSON.stringify(answer.body)).not.toContain(signature);
    }
    await t.gql(
      'mutation($id: ID!) { updateAutomation(id: $id, input: {trigger: {kind: "event", event: "signup"}}) { id } }',
      { id: automation.id },
      ws.secretKey,
    );
    expect((await startAt(address!, { email: 'x@example.com' })).status).toBe(404);
    expect(await count('automation_runs')).toBe(0);
    expect(await count('people')).toBe(0);
  });

  it('anon_id and record only find people: an unknown one answers 404 no_such_person and writes nothing', async () => {
    const { automation, address } = await running({ name: 'Hook', trigger: { kind: 'webhook' } });
    await post({ type: 'pageview', anon_id: 'visitor-1' });
    const [person] = await t.db.query(`SELECT id FROM people WHERE workspace_id = $1`, [ws.workspace.id]);
    for (const body of [{ anon_id: 'visitor-2' }, { record: 'per_01J00000000000000000000000' }]) {
      const answer = await startAt(address!, body);
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ ok: false, error: 'no_such_person' });
    }
    expect(await count('automation_runs')).toBe(0);
    expect(await count('people')).toBe(1);
    expect((await startAt(address!, { anon_id: 'visitor-1', properties: { a: 1 } })).body.status).toBe('started');
    expect((await startAt(address!, { record: person.id })).body.status).toBe('started');
    const runs = await finished(automation.id, 2);
    expect(runs.map((r) => r.person.id)).toEqual([person.id, person.id]);
  });

  it('a body over 8 KB answers 413 too_large, one that is not a JSON object 400 invalid_json; neither writes', async () => {
    const { address } = await running({ name: 'Hook', trigger: { kind: 'webhook' } });
    const big = JSON.stringify({ email: 'big@example.com', properties: { x: 'y'.repeat(8 * 1024) } });
    expect(await startAt(address!, big)).toMatchObject({ status: 413, body: { ok: false, error: 'too_large' } });
    for (const raw of ['{"email":', '[{"email":"a@example.com"}]', '"a@example.com"', '']) {
      expect(await startAt(address!, raw)).toMatchObject({ status: 400, body: { ok: false, error: 'invalid_json' } });
    }
    expect(await startAt(address!, { properties: {} })).toMatchObject({ status: 400, body: { error: 'no_identity' } });
    expect(await count('automation_runs')).toBe(0);
    expect(await count('people')).toBe(0);
  });

  it('600 posts per ten minutes per address, then 429 rate_limited with Retry-After; another address is counted apart', async () => {
    const { address } = await create({ name: 'Busy', trigger: { kind: 'webhook' } });
    const other = await create({ name: 'Quiet', trigger: { kind: 'webhook' } });
    for (let i = 0; i < 600; i += 50) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => startAt(address!, { email: 'a@example.com' })),
      );
      expect(answers.every((a) => a.status === 200)).toBe(true);
    }
    const limited = await startAt(address!, { email: 'a@example.com' });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ ok: false, error: 'rate_limited' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await startAt(other.address!, { email: 'a@example.com' })).status).toBe(200);
  }, 60_000);

  it('a post here starts no outgoing webhooks', async () => {
    const hooks = await receiver();
    await t.gql(
      'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret } }',
      {
        input: { url: hooks.url, triggers: ['event', 'stage_entered', 'subscribed', 'field_changed'] },
      },
      ws.secretKey,
    );
    const { automation, address } = await running({ name: 'Hook', trigger: { kind: 'webhook' } });
    expect((await startAt(address!, { email: 'quiet@example.com', properties: { plan: 'pro' } })).body.status).toBe(
      'started',
    );
    await finished(automation.id);
    await sleep(1_000);
    expect(hooks.received).toHaveLength(0);
    expect(await count('outbox')).toBe(0);
    await hooks.close();
  });
});

describe('steps, run in order by the worker, and their log lines', () => {
  it('http_request: posted (host and status), not retried (a non-2xx; the run goes on), could not post (the cause)', async () => {
    const ok = await receiver(() => 204);
    const failing = await receiver(() => 500);
    const closed = await receiver();
    await closed.close();
    const { automation, address } = await running({
      name: 'Posts',
      trigger: { kind: 'webhook' },
      steps: [
        { kind: 'http_request', url: `${failing.url}/a` },
        { kind: 'http_request', url: `${closed.url}/b` },
        { kind: 'http_request', url: `${ok.url}/c?token=abc` },
      ],
    });
    expect((await startAt(address!, { email: 'posts@example.com' })).body.status).toBe('started');
    const [run] = await finished(automation.id);
    expect(run.status).toBe('finished');
    const host = (url: string) => new URL(url).host;
    expect(linesOf(run)).toEqual([
      'started by its address',
      `not retried: ${host(failing.url)} answered 500`,
      expect.stringMatching(new RegExp(`^could not post to ${host(closed.url)}: .*ECONNREFUSED`)),
      `posted to ${host(ok.url)}: 204`,
      'finished',
    ]);
    expect(run.log.every((l: { at: string }) => !Number.isNaN(Date.parse(l.at)))).toBe(true);
    await sleep(500);
    expect(failing.received).toHaveLength(1); // one attempt, never retried
    expect(ok.received).toHaveLength(1);
    expect(ok.received[0].headers['x-service-signature']).toBe(sign(stepSecretOf(ws.workspace.id), ok.received[0].raw));
    expect(ok.received[0].body.data.trigger).toEqual({ kind: 'webhook' });
    await Promise.all([ok.close(), failing.close()]);
  });

  it('send_email: an engaged person gets the template through SMTP; a refusal (not_engaged) is the line and fails the run there', async () => {
    const r = await receiver();
    await t.gql(
      'mutation($i: CreateTemplateInput!) { createTemplate(input: $i) { id } }',
      {
        i: {
          name: 'welcome',
          subject: 'Welcome {{ person.name }}',
          body: 'Hello **{{ person.name }}**, on {{ properties.plan }}.',
        },
      },
      ws.secretKey,
    );
    await post({ type: 'signup', email: 'ada@example.com' });
    await post({ type: 'identify', email: 'ada@example.com', name: 'Ada' });
    const { automation, address } = await running({
      name: 'Welcome',
      trigger: { kind: 'webhook' },
      steps: [
        { kind: 'send_email', template: 'welcome' },
        { kind: 'http_request', url: r.url },
      ],
    });
    expect((await startAt(address!, { email: 'ada@example.com', properties: { plan: 'gold-plan' } })).body.status).toBe(
      'started',
    );
    const [sent] = await finished(automation.id);
    expect(sent.status).toBe('finished');
    expect(linesOf(sent)[1]).toMatch(/^sent email welcome \(msg_\w+\)$/);
    const mail = await eventually(async () => mails.find((m) => m.raw.includes('Welcome Ada')));
    expect(mail.to).toEqual(['ada@example.com']);
    expect(mail.raw).toContain('<strong>Ada</strong>, on gold-plan.'); // the template reads the run's properties
    expect(JSON.stringify(sent.log)).not.toContain('gold-plan');

    expect((await startAt(address!, { email: 'lurker@example.com' })).body.status).toBe('started');
    const [refused] = await finished(automation.id, 2);
    expect(refused.status).toBe('failed');
    expect(linesOf(refused)).toEqual([
      'started by its address',
      expect.stringMatching(/^email welcome not sent: not_engaged: /),
    ]);
    await sleep(500);
    expect(r.received).toHaveLength(1); // the refused run stopped before its http_request
    expect(mails.filter((m) => m.to.includes('lurker@example.com'))).toHaveLength(0);
    await r.close();
  });

  it('wait: the run is waiting, then goes on to its next step', async () => {
    const r = await receiver();
    const { automation, address } = await running({
      name: 'Later',
      trigger: { kind: 'webhook' },
      steps: [
        { kind: 'wait', seconds: 2 },
        { kind: 'http_request', url: r.url },
      ],
    });
    await startAt(address!, { email: 'later@example.com' });
    const [waiting] = await eventually(async () => {
      const runs = await runsOf(automation.id);
      return runs[0]?.status === 'waiting' && runs;
    });
    expect(linesOf(waiting)).toEqual(['started by its address', expect.stringMatching(/^waiting 2 s, until \d{4}-/)]);
    expect(r.received).toHaveLength(0);
    const [run] = await finished(automation.id);
    expect(linesOf(run)).toEqual([
      'started by its address',
      expect.stringMatching(/^waiting 2 s/),
      'resumed after the wait',
      `posted to ${new URL(r.url).host}: 200`,
      'finished',
    ]);
    expect(r.received).toHaveLength(1);
    await r.close();
  });

  it('the sweep deletes runs and their logs 30 days after they end; a waiting run stays', async () => {
    const { automation, address } = await running({ name: 'Kept', trigger: { kind: 'webhook' } });
    const waiting = await running({
      name: 'Long wait',
      trigger: { kind: 'webhook' },
      steps: [{ kind: 'wait', seconds: 30 * 24 * 3600 }],
    });
    await startAt(address!, { email: 'old@example.com' });
    await startAt(address!, { email: 'recent@example.com' });
    await startAt(waiting.address!, { email: 'old@example.com' });
    const [recent, old] = await finished(automation.id, 2);
    await eventually(async () => (await runsOf(waiting.automation.id))[0]?.status === 'waiting');
    const age = (id: string, days: number) =>
      t.make.age('automation_runs', ['created_at', 'finished_at'], `${days} days`, {
        workspace_id: ws.workspace.id,
        id,
      });
    await age(old.id, 31);
    await age(recent.id, 29);
    await t.make.age('automation_runs', 'created_at', '40 days', {
      workspace_id: ws.workspace.id,
      automation_id: waiting.automation.id,
    });
    await t.worker!.get(SweepRegistry).runAll();
    expect((await runsOf(automation.id)).map((r) => r.id)).toEqual([recent.id]);
    expect(await runsOf(waiting.automation.id)).toHaveLength(1);
  });
});

describe('people', () => {
  it('a run follows its person into a merge', async () => {
    const { automation, address } = await running({
      name: 'Long',
      trigger: { kind: 'webhook' },
      steps: [{ kind: 'wait', seconds: 3600 }],
    });
    await post({ type: 'signup', email: 'kept@example.com' });
    await post({ type: 'pageview', anon_id: 'absorbed-visitor' });
    const [kept] = await t.db.query(`SELECT id FROM people WHERE workspace_id = $1 AND email = 'kept@example.com'`, [
      ws.workspace.id,
    ]);
    expect((await startAt(address!, { anon_id: 'absorbed-visitor' })).body.status).toBe('started');
    const [before] = await eventually(async () => {
      const runs = await runsOf(automation.id);
      return runs[0]?.status === 'waiting' && runs;
    });
    expect(before.person.id).not.toBe(kept.id);
    expect((await post({ type: 'identify', email: 'kept@example.com', anon_id: 'absorbed-visitor' })).body.status).toBe(
      'merged',
    );
    expect((await runsOf(automation.id))[0].person.id).toBe(kept.id);
  });
});

describe('a private address is refused when saved and again at run time (UNSAFE_ALLOW_PRIVATE_TARGETS off)', () => {
  it('refuses http and private addresses when saved; an address that turned private is refused at run time and logged', async () => {
    const strict = await startApp({ worker: true, env: { UNSAFE_ALLOW_PRIVATE_TARGETS: 'false' } });
    const r = await receiver();
    try {
      // This machine has no DNS: the save-time check resolves through a stand-in with a public answer.
      strict.app.get(AddressResolver).resolveHost = async () => [{ address: '93.184.216.34' }];
      const own = await strict.workspace();
      const attempt = (url: string) =>
        strict.gql(
          CREATE,
          { input: { name: 'x', trigger: { kind: 'webhook' }, steps: [{ kind: 'http_request', url }] } },
          own.secretKey,
        );
      for (const url of [
        'http://hooks.example.com/x',
        'https://127.0.0.1/x',
        'https://10.0.0.1/x',
        'https://localhost/x',
        'https://intranet/x',
      ]) {
        expect((await attempt(url)).errors?.[0]).toMatchObject({
          extensions: { code: 'invalid_field' },
          message: expect.stringContaining('steps[0].url'),
        });
      }
      const made = await attempt('https://hooks.example.com/lifeline');
      expect(made.errors).toBeUndefined();
      const { automation, address } = made.data.createAutomation;
      // The address was public when saved; it names a private one by the time the run posts.
      const turned = r.url.replace('http:', 'https:');
      await strict.make.set(
        'automations',
        { steps: JSON.stringify([{ kind: 'http_request', url: turned }]) },
        { workspace_id: own.workspace.id, id: automation.id },
      );
      await strict.gql(STATUS, { id: automation.id, status: 'running' }, own.secretKey);
      expect((await startAt(address, { email: 'strict@example.com' }, strict)).body.status).toBe('started');
      const [run] = await finished(automation.id, 1, strict, own.secretKey);
      expect(linesOf(run)).toEqual([
        'started by its address',
        expect.stringMatching(new RegExp(`^could not post to ${new URL(turned).host}: Use a public address`)),
        'finished',
      ]);
      expect(r.received).toHaveLength(0);
    } finally {
      await r.close();
      await strict.close();
    }
  }, 60_000);
});

describe('nothing is lost', () => {
  it('a wait outlives a SIGKILL of the worker and the loss of its job in Redis, and the run still finishes once', async () => {
    const app = await startApp();
    const r = await receiver();
    let worker: INestApplicationContext | null = null;
    const { child, exited } = spawnWorker(app.config);
    try {
      const own = await app.workspace();
      const { automation, address } = await running(
        {
          name: 'Survivor',
          trigger: { kind: 'webhook' },
          steps: [
            { kind: 'wait', seconds: 3 },
            { kind: 'http_request', url: r.url },
          ],
        },
        app,
        own.secretKey,
      );
      expect((await startAt(address!, { email: 'survivor@example.com' }, app)).body.status).toBe('started');
      // A child worker compiles the whole app as it starts: on a busy machine that takes up to a minute.
      await eventually(
        async () => (await runsOf(automation.id, app, own.secretKey))[0]?.status === 'waiting',
        90_000,
        100,
      );
      child.kill('SIGKILL');
      await exited;
      // Redis restarted empty: the delayed job is gone; the run's state in PostgreSQL is all that is left.
      const connection = queueConnection(app.config);
      const queue = new Queue(ADVANCE_RUN.queue, { connection, prefix: queuePrefix(app.config, ADVANCE_RUN.queue) });
      await queue.obliterate({ force: true });
      await queue.close();
      if ('quit' in connection) await connection.quit(); // a Cluster client BullMQ was given, not one it made
      expect(r.received).toHaveLength(0);

      worker = await createWorker(app.config);
      const [run] = await finished(automation.id, 1, app, own.secretKey, 30_000);
      await sleep(1_000);
      expect(run.status).toBe('finished');
      expect(r.received).toHaveLength(1);
      expect(linesOf(run)).toEqual([
        'started by its address',
        expect.stringMatching(/^waiting 3 s/),
        'resumed after the wait',
        `posted to ${new URL(r.url).host}: 200`,
        'finished',
      ]);
    } finally {
      child.kill('SIGKILL');
      await r.close();
      await worker?.close();
      await app.close();
    }
  }, 180_000);
});
