// Across hosts, through partitions and failover (docs/operations.md#across-hosts): one deployment on
// network namespaces of its own, and a run per fault while clients post events, batches, messages and
// posts past a rate limit through the load balancer. After each run the checker holds what was stored,
// delivered and sent against every answer given; nothing answered ok may be missing or doubled.
// `npm run test:hosts`, as root; each run's table is appended to HOSTS_RESULTS (docs/testing.md#across-hosts).
import { appendFileSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { check, drained, Report } from './checker';
import { startLoad, Workspaces } from './clients';
import { hasNetem, heal, Host, partition, setFaults } from './network';
import { ask, DATABASE, until } from './postgres';
import { ADMIN_TOKEN, Topology, startTopology } from './topology';

const RESULTS = process.env.HOSTS_RESULTS ?? '';
/** The limited workspace's server_posts figure per ten minutes: small, so the load goes past it. */
const LIMIT = 40;
const BEFORE_MS = 5_000;
const AFTER_MS = 10_000;

let top: Topology;

beforeAll(async () => {
  top = await startTopology();
}, 600_000);

afterAll(async () => {
  await top?.stop();
}, 60_000);

async function gql(query: string, variables: Record<string, unknown>, key = ADMIN_TOKEN): Promise<any> {
  for (let tries = 0; ; tries++) {
    const response = await fetch(`${top.balancerUrl}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    }).catch(() => null);
    const body = response ? await response.json().catch(() => null) : null;
    if (body?.data && !body.errors) return body.data;
    if (tries > 20) throw new Error(`${query}: ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

async function workspace(slug: string): Promise<{ id: string; key: string }> {
  const made = await gql(
    'mutation($i: CreateWorkspaceInput!) { createWorkspace(input: $i) { workspace { id } secretKey } }',
    { i: { slug, owner: `owner@${slug}.test` } },
  );
  return { id: made.createWorkspace.workspace.id, key: made.createWorkspace.secretKey };
}

/** Two workspaces: one whose events go to the receiver and whose engaged person is mailed, one rate-limited. */
async function prepare(slug: string): Promise<Workspaces & { id: string; limitedId: string }> {
  const main = await workspace(slug);
  const limited = await workspace(`${slug}-limited`);
  await gql(
    'mutation($w: String!, $n: Int!) { setWorkspaceLimit(workspace: $w, limit: "server_posts", perTenMinutes: $n) { limit } }',
    {
      w: `${slug}-limited`,
      n: LIMIT,
    },
  );
  const url = `${top.received.url}/${slug}`;
  await gql(
    'mutation($i: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $i) { endpoint { id } } }',
    { i: { url, triggers: ['event'] } },
    main.key,
  );
  const email = `reader@${slug}.test`;
  const signup = await fetch(`${top.balancerUrl}/api/v1/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${main.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'signup', email }),
  });
  if (!signup.ok) throw new Error(`the signup was refused: ${await signup.text()}`);
  return { url: top.balancerUrl, key: main.key, limitedKey: limited.key, email, id: main.id, limitedId: limited.id };
}

async function primaryDatabase(): Promise<DataSource> {
  const node = await top.postgres.primary();
  if (!node) throw new Error('no primary to read');
  return new DataSource({
    type: 'postgres',
    host: node.host.address,
    port: node.port,
    username: 'postgres',
    database: DATABASE,
  }).initialize();
}

/** One run: load, the fault (which returns once healed), more load, the drain, the checks, the table. */
async function runWith(slug: string, title: string, fault: () => Promise<string>): Promise<Report> {
  const target = await prepare(slug);
  const load = startLoad(target, { eventLanes: 4, retryForMs: 60_000 });
  await new Promise((r) => setTimeout(r, BEFORE_MS));
  const started = Date.now();
  const seen = await fault();
  const faultMs = Date.now() - started;
  await new Promise((r) => setTimeout(r, AFTER_MS));
  await load.stop();
  const db = await primaryDatabase();
  try {
    const subject = {
      db,
      workspaceId: target.id,
      limitedWorkspaceId: target.limitedId,
      operations: load.operations,
      received: () => top.received.received.filter((r) => r.path === `/${slug}`),
      mails: () => top.mails.filter((m) => m.to.includes(target.email)),
      limit: LIMIT,
      apis: top.apis.length,
    };
    await drained(subject, 180_000).catch(() => undefined); // what is left undrained is a failure of check()
    const report = await check(subject);
    // an app that ended by itself is a failure, with the end of what it wrote
    for (const app of top.apps.filter((a) => a.process.child.exitCode !== null || a.process.child.signalCode))
      report.failures.push(`the ${app.kind} on ${app.host.name} ended:\n${app.process.output().slice(-3000)}`);
    const text = `#### ${title}\n\n${seen} Fault held ${(faultMs / 1000).toFixed(1)} s.\n\n${report.table}\n`;
    console.log(text);
    if (RESULTS) appendFileSync(RESULTS, `${text}\n`);
    return report;
  } finally {
    await db.destroy();
  }
}

const pgHosts = (): Host[] => top.postgres.nodes.map((n) => n.host);

it('a primary killed under load: the standby is promoted, the apps find it, nothing answered ok is lost', async () => {
  const report = await runWith('killed-primary', 'PostgreSQL primary killed, standby promoted', async () => {
    const old = (await top.postgres.primary())!;
    const killed = Date.now();
    top.postgres.kill(old);
    await until(
      async () => [old.host.name, undefined].indexOf((await top.postgres.primary())?.host.name) < 0,
      60_000,
      'a promotion',
    );
    const promotedMs = Date.now() - killed;
    await until(async () => (await fetch(`${top.balancerUrl}/health/ready`)).ok, 60_000, 'the apis ready again');
    const readyMs = Date.now() - killed;
    top.postgres.restart(old);
    await top.postgres.settled(120_000);
    return `Killed ${old.host.name}; a primary again after ${(promotedMs / 1000).toFixed(1)} s, the apis ready after ${(readyMs / 1000).toFixed(1)} s; the old primary rejoined as the standby.`;
  });
  expect(report.failures).toEqual([]);
}, 600_000);

it('a partition between one api and PostgreSQL: that api refuses, the other serves, nothing is lost', async () => {
  const api = top.apis[0].host;
  const report = await runWith('partitioned-api', `${api.name} cut from PostgreSQL for 20 s`, async () => {
    partition(api, pgHosts());
    await new Promise((r) => setTimeout(r, 20_000));
    heal(api);
    return `Dropped every packet from ${api.name} to ${pgHosts()
      .map((h) => h.name)
      .join(' and ')}.`;
  });
  expect(report.failures).toEqual([]);
}, 600_000);

it('200 ms delay, 5 % loss and some reordering on every link: slower, nothing lost or doubled', async () => {
  const faults = { delayMs: 200, lossPercent: 5, reorderPercent: 5 };
  const how = hasNetem() ? 'netem' : 'delay.py on an NFQUEUE (this kernel has no netem)';
  const title = '200 ms delay, 5 % loss and 5 % reordered on every link for 30 s';
  const report = await runWith('slow-links', title, async () => {
    await Promise.all(top.hosts.map((host) => setFaults(host, faults)));
    await new Promise((r) => setTimeout(r, 30_000));
    await Promise.all(top.hosts.map((host) => setFaults(host, {})));
    return `Every packet the ${top.hosts.length} hosts sent held 200 ms, 5 % dropped, 5 % let go at once, by ${how}.`;
  });
  expect(report.failures).toEqual([]);
}, 600_000);

it('a Redis master change: the queues and the rate-limit windows carry on', async () => {
  const report = await runWith(
    'redis-failover',
    'Every Redis master replaced by its replica (CLUSTER FAILOVER)',
    async () => {
      const changed = await top.redis.failoverAll();
      await new Promise((r) => setTimeout(r, 10_000));
      return `${changed} replicas took over their masters' slots.`;
    },
  );
  expect(report.failures).toEqual([]);
}, 600_000);

/** The primary's backends whose connections come from this host and have a transaction open. */
async function openTransactions(host: Host): Promise<Array<{ pid: number; query: string }>> {
  const node = (await top.postgres.primary())!;
  return ask(
    node.host.address,
    node.port,
    `SELECT pid, left(query, 60) AS query FROM pg_stat_activity
      WHERE client_addr = '${host.address}' AND xact_start IS NOT NULL`,
  );
}

/** Backends of the primary waiting on a lock one of these holds. */
async function blockedBy(pids: number[]): Promise<number> {
  const node = (await top.postgres.primary())!;
  const [row] = await ask<{ n: number }>(
    node.host.address,
    node.port,
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE pg_blocking_pids(pid) && ARRAY[${pids.join(',')}]::int[]`,
  );
  return row.n;
}

it('a worker frozen for 30 s mid-transaction: the other takes its work over, nothing is lost or sent twice', async () => {
  const worker = top.workers[0];
  const report = await runWith('frozen-worker', `${worker.host.name} frozen (SIGSTOP) for 30 s`, async () => {
    // frozen at work: stopped, and let go again at once while it has no transaction open (up to 50 tries)
    let open: Array<{ pid: number; query: string }> = [];
    let tries = 0;
    for (; tries < 50 && !open.length; tries++) {
      if (tries) worker.process.child.kill('SIGCONT');
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 200));
      worker.process.child.kill('SIGSTOP');
      open = await openTransactions(worker.host);
    }
    await new Promise((r) => setTimeout(r, 5_000));
    const blocked = open.length ? await blockedBy(open.map((o) => o.pid)) : 0;
    await new Promise((r) => setTimeout(r, 25_000));
    worker.process.child.kill('SIGCONT');
    const queries = open.map((o) => `\`${o.query.replace(/\s+/g, ' ').trim()}\``).join(', ');
    return (
      `SIGSTOP to ${worker.host.name}'s worker (try ${tries}) with ${open.length} transactions open on the ` +
      `primary (${queries || 'none'}), ${blocked} other backends waiting on its locks 5 s later; SIGCONT 30 s later.`
    );
  });
  expect(report.failures).toEqual([]);
}, 600_000);
