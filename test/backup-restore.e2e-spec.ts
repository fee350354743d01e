// Issue 33 item 4 (docs/operations.md "Backups"): a pg_dump taken mid-load, events posting and
// deliveries pending to a local receiver, restored into a new database; the service started on it with
// an empty Redis carries on: every event acknowledged before the backup is there, every delivery not
// yet sent in the backup is sent once, and idempotency keys are still honoured.
import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { join } from 'node:path';
import { Client } from 'pg';
import { AppConfig, migrate } from '@app/platform';
import { MIGRATIONS } from '@app/schema';
import { CreatedWorkspace, WorkspacesService } from '@app/workspaces';
import { createApi } from '../apps/api/src/bootstrap';
import { createWorker } from '../apps/worker/src/bootstrap';
import { eventually, testConfig } from './harness';
import { PrivatePostgres, startPrivatePostgres } from './support/private-postgres';
import { receiver } from './support/receiver';

type Receiver = Awaited<ReturnType<typeof receiver>>;
interface Service {
  config: AppConfig;
  api: INestApplication;
  worker: INestApplicationContext;
}

let pg: PrivatePostgres;
let hooks: Receiver;
const running: Service[] = [];

/** The api and the worker on `database` of the private server, with a Redis prefix of their own (nothing in Redis). */
async function serve(database: string): Promise<Service> {
  const { config } = await testConfig({ DATABASE_URL: pg.url(database), RETRY_UNIT_MS: '100' });
  await migrate(config, MIGRATIONS);
  const api = await createApi(config);
  await api.listen(config.port, '127.0.0.1');
  const service = { config, api, worker: await createWorker(config) };
  running.push(service);
  return service;
}

async function close(service: Service): Promise<void> {
  running.splice(running.indexOf(service), 1);
  await service.worker.close();
  await service.api.close();
}

async function onDatabase<T>(database: string, work: (db: Client) => Promise<T>): Promise<T> {
  const db = new Client({ connectionString: pg.url(database) });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

beforeAll(async () => {
  pg = await startPrivatePostgres();
  // a receiver a little slow to answer, so deliveries are still pending when the backup is taken
  hooks = await receiver((_n, _req, res) => void setTimeout(() => res.writeHead(200).end('ok'), 20));
}, 30_000);

afterAll(async () => {
  for (const service of [...running]) await close(service).catch(() => undefined);
  await hooks?.close();
  await pg?.remove();
});

async function call(service: Service, path: string, key: string, body: unknown) {
  const answer = await fetch(service.config.baseUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: await answer.json(), at: Date.now() };
}

const event = (n: number) => ({ type: 'signup', email: `p${n}@example.com`, idempotency_key: `k${n}`, properties: { n } });

it('a backup taken mid-load restores into a service that lost nothing acknowledged before it, sends each pending delivery once, and honours idempotency keys', async () => {
  const before = await serve('lifeline');
  const ws: CreatedWorkspace = await before.api.get(WorkspacesService).create({ slug: 'backed-up', owner: 'owner@example.com' });
  const made = await call(before, '/graphql', ws.secretKey, {
    query: 'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }',
    variables: { input: { url: `${hooks.url}/hooks`, triggers: ['event'] } },
  });
  expect(made.body.errors).toBeUndefined();

  // Load: four posters at once, until told to stop; the dump starts once a few hundred are in.
  const posted: Array<{ n: number; status: number; body: any; at: number }> = [];
  let next = 1;
  let stop = false;
  const poster = async () => {
    while (!stop) {
      const n = next++;
      posted.push({ n, ...(await call(before, '/api/v1/events', ws.secretKey, event(n))) });
    }
  };
  const posters = Promise.all([poster(), poster(), poster(), poster()]);
  await eventually(async () => posted.length >= 200, 20_000, 20);
  const dump = join(pg.dir, 'lifeline.dump');
  const dumpStarted = Date.now();
  await pg.tool('pg_dump', ['-Fc', '-f', dump, 'lifeline']);
  await new Promise((r) => setTimeout(r, 300));
  stop = true;
  await posters;
  expect(posted.every((p) => p.status === 200)).toBe(true);
  await close(before);
  await new Promise((r) => setTimeout(r, 200)); // a post the worker had on the wire lands
  const sentBeforeRestore = hooks.received.length;

  // Restore into a new database and start the service on it.
  await pg.tool('createdb', ['restored']);
  await pg.tool('pg_restore', ['-d', 'restored', dump]);
  const inBackup = await onDatabase('restored', async (db) => ({
    events: new Map<number, string>((await db.query(`SELECT (properties->>'n')::int AS n, id FROM events WHERE type = 'signup'`)).rows.map((r) => [r.n, r.id])),
    succeeded: new Set<string>(
      (await db.query(`SELECT body::jsonb -> 'data' ->> 'id' AS event FROM deliveries WHERE state = 'succeeded'`)).rows.map((r) => r.event),
    ),
    // on the wire when the backup was taken: claimed for CLAIM_SECONDS (30), sent again when the claim runs out
    inFlight: new Set<string>(
      (await db.query(`SELECT body::jsonb -> 'data' ->> 'id' AS event FROM deliveries WHERE state = 'pending' AND claimed_until > now()`)).rows.map((r) => r.event),
    ),
  }));
  const after = await serve('restored');

  // every event acknowledged before the backup began is in it
  const acknowledged = posted.filter((p) => p.at < dumpStarted);
  expect(acknowledged.length).toBeGreaterThan(100);
  expect(acknowledged.filter((p) => !inBackup.events.has(p.n)).map((p) => p.n)).toEqual([]);
  // the backup was taken mid-load: some of its events had been sent, some not yet
  const due = [...inBackup.events.values()].filter((id) => !inBackup.succeeded.has(id) && !inBackup.inFlight.has(id));
  expect(inBackup.succeeded.size).toBeGreaterThan(0);
  expect(due.length).toBeGreaterThan(0);

  // every delivery due after the backup (not on the wire as it was taken) is sent by the restored service, once
  await eventually(async () => new Set(hooks.received.slice(sentBeforeRestore).map((r) => r.body.data.id)).size >= due.length, 20_000, 100);
  await new Promise((r) => setTimeout(r, 500)); // time for a second sending, were there one
  const sentAfter = hooks.received.slice(sentBeforeRestore).map((r) => r.body.data.id as string);
  expect(sentAfter.sort()).toEqual([...due].sort());

  // idempotency keys are still honoured: an event of the backup posted again writes nothing and answers as before
  const again = acknowledged[0];
  expect((await call(after, '/api/v1/events', ws.secretKey, event(again.n))).body).toEqual(again.body);
  const copies = await onDatabase('restored', async (db) => (await db.query(`SELECT count(*)::int AS n FROM events WHERE properties->>'n' = $1`, [String(again.n)])).rows[0].n);
  expect(copies).toBe(1);
  // and the restored service takes new posts, delivered once
  const fresh = await call(after, '/api/v1/events', ws.secretKey, event(1_000_000));
  expect(fresh.body).toEqual({ ok: true, status: 'recorded', id: expect.stringMatching(/^per_/) });
  await eventually(async () => hooks.received.some((r) => r.body.record?.email === 'p1000000@example.com'), 10_000, 100);
}, 90_000);
