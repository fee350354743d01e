// A frozen database (SIGSTOP) holds no request. Every request is answered within 5 s (the watch finds it
// down 3 s after a statement went out, docs/decisions.md#a-busy-database-is-not-a-dead-one),
// 503 unavailable with Retry-After and nothing half-written, past MAX_REQUESTS_IN_FLIGHT at once; the
// service carries on when the database thaws, and the log says once that it went and once that it came back.
import type { INestApplication } from '@nestjs/common';
import { Client } from 'pg';
import { AppConfig, DATABASE_OUTAGE, migrate } from '@app/platform';
import { MIGRATIONS } from '@app/schema';
import { CreatedWorkspace, WorkspacesService } from '@app/workspaces';
import { createApi } from '../apps/api/src/bootstrap';
import { eventually, testConfig } from './harness';
import { PrivatePostgres, startPrivatePostgres } from './support/private-postgres';

const IN_FLIGHT = 12;

let pg: PrivatePostgres;
let config: AppConfig;
let api: INestApplication;
let ws: CreatedWorkspace;
const logged: string[] = [];

beforeAll(async () => {
  pg = await startPrivatePostgres();
  ({ config } = await testConfig({ DATABASE_URL: pg.url('lifeline'), MAX_REQUESTS_IN_FLIGHT: String(IN_FLIGHT) }));
  await migrate(config, MIGRATIONS);
  api = await createApi(config);
  await api.listen(config.port, '127.0.0.1');
  ws = await api.get(WorkspacesService).create({ slug: 'frozen', owner: 'owner@example.com' });
  DATABASE_OUTAGE.log = (line) => logged.push(line);
}, 60_000);

afterAll(async () => {
  pg?.thaw();
  await api?.close();
  await pg?.remove();
});

interface Sent {
  n: number;
  path: string;
  status: number;
  body: any;
  retryAfter: string | null;
  ms: number;
}

async function send(n: number, path: string, init: RequestInit): Promise<Sent> {
  const started = Date.now();
  const answer = await fetch(config.baseUrl + path, { ...init, signal: AbortSignal.timeout(20_000) });
  const text = await answer.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return {
    n,
    path,
    status: answer.status,
    body,
    retryAfter: answer.headers.get('retry-after'),
    ms: Date.now() - started,
  };
}

const headers = () => ({ 'content-type': 'application/json', authorization: `Bearer ${ws.secretKey}` });
const event = (n: number) =>
  send(n, '/api/v1/events', {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({ type: 'signup', email: `p${n}@example.com`, idempotency_key: `k${n}`, properties: { n } }),
  });
const graphql = (n: number) =>
  send(n, '/graphql', {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({ query: '{ people(first: 1) { edges { node { id } } } }' }),
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('every request is answered within 5 s while the database is frozen: 503 unavailable with Retry-After, nothing half-written', async () => {
  expect((await event(0)).status).toBe(200);
  const answers: Array<Promise<Sent>> = [];
  const load = async (untilMs: number) => {
    for (const until = Date.now() + untilMs; Date.now() < until; await sleep(40)) {
      const n = answers.length + 1;
      answers.push(n % 5 === 0 ? graphql(n) : event(n));
    }
  };
  await load(300);
  pg.freeze();
  await load(6_000);
  // requests past the bound were refused at once, the others once the database was found frozen
  const during = await Promise.all(answers);
  pg.thaw();
  const after = await eventually(async () => ((await event(100_000)).status === 200 ? true : null), 10_000, 200);
  expect(after).toBe(true);

  const slowest = Math.max(...during.map((a) => a.ms));
  expect(slowest).toBeLessThan(5_000);
  const refused = during.filter((a) => a.status !== 200 || a.body.errors);
  expect(refused.length).toBeGreaterThan(50);
  for (const answer of refused) {
    // a GraphQL request refused once it ran answers as GraphQL does, 200 with the error's code and status in extensions
    const refusal = answer.status === 200 ? answer.body.errors[0] : answer.body;
    if (answer.status === 200) expect(refusal.extensions).toEqual({ code: 'unavailable', status: 503 });
    else
      expect(answer).toMatchObject({
        status: 503,
        body: { ok: false, error: 'unavailable' },
        retryAfter: expect.stringMatching(/^[1-9]\d*$/),
      });
    expect(refusal.message).toMatch(/nothing was changed; send it again|may have been written: send it again/);
  }
  const busy = refused.filter((a) => /as many requests as it can/.test(a.body.message ?? ''));
  expect(busy.length).toBeGreaterThan(0);
  expect(Math.max(...busy.map((a) => a.ms))).toBeLessThan(1_000);

  // After the thaw: each post is whole or absent, as its answer said.
  const db = new Client({ connectionString: config.databaseUrl });
  await db.connect();
  try {
    const events = new Set(
      (
        await db.query(`SELECT (properties->>'n')::int AS n FROM events WHERE workspace_id = $1`, [ws.workspace.id])
      ).rows.map((r) => r.n),
    );
    const keys = new Set(
      (
        await db.query(`SELECT substr(key, 2)::int AS n FROM idempotency_keys WHERE workspace_id = $1`, [
          ws.workspace.id,
        ])
      ).rows.map((r) => r.n),
    );
    const posts = during.filter((a) => a.path === '/api/v1/events');
    for (const post of posts) {
      expect(`${post.n}: event ${events.has(post.n)}, key ${keys.has(post.n)}`).toBe(
        `${post.n}: event ${events.has(post.n)}, key ${events.has(post.n)}`,
      );
      if (post.status === 200)
        expect(`${post.n} acknowledged: ${events.has(post.n)}`).toBe(`${post.n} acknowledged: true`);
      else if (!/may have been written/.test(post.body.message))
        expect(`${post.n} refused: ${events.has(post.n)}`).toBe(`${post.n} refused: false`);
    }
    // no transaction left open by a request that was given up
    const open = await db.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND state LIKE 'idle in transaction%'`,
      ['lifeline'],
    );
    expect(open.rows[0].n).toBe(0);
  } finally {
    await db.end();
  }

  // found down by the watch's rule (docs/decisions.md#a-busy-database-is-not-a-dead-one): the defaults' two misses of 1 s
  expect(logged.filter((l) => /cannot be reached/.test(l))).toEqual([
    'PostgreSQL cannot be reached (no answer within 2000 ms): requests that need it answer 503 unavailable until it is back.',
  ]);
  const back = logged.filter((l) => /answers again/.test(l));
  expect(back).toEqual([
    expect.stringMatching(/^PostgreSQL answers again after [\d.]+ s; \d+ requests were refused meanwhile\.$/),
  ]);
  expect(Number(/; (\d+) requests/.exec(back[0])![1])).toBeGreaterThan(0);
}, 40_000);
