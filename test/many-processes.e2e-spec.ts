// Stateless shown: three api and two worker processes (separate OS processes, as
// production runs them) on one PostgreSQL database and one Redis prefix, posts spread across the apis,
// and every rule that could depend on a process's memory checked across them: rate limits (global
// within the tolerance of docs/decisions.md#rate-limits-counted-in-process), a revoked key and a
// removed member, idempotency, one delivery per happening per address, one automation run per
// happening, one relay and one minute sweep for both workers, and a worker killed mid-load.
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { bullConnection, freePort, SWEEP_JOB, SWEEP_SCHEDULE } from '@app/platform';
import { LOST_ATTEMPT } from '@app/webhooks';
import { Factories } from './factories';
import { ADMIN_TOKEN, dropDatabase, eventually, testConfig } from './harness';
import { run, Running } from './support/processes';
import { receiver } from './support/receiver';
import { cloneTemplate } from './support/template';

const ROOT = join(__dirname, '..');
const APIS = 3;
const WORKERS = 2;
/** The 'server' limit (LIMITS) and the most P processes may admit past it: P tenths (LOCAL_SHARE). */
const LIMIT = 600;
const TOLERANCE = APIS * LIMIT * 0.1;

const config = { env: {} as Record<string, string>, urls: [] as string[], database: '' };
const apis: Running[] = [];
const workers: Running[] = [];
/** Reads to check (and t.make's aging, below). */
let db: DataSource;
/** What the load left for the last test: its workspace and how many purchases it posted (and `steps`, its automation step's receiver). */
const loaded = { workspaceId: '', purchases: 0 };
let steps: Awaited<ReturnType<typeof receiver>>;
/** t.make over a plain connection: only its aging (time passing) is used here, which needs no repository. */
const make = () =>
  new Factories(db, () => {
    throw new Error('no repositories here');
  });

function start(app: 'api' | 'worker', port?: number): Running {
  // dist/ (scripts/run.js compiles what changed first): five processes each compiling the whole app with swc would take minutes here.
  return run(process.execPath, ['scripts/run.js', `apps/${app}/src/main`], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...config.env,
      ...(port ? { PORT: String(port), BASE_URL: `http://127.0.0.1:${port}` } : {}),
    },
  });
}

async function call<T = any>(
  api: number,
  method: string,
  path: string,
  key: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const response = await fetch(config.urls[api % APIS] + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}
async function gql(api: number, query: string, variables: Record<string, unknown>, key: string) {
  const { body } = await call(api, 'POST', '/graphql', key, { query, variables });
  return body as { data: any; errors?: Array<{ extensions: { code: string } }> };
}
async function must(api: number, query: string, variables: Record<string, unknown>, key: string) {
  const answer = await gql(api, query, variables, key);
  if (answer.errors) throw new Error(JSON.stringify(answer.errors));
  return answer.data;
}
const post = (api: number, key: string, body: unknown) => call(api, 'POST', '/api/v1/events', key, body);
const rows = (sql: string, params: unknown[] = []): Promise<any[]> => db.query(sql, params);
const count = async (sql: string, params: unknown[] = []) => Number((await rows(sql, params))[0].n);

async function workspace(slug: string) {
  const made = await must(
    0,
    'mutation($i: CreateWorkspaceInput!) { createWorkspace(input: $i) { workspace { id } secretKey } }',
    { i: { slug, owner: `owner@${slug}.test` } },
    ADMIN_TOKEN,
  );
  return { id: made.createWorkspace.workspace.id as string, secretKey: made.createWorkspace.secretKey as string };
}
async function key(api: number, owner: string, member: string) {
  return (await must(api, 'mutation($m: String!) { createKey(member: $m) { keyId secretKey } }', { m: member }, owner))
    .createKey as { keyId: string; secretKey: string };
}

/** Runs `n` calls, `lanes` at a time, call i going to api i mod APIS. */
async function spread<T>(n: number, lanes: number, one: (i: number) => Promise<T>): Promise<T[]> {
  const answers: T[] = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      for (let i = next++; i < n; i = next++) answers[i] = await one(i);
    }),
  );
  return answers;
}

beforeAll(async () => {
  const { config: base, database } = await testConfig();
  config.database = database;
  config.env = {
    NODE_ENV: 'test',
    APP_SECRET: base.appSecret,
    ADMIN_TOKEN,
    DATABASE_URL: base.databaseUrl,
    REDIS_URL: base.redisUrl,
    REDIS_PREFIX: base.redisPrefix,
    UNSAFE_ALLOW_PRIVATE_TARGETS: 'true',
    LOG_LEVEL: 'warn',
  };
  await cloneTemplate(database);
  require(join(ROOT, 'scripts/build')).build({ changed: true });
  const ports = await Promise.all(Array.from({ length: APIS }, () => freePort()));
  config.urls = ports.map((port) => `http://127.0.0.1:${port}`);
  apis.push(...ports.map((port) => start('api', port)));
  workers.push(...Array.from({ length: WORKERS }, () => start('worker')));
  await Promise.all([
    ...apis.map((a) => a.waitFor('api listening', 80_000)),
    ...workers.map((w) => w.waitFor('worker started', 80_000)),
  ]);
  db = await new DataSource({ type: 'postgres', url: base.databaseUrl }).initialize();
}, 120_000);

afterAll(async () => {
  const all = [...apis, ...workers];
  for (const p of all) p.child.kill('SIGTERM');
  const stopped = Promise.all(all.map((p) => p.exited));
  const late = setTimeout(() => all.forEach((p) => p.child.kill('SIGKILL')), 10_000);
  await stopped;
  clearTimeout(late);
  await steps?.close();
  await db?.destroy();
  await dropDatabase(config.database);
}, 30_000);

it('the demo workspace is made once, whichever api starts first', async () => {
  expect(await count(`SELECT count(*) AS n FROM workspaces WHERE slug = 'demo'`)).toBe(1);
});

it('one slug asked of every api at once makes one workspace; the others are refused with conflict, not a 500', async () => {
  const answers = await spread(APIS * 3, APIS * 3, (i) =>
    gql(
      i,
      'mutation($i: CreateWorkspaceInput!) { createWorkspace(input: $i) { workspace { id } } }',
      { i: { slug: 'same-slug', owner: `owner${i}@same.test` } },
      ADMIN_TOKEN,
    ),
  );
  expect(answers.filter((a) => !a.errors)).toHaveLength(1);
  expect(answers.filter((a) => a.errors).map((a) => a.errors![0].extensions.code)).toEqual(
    Array.from({ length: APIS * 3 - 1 }, () => 'conflict'),
  );
  expect(await count(`SELECT count(*) AS n FROM workspaces WHERE slug = 'same-slug'`)).toBe(1);
});

it('under load, with a worker killed (SIGKILL) part way: every accepted post is recorded and each happening delivered once per address; the relay and the minute sweep ran once for both workers', async () => {
  const posts = 300;
  const hooks = await receiver();
  steps = await receiver();
  try {
    const ws = await workspace('load');
    const keys = [ws.secretKey, (await key(0, ws.secretKey, 'second@load.test')).secretKey];
    // Two addresses: each happening must reach each once.
    for (const path of ['/a', '/b']) {
      await must(
        0,
        `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }`,
        { input: { url: hooks.url + path, triggers: ['event'] } },
        ws.secretKey,
      );
    }
    const automation = await must(
      1,
      `mutation($input: CreateAutomationInput!) { createAutomation(input: $input) { automation { id } } }`,
      {
        input: {
          name: 'On purchase',
          trigger: { kind: 'event', event: 'purchase' },
          steps: [{ kind: 'http_request', url: steps.url }],
        },
      },
      ws.secretKey,
    );
    const automationId = automation.createAutomation.automation.id as string;
    loaded.workspaceId = ws.id;
    await must(
      2,
      `mutation($id: ID!) { setAutomationStatus(id: $id, status: "running") { id } }`,
      { id: automationId },
      ws.secretKey,
    );

    let accepted = 0;
    const killed = workers[0];
    const answers = await spread(posts, 12, async (i) => {
      if (accepted >= posts / 3 && !killed.child.killed) killed.child.kill('SIGKILL'); // mid-load, deliveries in flight
      const type = i % 5 === 0 ? 'purchase' : 'pageview';
      const answer = await post(i, keys[i % 2], { type, email: `p${i % 60}@load.test`, properties: { n: i } });
      if (answer.status === 200) accepted++;
      return answer;
    });
    expect(await killed.exited).toMatchObject({ signal: 'SIGKILL' });
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));

    // Every accepted post is recorded.
    const recorded = await rows(
      `SELECT (properties->>'n')::int AS n, type FROM events WHERE workspace_id = $1 AND properties ? 'n'`,
      [ws.id],
    );
    expect(recorded.map((r) => r.n).sort((a, b) => a - b)).toEqual(Array.from({ length: posts }, (_, i) => i));
    loaded.purchases = recorded.filter((r) => r.type === 'purchase').length;

    // The dead worker's delivery claims last 30 s: once all else is settled, aged past their end as if that time had gone by.
    const unsettled = () =>
      count(`SELECT count(*) AS n FROM deliveries WHERE workspace_id = $1 AND state <> 'succeeded'`, [ws.id]);
    await eventually(
      async () =>
        (await unsettled()) ===
        (await count(
          `SELECT count(*) AS n FROM deliveries WHERE workspace_id = $1 AND state <> 'succeeded' AND claimed_until > now()`,
          [ws.id],
        )),
      30_000,
      250,
    );
    await make().age('deliveries', 'claimed_until', '1 second', { workspace_id: ws.id });

    // Every delivery made: one per happening per address, each to its own address, all answered.
    await eventually(
      async () =>
        (await unsettled()) === 0 &&
        (await count(`SELECT count(*) AS n FROM deliveries WHERE workspace_id = $1`, [ws.id])) === 2 * posts,
      40_000,
      250,
    );
    const byPost = new Map<string, Set<string>>();
    for (const x of hooks.received) {
      const place = `${x.path} ${x.body.data.properties.n}`;
      byPost.set(place, (byPost.get(place) ?? new Set()).add(x.body.id));
    }
    expect(byPost.size).toBe(2 * posts);
    expect([...byPost.values()].every((ids) => ids.size === 1)).toBe(true);
    // A post the receiver got twice is one the killed worker sent without recording (Standard Webhooks: the same id, for the receiver to drop).
    const lost = new Set(
      (
        await rows(`SELECT delivery_id FROM delivery_attempts WHERE workspace_id = $1 AND error = $2`, [
          ws.id,
          LOST_ATTEMPT,
        ])
      ).map((r) => r.delivery_id),
    );
    const times = new Map<string, number>();
    for (const x of hooks.received) times.set(x.body.id, (times.get(x.body.id) ?? 0) + 1);
    expect([...times].filter(([id, n]) => n > (lost.has(id) ? 2 : 1))).toEqual([]);

    // The relay: both workers kicked by every api, one pass at a time (the mark's row lock); a second
    // relay of a happening would have failed on the unique deliveries and runs and said so.
    for (const w of workers) expect(w.output()).not.toMatch(/relay pass failed|duplicate key/);

    // The minute sweep: one scheduler for both workers; each of its jobs ran once, a minute apart.
    const queue = new Queue(SWEEP_JOB.queue, {
      connection: bullConnection(config.env.REDIS_URL),
      prefix: config.env.REDIS_PREFIX,
    });
    try {
      expect((await queue.getJobSchedulers()).map((s) => s.key)).toEqual([SWEEP_SCHEDULE.id]);
      const ran = (await queue.getJobs(['completed', 'active'])).sort((a, b) => a.timestamp - b.timestamp);
      expect(ran.length).toBeGreaterThanOrEqual(1);
      expect(ran.every((job) => job.attemptsMade <= 1 && job.id!.startsWith(`repeat:${SWEEP_SCHEDULE.id}:`))).toBe(
        true,
      );
      const slots = ran.map((job) => Number(job.id!.split(':').pop()));
      expect(slots.slice(1).map((slot, i) => slot - slots[i])).toEqual(
        slots.slice(1).map(() => SWEEP_SCHEDULE.everyMs),
      );
    } finally {
      await queue.close();
    }
  } finally {
    await hooks.close();
  }
}, 120_000);

it(`a key's rate limit is global: ${LIMIT} posts in its window across the three apis, at most ${TOLERANCE} more (P tenths of the limit)`, async () => {
  const ws = await workspace('limits');
  const answers = await spread(LIMIT + 300, 24, (i) =>
    post(i, ws.secretKey, { type: 'pageview', email: `rl${i % 20}@example.com` }),
  );
  const accepted = answers.filter((a) => a.status === 200).length;
  const refused = answers.filter((a) => a.status === 429);
  expect(accepted + refused.length).toBe(answers.length);
  expect(accepted).toBeGreaterThanOrEqual(LIMIT);
  expect(accepted).toBeLessThanOrEqual(LIMIT + TOLERANCE);
  expect(refused[0].body).toMatchObject({ ok: false, error: 'rate_limited' });
  // Refused posts wrote nothing.
  expect(await count(`SELECT count(*) AS n FROM events WHERE workspace_id = $1`, [ws.id])).toBe(accepted);
  // Every api refuses now, whichever admitted the posts.
  for (let api = 0; api < APIS; api++)
    expect((await post(api, ws.secretKey, { type: 'pageview', email: 'late@example.com' })).status).toBe(429);
}, 60_000);

it('a key revoked and a member removed through one api are refused on the next request by every api', async () => {
  const ws = await workspace('revoked');
  const revoked = await key(0, ws.secretKey, 'dev@revoked.test');
  const leaving = await key(1, ws.secretKey, 'leaving@revoked.test');
  // Each api has seen both keys live, so each would remember them (the events door rechecks in its write).
  for (let api = 0; api < APIS; api++) {
    expect((await post(api, revoked.secretKey, { type: 'pageview', email: 'seen@example.com' })).status).toBe(200);
    expect((await post(api, leaving.secretKey, { type: 'pageview', email: 'seen@example.com' })).status).toBe(200);
  }
  await must(0, `mutation($id: ID!) { revokeKey(id: $id) }`, { id: revoked.keyId }, ws.secretKey);
  await must(1, `mutation { removeMember(member: "leaving@revoked.test") }`, {}, ws.secretKey);
  const written = await count(`SELECT count(*) AS n FROM events WHERE workspace_id = $1`, [ws.id]);
  for (let api = 0; api < APIS; api++) {
    expect(await post(api, revoked.secretKey, { type: 'pageview', email: 'after@example.com' })).toMatchObject({
      status: 401,
      body: { ok: false, error: 'invalid_key' },
    });
    expect(await post(api, leaving.secretKey, { type: 'pageview', email: 'after@example.com' })).toMatchObject({
      status: 403,
      body: { ok: false, error: 'no_longer_a_member' },
    });
    expect((await gql(api, '{ webhookEndpoints { id } }', {}, revoked.secretKey)).errors?.[0].extensions.code).toBe(
      'invalid_key',
    );
    expect((await gql(api, '{ webhookEndpoints { id } }', {}, leaving.secretKey)).errors?.[0].extensions.code).toBe(
      'no_longer_a_member',
    );
  }
  expect(await count(`SELECT count(*) AS n FROM events WHERE workspace_id = $1`, [ws.id])).toBe(written);
});

it('the same idempotency_key posted to every api at once makes one record, and every api answers its id', async () => {
  const ws = await workspace('idempotent');
  const answers = await spread(APIS * 4, APIS * 4, (i) =>
    post(i, ws.secretKey, { type: 'purchase', email: 'buyer@example.com', value: 10, idempotency_key: 'order-1' }),
  );
  expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
  expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
  expect(await count(`SELECT count(*) AS n FROM events WHERE workspace_id = $1 AND type = 'purchase'`, [ws.id])).toBe(
    1,
  );
  expect(await count(`SELECT count(*) AS n FROM people WHERE workspace_id = $1`, [ws.id])).toBe(1);
});

// Last, so the tests above run while BullMQ hands on the jobs the killed worker held: their locks last
// 30 s and the survivor looks for stalled jobs every 30 s, so a run whose step job it held waits up to a
// minute (the due poll's requeue under the same job id does nothing while that job is still active).
it("one automation run per happening: each purchase of the load ran once and finished, the killed worker's included", async () => {
  const { workspaceId, purchases } = loaded;
  expect(purchases).toBeGreaterThan(0);
  // The dead worker's run claims last 60 s: aged once every run left is one it held.
  const unfinished = (held = '') =>
    count(`SELECT count(*) AS n FROM automation_runs WHERE workspace_id = $1 AND state <> 'finished' ${held}`, [
      workspaceId,
    ]);
  // Generous: on a loaded machine BullMQ's stalled-job checks and the survivor's own work run late.
  await eventually(async () => (await unfinished()) === (await unfinished('AND claimed_until > now()')), 150_000, 250);
  await make().age('automation_runs', 'claimed_until', '1 second', { workspace_id: workspaceId });
  await eventually(
    async () =>
      (await count(`SELECT count(*) AS n FROM automation_runs WHERE workspace_id = $1 AND state = 'finished'`, [
        workspaceId,
      ])) === purchases,
    150_000,
    250,
  );
  expect(await count(`SELECT count(*) AS n FROM automation_runs WHERE workspace_id = $1`, [workspaceId])).toBe(
    purchases,
  );
  expect(
    await count(`SELECT count(DISTINCT outbox_id) AS n FROM automation_runs WHERE workspace_id = $1`, [workspaceId]),
  ).toBe(purchases);
  // Each step posted once, or again when the killed worker had posted it without recording so.
  expect(steps.received.length).toBeGreaterThanOrEqual(purchases);
}, 330_000);
