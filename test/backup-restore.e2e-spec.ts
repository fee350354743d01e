// docs/operations.md#backups: a pg_dump taken mid-load, events posting and
// deliveries pending to a local receiver, restored into a new database; the service started on it with
// an empty Redis carries on: every event acknowledged before the backup is there, every delivery not
// yet sent in the backup is sent once, and idempotency keys are still honoured. Then the same onto another
// server whose transaction counter is far behind the backed-up one's (restore-repair.ts in the outbox lib).
import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { join } from 'node:path';
import { Client } from 'pg';
import { RELAY_MARK } from '@app/outbox';
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
  workers: INestApplicationContext[];
}

let pg: PrivatePostgres;
/** A server that has run 2^32 + 2^21 transactions: ids past 32 bits, far ahead of pg's (a new initdb). */
let ahead: PrivatePostgres;
let hooks: Receiver;
const running: Service[] = [];

/** The api and `workers` workers on `database` of a private server, with a Redis prefix of their own (nothing in Redis). */
async function serve(database: string, server = pg, workers = 1): Promise<Service> {
  const { config } = await testConfig({ DATABASE_URL: server.url(database), RETRY_UNIT_MS: '100' });
  await migrate(config, MIGRATIONS);
  const api = await createApi(config);
  await api.listen(config.port, '127.0.0.1');
  const service: Service = {
    config,
    api,
    workers: await Promise.all(Array.from({ length: workers }, () => createWorker(config))),
  };
  running.push(service);
  return service;
}

async function close(service: Service): Promise<void> {
  running.splice(running.indexOf(service), 1);
  for (const worker of service.workers.splice(0)) await worker.close();
  await service.api.close();
}

async function onDatabase<T>(database: string, work: (db: Client) => Promise<T>, server = pg): Promise<T> {
  const db = new Client({ connectionString: server.url(database) });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

beforeAll(async () => {
  [pg, ahead] = await Promise.all([startPrivatePostgres(), startPrivatePostgres({ nextXid: 2 ** 32 + 2 ** 21 })]);
  // a receiver a little slow to answer, so deliveries are still pending when the backup is taken (or the worker stops)
  hooks = await receiver(
    (_n, req, res) => void setTimeout(() => res.writeHead(200).end('ok'), req.url === '/first' ? 100 : 20),
  );
}, 30_000);

afterAll(async () => {
  for (const service of [...running]) await close(service).catch(() => undefined);
  await hooks?.close();
  await pg?.remove();
  await ahead?.remove();
});

async function call(service: Service, path: string, key: string, body: unknown) {
  const answer = await fetch(service.config.baseUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: await answer.json(), at: Date.now() };
}

const event = (n: number) => ({
  type: 'signup',
  email: `p${n}@example.com`,
  idempotency_key: `k${n}`,
  properties: { n },
});

async function addEndpoint(service: Service, key: string, url: string): Promise<void> {
  const made = await call(service, '/graphql', key, {
    query: 'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }',
    variables: { input: { url, triggers: ['event'] } },
  });
  expect(made.body.errors).toBeUndefined();
}

/** Four posters at once, each event a new person, until stopped. */
function load(service: Service, key: string) {
  const posted: Array<{ n: number; status: number; body: any; at: number }> = [];
  let next = 1;
  let stopped = false;
  const poster = async () => {
    while (!stopped) {
      const n = next++;
      posted.push({ n, ...(await call(service, '/api/v1/events', key, event(n))) });
    }
  };
  const posters = Promise.all([poster(), poster(), poster(), poster()]);
  return {
    posted,
    async stop() {
      stopped = true;
      await posters;
    },
  };
}

it('a backup taken mid-load restores into a service that lost nothing acknowledged before it, sends each pending delivery once, and honours idempotency keys', async () => {
  const before = await serve('lifeline');
  const ws: CreatedWorkspace = await before.api
    .get(WorkspacesService)
    .create({ slug: 'backed-up', owner: 'owner@example.com' });
  await addEndpoint(before, ws.secretKey, `${hooks.url}/hooks`);

  // Load: the dump starts once a few hundred are in.
  const { posted, stop } = load(before, ws.secretKey);
  await eventually(async () => posted.length >= 200, 20_000, 20);
  const dump = join(pg.dir, 'lifeline.dump');
  const dumpStarted = Date.now();
  await pg.tool('pg_dump', ['-Fc', '-f', dump, 'lifeline']);
  await new Promise((r) => setTimeout(r, 300));
  await stop();
  expect(posted.every((p) => p.status === 200)).toBe(true);
  await close(before);
  await new Promise((r) => setTimeout(r, 200)); // a post the worker had on the wire lands
  const sentBeforeRestore = hooks.received.length;

  // Restore into a new database and start the service on it.
  await pg.tool('createdb', ['restored']);
  await pg.tool('pg_restore', ['-d', 'restored', dump]);
  const inBackup = await onDatabase('restored', async (db) => ({
    events: new Map<number, string>(
      (await db.query(`SELECT (properties->>'n')::int AS n, id FROM events WHERE type = 'signup'`)).rows.map((r) => [
        r.n,
        r.id,
      ]),
    ),
    succeeded: new Set<string>(
      (
        await db.query(`SELECT body::jsonb -> 'data' ->> 'id' AS event FROM deliveries WHERE state = 'succeeded'`)
      ).rows.map((r) => r.event),
    ),
    // on the wire when the backup was taken: claimed for CLAIM_SECONDS (30), sent again when the claim runs out
    inFlight: new Set<string>(
      (
        await db.query(
          `SELECT body::jsonb -> 'data' ->> 'id' AS event FROM deliveries WHERE state = 'pending' AND claimed_until > now()`,
        )
      ).rows.map((r) => r.event),
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
  await eventually(
    async () => new Set(hooks.received.slice(sentBeforeRestore).map((r) => r.body.data.id)).size >= due.length,
    20_000,
    100,
  );
  await new Promise((r) => setTimeout(r, 500)); // time for a second sending, were there one
  const sentAfter = hooks.received
    .slice(sentBeforeRestore)
    .filter((r) => r.path === '/hooks')
    .map((r) => r.body.data.id as string);
  expect(sentAfter.sort()).toEqual([...due].sort());

  // idempotency keys are still honoured: an event of the backup posted again writes nothing and answers as before
  const again = acknowledged[0];
  expect((await call(after, '/api/v1/events', ws.secretKey, event(again.n))).body).toEqual(again.body);
  const copies = await onDatabase(
    'restored',
    async (db) =>
      (await db.query(`SELECT count(*)::int AS n FROM events WHERE properties->>'n' = $1`, [String(again.n)])).rows[0]
        .n,
  );
  expect(copies).toBe(1);
  // and the restored service takes new posts, delivered once
  const fresh = await call(after, '/api/v1/events', ws.secretKey, event(1_000_000));
  expect(fresh.body).toEqual({ ok: true, status: 'recorded', id: expect.stringMatching(/^per_/) });
  await eventually(
    async () => hooks.received.some((r) => r.body.record?.email === 'p1000000@example.com'),
    10_000,
    100,
  );
}, 90_000);

it('restored onto a new server whose transaction ids are far behind, the outbox carries on: nothing relayed before the backup is relayed again, the rest and every new event once', async () => {
  const before = await serve('moved', ahead);
  const ws: CreatedWorkspace = await before.api
    .get(WorkspacesService)
    .create({ slug: 'moved', owner: 'owner@example.com' });
  await addEndpoint(before, ws.secretKey, `${hooks.url}/first`);

  // Mid-load the worker stops: the backup holds happenings relayed and sent, relayed with their delivery
  // still to send, and not yet relayed (its mark and rows carry ids past 2^32, the new server's a few thousand).
  const { posted, stop } = load(before, ws.secretKey);
  await eventually(async () => posted.length >= 150, 20_000, 20);
  for (const worker of before.workers.splice(0)) await worker.close();
  const stoppedAt = posted.length;
  await eventually(async () => posted.length >= stoppedAt + 60, 20_000, 20);
  const dump = join(ahead.dir, 'moved.dump');
  await ahead.tool('pg_dump', ['-Fc', '-f', dump, 'moved']);
  await stop();
  expect(posted.every((p) => p.status === 200)).toBe(true);
  await close(before);
  const heardBefore = hooks.received.filter((r) => r.path === '/first').length;

  await pg.tool('createdb', ['moved']);
  await pg.tool('pg_restore', ['-d', 'moved', dump]);
  const inBackup = await onDatabase('moved', async (db) => {
    const [{ mark_ahead }] = (
      await db.query(
        `SELECT (SELECT xid FROM outbox_relay WHERE name = 'main') >= pg_snapshot_xmax(pg_current_snapshot()) AS mark_ahead`,
      )
    ).rows;
    const events: Array<{ n: number; sent: boolean; relayed: boolean; in_flight: boolean }> = (
      await db.query(
        `SELECT (e.properties->>'n')::int AS n, coalesce(bool_or(d.state = 'succeeded'), false) AS sent, count(d.id) > 0 AS relayed,
                coalesce(bool_or(d.state = 'pending' AND d.claimed_until > now()), false) AS in_flight
           FROM events e LEFT JOIN deliveries d ON d.body::jsonb -> 'data' ->> 'id' = e.id
          WHERE e.type = 'signup' GROUP BY 1`,
      )
    ).rows;
    return { markAhead: mark_ahead as boolean, events };
  });
  expect(inBackup.markAhead).toBe(true);
  const sent = inBackup.events.filter((e) => e.sent).map((e) => e.n);
  const toSend = inBackup.events.filter((e) => e.relayed && !e.sent && !e.in_flight).map((e) => e.n);
  const notRelayed = inBackup.events.filter((e) => !e.relayed).map((e) => e.n);
  expect([sent.length, toSend.length, notRelayed.length].every((n) => n > 0)).toBe(true);

  // The api starts first (it repairs before it serves), a second address is added and an event posted,
  // then two workers (two relays) start at once.
  const after = await serve('moved', pg, 0);
  await addEndpoint(after, ws.secretKey, `${hooks.url}/second`);
  expect((await call(after, '/api/v1/events', ws.secretKey, event(500_000))).status).toBe(200);
  after.workers.push(...(await Promise.all([createWorker(after.config), createWorker(after.config)])));
  expect((await call(after, '/api/v1/events', ws.secretKey, event(500_001))).status).toBe(200);

  const numbers = await onDatabase(
    'moved',
    async (db) =>
      new Map<string, number>(
        (await db.query(`SELECT id, (properties->>'n')::int AS n FROM events`)).rows.map((r) => [r.id, r.n]),
      ),
  );
  const at = (path: string, from = 0) =>
    hooks.received
      .filter((r) => r.path === path)
      .slice(from)
      .map((r) => numbers.get(r.body.data.id) ?? -1);
  const first = [...toSend, ...notRelayed, 500_000, 500_001].sort((a, b) => a - b);
  // The new address hears only what is relayed on the new server: had a relayed happening been relayed
  // again, it would have made a delivery to it (the old address's delivery would hide it).
  const second = [...notRelayed, 500_000, 500_001].sort((a, b) => a - b);
  await eventually(
    async () => new Set(at('/first', heardBefore)).size >= first.length && new Set(at('/second')).size >= second.length,
    20_000,
    100,
  );
  await new Promise((r) => setTimeout(r, 500)); // time for a second sending, were there one
  expect(at('/first', heardBefore).sort((a, b) => a - b)).toEqual(first);
  expect(at('/second').sort((a, b) => a - b)).toEqual(second);
  expect(
    await onDatabase(
      'moved',
      async (db) =>
        (await db.query(`SELECT NOT EXISTS (SELECT 1 FROM outbox o WHERE (o.xid, o.id) > ${RELAY_MARK}) AS done`))
          .rows[0].done,
    ),
  ).toBe(true);
}, 60_000);
