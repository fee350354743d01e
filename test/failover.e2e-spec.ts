// docs/operations.md#failover on loopback: an api (in this process) and a worker (a process of its own) on
// DATABASE_URL=postgres://127.0.0.1:P1,127.0.0.1:P2/lifeline?target_session_attrs=read-write, a private primary on
// P1 and its synchronous streaming standby on P2. Under load the primary is stopped as a crash would stop it and
// the standby promoted (the test plays the failover engine). Meanwhile posts answer 503 with Retry-After; then the
// same apps, not restarted, answer ok on the new primary; every event answered ok is stored once, the outbox
// drains and each event reaches the webhook address.
import type { ChildProcess } from 'node:child_process';
import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig, DATABASE_OUTAGE, migrate } from '@app/platform';
import { MIGRATIONS } from '@app/schema';
import { CreatedWorkspace, WorkspacesService } from '@app/workspaces';
import { createApi } from '../apps/api/src/bootstrap';
import { eventually, testConfig } from './harness';
import { spawnWorker } from './support/child-worker';
import { allRelayed } from './support/outbox';
import { PrivatePostgres, startPrivatePostgres } from './support/private-postgres';
import { receiver } from './support/receiver';
import { Replica, startReplica } from './support/replica';

const LANES = 8;
/** Posts answered ok before the primary is stopped, and after the new primary took over. */
const BEFORE = 60;
const AFTER = 60;

let primary: PrivatePostgres;
let standby: Replica;
let config: AppConfig;
let api: INestApplication;
let worker: { child: ChildProcess; exited: Promise<unknown> };
let ws: CreatedWorkspace;
let hooks: Awaited<ReturnType<typeof receiver>>;
const logged: string[] = [];

beforeAll(async () => {
  primary = await startPrivatePostgres();
  standby = await startReplica(primary);
  await standby.synchronous();
  const hosts = `127.0.0.1:${primary.port},127.0.0.1:${standby.port}`;
  ({ config } = await testConfig({
    DATABASE_URL: `postgres://postgres@${hosts}/lifeline?target_session_attrs=read-write`,
    RATE_LIMIT_SERVER_POSTS: '100000',
    RETRY_UNIT_MS: '50',
  }));
  await migrate(config, MIGRATIONS);
  DATABASE_OUTAGE.log = (line) => logged.push(line);
  api = await createApi(config);
  await api.listen(config.port, '127.0.0.1');
  ws = await api.get(WorkspacesService).create({ slug: 'failover', owner: 'owner@example.com' });
  hooks = await receiver();
  const made = await call('POST', '/graphql', {
    query: `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }`,
    variables: { input: { url: `${hooks.url}/hooks`, triggers: ['event'] } },
  });
  expect(made.body.errors).toBeUndefined();
  worker = spawnWorker(config, { RETRY_UNIT_MS: '50' });
}, 120_000);

afterAll(async () => {
  worker?.child.kill('SIGTERM');
  await worker?.exited;
  await api?.close();
  await hooks?.close();
  await standby?.remove();
  await primary?.remove();
}, 60_000);

interface Answer {
  n: number;
  status: number;
  retryAfter: string | null;
  body: any;
}

async function call(method: string, path: string, body: unknown): Promise<Omit<Answer, 'n'>> {
  const answer = await fetch(config.baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${ws.secretKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: answer.status, retryAfter: answer.headers.get('retry-after'), body: await answer.json() };
}

/**
 * Posts event 0, 1, 2... from LANES clients at once, each sending an event again (same idempotency key) after a 503
 * until it is answered ok, as a client told to retry does; every answer is kept. Runs until `stop()`.
 */
function load() {
  const answers: Answer[] = [];
  let next = 0;
  let stopping = false;
  const lane = async () => {
    while (!stopping) {
      const n = next++;
      const body = { type: 'signup', email: `f${n}@failover.test`, idempotency_key: `f${n}`, properties: { n } };
      for (;;) {
        const answer = { n, ...(await call('POST', '/api/v1/events', body)) };
        answers.push(answer);
        if (answer.status !== 503) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  const lanes = Promise.all(Array.from({ length: LANES }, lane));
  const ok = () => answers.filter((a) => a.status === 200).length;
  return {
    answers,
    ok,
    async stop() {
      stopping = true;
      await lanes;
    },
  };
}

it('a primary stopped under load and its standby promoted: 503 with Retry-After meanwhile, then ok on the new primary from the same apps; every event answered ok is stored once, the outbox drains and every event is delivered', async () => {
  const running = load();
  await eventually(async () => running.ok() >= BEFORE, 30_000, 50);

  await primary.stop('immediate');
  await eventually(async () => running.answers.some((a) => a.status === 503), 30_000, 50);
  // The watch says so once its probe meets no primary: the standby is promoted after that, however fast the
  // first refusals came.
  await eventually(async () => logged.some((l) => /^PostgreSQL cannot be reached/.test(l)), 30_000, 50);
  const refusedBefore = running.answers.length;
  await standby.promote();
  const okAtPromotion = running.ok();
  await eventually(async () => running.ok() >= okAtPromotion + AFTER, 60_000, 100);
  await running.stop();
  const { answers } = running;

  // meanwhile: 503 unavailable with Retry-After, never another failure
  const refused = answers.filter((a) => a.status === 503);
  expect(refused.length).toBeGreaterThan(0);
  for (const a of refused)
    expect(a).toMatchObject({
      retryAfter: '5',
      body: { ok: false, error: 'unavailable', message: expect.any(String) },
    });
  expect(answers.filter((a) => a.status !== 200 && a.status !== 503)).toEqual([]);
  expect(answers.slice(refusedBefore).some((a) => a.status === 200)).toBe(true);
  expect(logged.filter((l) => /^PostgreSQL cannot be reached/.test(l)).length).toBeGreaterThanOrEqual(1);
  expect(logged.some((l) => /^PostgreSQL answers again/.test(l))).toBe(true);

  // the same api and worker, now on the standby's port
  const db = api.get(DataSource);
  expect((await db.query('SELECT inet_server_port() AS port'))[0].port).toBe(standby.port);
  expect(worker.child.exitCode).toBeNull();

  // every event answered ok is stored exactly once; each was sent again until it was
  const okNumbers = [...new Set(answers.filter((a) => a.status === 200).map((a) => a.n))].sort((a, b) => a - b);
  const posted = new Set(answers.map((a) => a.n));
  expect(okNumbers).toHaveLength(posted.size);
  const stored: Array<{ n: number; id: string }> = await db.query(
    `SELECT (properties->>'n')::int AS n, id FROM events WHERE workspace_id = $1 AND type = 'signup' ORDER BY 1`,
    [ws.workspace.id],
  );
  expect(stored.map((row) => row.n)).toEqual(okNumbers);

  // the outbox drained, and every event reached the address (at least once) after the relay moved on
  await eventually(() => allRelayed(db), 60_000, 200);
  await eventually(
    async () => {
      const delivered = new Set(hooks.received.filter((r) => r.body?.type === 'event').map((r) => r.body.data.id));
      return stored.every((row) => delivered.has(row.id));
    },
    60_000,
    200,
  );
  // one delivery per event for the address, each settled as delivered
  await eventually(
    async () => {
      const [row] = await db.query(
        `SELECT count(*)::int AS made, count(*) FILTER (WHERE state = 'succeeded')::int AS delivered
         FROM deliveries WHERE workspace_id = $1`,
        [ws.workspace.id],
      );
      return row.made === stored.length && row.delivered === stored.length;
    },
    60_000,
    200,
  );
}, 240_000);
