// The api and the worker on a Redis Cluster of their own (three masters, three
// replicas; test/support/redis-cluster.ts). Deliveries, automation runs and rate limits on it (the
// whole webhook, automation and rate-limit suites run on a cluster too: test/*-on-cluster.e2e-spec.ts),
// the queues' keys shown hash-tagged and spread over the masters, and a master killed mid-load loses
// nothing: every post recorded, every delivery and automation run made exactly once. A planned master change
// (CLUSTER FAILOVER on a replica) keeps the queues and the rate-limit windows going (docs/operations.md#failover).
import type { Cluster, Redis } from 'ioredis';
import { ensureRedisReachable, freePort, LIMITS, queuePrefix, REDIS } from '@app/platform';
import { eventually, memberKey, useApp, useWorkspace } from './harness';
import { receiver } from './support/receiver';
import { RedisCluster, startRedisCluster } from './support/redis-cluster';

/** The queues of the api and the worker (their jobs/*.job.ts). */
const QUEUES = ['webhook-delivery', 'automations', 'email', 'sweeps'];

let cluster: RedisCluster;
beforeAll(async () => {
  cluster = await startRedisCluster();
}, 60_000);
// A fixed prefix: the cluster is this file's alone, and fixed tags put the queues on known slots.
// Closing after the failover may take BullMQ's workers a while: their blocking clients retry through the
// cluster's redirections until their slot map is fresh (seen at over 30 s once on a loaded machine), and on
// a loaded CI machine a worker's close has waited past two minutes (not seen here alone, not explained yet:
// the harness prints what it waits on). Past 90 s the file stops waiting, as the launcher's stop deadline
// would end the process in production.
const t = useApp({
  worker: true,
  env: () => ({ REDIS_CLUSTER_NODES: cluster.nodes, REDIS_PREFIX: 'lt-cluster' }),
  closeTimeoutMs: 120_000,
  stopWaitingMs: 90_000,
});
const ws = useWorkspace(t, {}, 'all');
afterAll(() => cluster?.remove());

const CREATE_ENDPOINT = `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }`;
const CREATE_AUTOMATION = `mutation($input: CreateAutomationInput!) { createAutomation(input: $input) { automation { id } } }`;
const STATUS = `mutation($id: ID!, $status: String!) { setAutomationStatus(id: $id, status: $status) { id status } }`;

const post = (body: unknown, key = ws.secretKey) => t.request('POST', '/api/v1/events', { key, body });
const count = async (query: string, workspaceId = ws.workspace.id) =>
  Number((await t.db.query(query, [workspaceId]))[0].n);

async function endpoint(url: string, key = ws.secretKey) {
  const answer = await t.gql(CREATE_ENDPOINT, { input: { url, triggers: ['event'] } }, key);
  if (answer.errors) throw new Error(JSON.stringify(answer.errors));
}

/** A running automation on `event` whose one step posts to `url`. */
async function automation(event: string, url: string, key = ws.secretKey) {
  const made = await t.gql(
    CREATE_AUTOMATION,
    { input: { name: `On ${event}`, trigger: { kind: 'event', event }, steps: [{ kind: 'http_request', url }] } },
    key,
  );
  if (made.errors) throw new Error(JSON.stringify(made.errors));
  await t.gql(STATUS, { id: made.data.createAutomation.automation.id, status: 'running' }, key);
}

const finishedRuns = (workspaceId = ws.workspace.id) =>
  count(`SELECT count(*) AS n FROM automation_runs WHERE workspace_id = $1 AND state = 'finished'`, workspaceId);

/** Posts `n` signups of distinct people, `concurrency` at a time; `midway` runs after half of them. */
async function load(n: number, key = ws.secretKey, midway: () => void = () => undefined, concurrency = 8) {
  const statuses: number[] = [];
  let next = 0;
  const poster = async () => {
    while (next < n) {
      const i = next++;
      if (i === Math.floor(n / 2)) midway();
      statuses.push((await post({ type: 'signup', email: `signup-${i}@example.com` }, key)).status);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, poster));
  return statuses;
}

/** The address heard each of the n signups once: n posts, n distinct people, no repeat. */
function heardOnce(received: Array<{ body: any }>, n: number) {
  const people = received.map((x) => x.body.record.email);
  expect(people).toHaveLength(n);
  expect(new Set(people)).toEqual(new Set(Array.from({ length: n }, (_, i) => `signup-${i}@example.com`)));
}

it('each queue has a hash tag of its own in its every key, and the queues sit on more than one master', async () => {
  expect(queuePrefix(t.config, 'webhook-delivery')).toBe('{lt-cluster:webhook-delivery}');
  const keysOn = new Map<number, string[]>();
  await eventually(async () => {
    for (const port of cluster.ports)
      keysOn.set(port, (await cluster.cli(port, ['--scan', '--pattern', '*'])).trim().split('\n').filter(Boolean));
    // The worker's minute sweep is scheduled at start: its keys are there once it has started.
    return [...keysOn.values()].flat().some((key) => key.startsWith('{lt-cluster:sweeps}'));
  });
  const tagged = [...keysOn.values()].flat().filter((key) => key.startsWith('{'));
  expect(tagged.length).toBeGreaterThan(0);
  for (const key of tagged)
    expect(QUEUES.map((q) => `{lt-cluster:${q}}:${q}:`).some((start) => key.startsWith(start))).toBe(true);
  const slots = await Promise.all(
    QUEUES.map(async (q) =>
      Number(await cluster.cli(cluster.ports[0], ['cluster', 'keyslot', `{lt-cluster:${q}}:${q}:wait`])),
    ),
  );
  expect(new Set(slots).size).toBe(QUEUES.length);
  const masters = await Promise.all(QUEUES.map((q) => cluster.masterOf(`{lt-cluster:${q}}`)));
  expect(new Set(masters).size).toBeGreaterThan(1);
});

it('the start-up check reaches the cluster, and names REDIS_CLUSTER_NODES when no node answers', async () => {
  await ensureRedisReachable(t.config);
  const nowhere = { redisUrl: t.config.redisUrl, redisClusterNodes: [{ host: '127.0.0.1', port: await freePort() }] };
  await expect(ensureRedisReachable(nowhere)).rejects.toThrow(
    /^Redis Cluster at 127\.0\.0\.1:\d+ cannot be reached \(no node answers\): start its nodes, or set REDIS_CLUSTER_NODES/,
  );
});

it('webhooks are delivered once per happening per address, and an automation runs once per happening', async () => {
  const [first, second, step] = await Promise.all([receiver(), receiver(), receiver()]);
  await endpoint(first.url);
  await endpoint(second.url);
  await automation('signup', step.url);
  const statuses = await load(40);
  expect(statuses.every((s) => s === 200)).toBe(true);
  await eventually(
    async () => first.received.length >= 40 && second.received.length >= 40 && (await finishedRuns()) >= 40,
    20_000,
  );
  heardOnce(first.received, 40);
  heardOnce(second.received, 40);
  heardOnce(step.received, 40);
  expect(await finishedRuns()).toBe(40);
  await Promise.all([first.close(), second.close(), step.close()]);
});

it(`rate limits are counted in the cluster: ${LIMITS.server} posts per key in ten minutes, then 429 rate_limited`, async () => {
  const { keyId, secretKey } = await memberKey(t, ws, 'limited@example.com');
  const answers = await Promise.all(
    Array.from({ length: LIMITS.server + 1 }, (_, i) => post({ type: 'pageview', anon_id: `rl-${i}` }, secretKey)),
  );
  const refused = answers.filter((a) => a.status === 429);
  expect(refused).toHaveLength(1);
  expect(refused[0].body).toMatchObject({ ok: false, error: 'rate_limited' });
  expect(Number(refused[0].headers.get('retry-after'))).toBeGreaterThan(0);
  // Counted in the cluster under the key's own Redis key (one key per script, so no slot to share).
  expect(
    Number(await cluster.cli(cluster.ports[0], ['-c', 'get', `lt-cluster:rl:server:${keyId}`])),
  ).toBeGreaterThanOrEqual(LIMITS.server);
});

it('a rate-limit window carries on across a planned master change (CLUSTER FAILOVER): what it counted before still counts, and the limit is enforced', async () => {
  const { keyId, secretKey } = await memberKey(t, ws, 'window@example.com');
  const before = await load(LIMITS.server / 2, secretKey);
  expect(before.filter((s) => s !== 200)).toEqual([]);
  const counter = `lt-cluster:rl:server:${keyId}`;
  // what was admitted is reported within SYNC_MS: the window holds it before the change
  await eventually(
    async () => Number(await cluster.cli(cluster.ports[0], ['-c', 'get', counter])) >= LIMITS.server / 2,
  );
  const promoted = await cluster.failover(await cluster.masterOf(counter));
  expect(await cluster.masterOf(counter)).toBe(promoted);
  // The app's own client has followed the change (a call it makes meanwhile, failed or timed out, is counted by the
  // in-memory insurance, docs/decisions.md#rate-limits-counted-in-process): its count is the cluster's.
  const appRedis = t.app.get<Redis | Cluster>(REDIS);
  await eventually(async () => Number(await appRedis.get(counter).catch(() => 0)) >= LIMITS.server / 2);
  const after = await load(LIMITS.server / 2 + 100, secretKey);
  // one process is exact (docs/decisions.md#rate-limits-counted-in-process): the half left, then 429
  expect(after.filter((s) => s === 200)).toHaveLength(LIMITS.server / 2);
  expect(after.filter((s) => s !== 200 && s !== 429)).toEqual([]);
  expect(Number(await cluster.cli(promoted, ['-c', 'get', counter]))).toBeGreaterThanOrEqual(LIMITS.server);
}, 120_000);

it("the queues carry on across a planned master change of the delivery queue's slot: every post recorded, each delivery heard once", async () => {
  const other = await t.workspace();
  const hook = await receiver();
  await endpoint(hook.url, other.secretKey);
  const victim = await cluster.masterOf(`{lt-cluster:webhook-delivery}`);
  let changed: Promise<number> = Promise.resolve(0);
  const statuses = await load(80, other.secretKey, () => {
    changed = cluster.failover(victim);
  });
  expect(await cluster.masterOf(`{lt-cluster:webhook-delivery}`)).toBe(await changed);
  expect(statuses.filter((s) => s !== 200)).toEqual([]);
  expect(
    await count(`SELECT count(*) AS n FROM events WHERE workspace_id = $1 AND type = 'signup'`, other.workspace.id),
  ).toBe(80);
  await eventually(async () => hook.received.length >= 80, 60_000);
  heardOnce(hook.received, 80);
  await hook.close();
}, 120_000);

it('a master killed mid-load loses nothing: every post recorded, every delivery and run made exactly once', async () => {
  const other = await t.workspace();
  const [hook, step] = await Promise.all([receiver(), receiver()]);
  await endpoint(hook.url, other.secretKey);
  await automation('signup', step.url, other.secretKey);
  // The master of the delivery queue's slot, so the jobs of the deliveries on their way are among those it held.
  const victim = await cluster.masterOf(`{lt-cluster:webhook-delivery}`);
  const statuses = await load(120, other.secretKey, () => cluster.kill(victim));
  await cluster.failedOver(victim);
  expect(statuses.filter((s) => s !== 200)).toEqual([]);
  expect(
    await count(`SELECT count(*) AS n FROM events WHERE workspace_id = $1 AND type = 'signup'`, other.workspace.id),
  ).toBe(120);
  await eventually(async () => hook.received.length >= 120 && (await finishedRuns(other.workspace.id)) >= 120, 60_000);
  heardOnce(hook.received, 120);
  heardOnce(step.received, 120);
  expect(await finishedRuns(other.workspace.id)).toBe(120);
  await Promise.all([hook.close(), step.close()]);
}, 120_000);
