// While the database or Redis cannot be reached, answers are 503 unavailable with
// Retry-After and the spec's sentence, never a 500; the log says once that it went and once that it is
// back with the count of refused requests, and no line per refused request.
import { Logger, type INestApplication } from '@nestjs/common';
import { AppConfig, DATABASE_OUTAGE, freePort, migrate, REDIS_OUTAGE } from '@app/platform';
import { MIGRATIONS } from '@app/schema';
import { CreatedWorkspace, WorkspacesService } from '@app/workspaces';
import { createApi } from '../apps/api/src/bootstrap';
import { ADMIN_TOKEN, eventually, testConfig } from './harness';
import { PrivatePostgres, startPrivatePostgres } from './support/private-postgres';
import { run, Running } from './support/processes';

let pg: PrivatePostgres;
let redisPort: number;
let redis: Running | null = null;
let config: AppConfig;
let api: INestApplication;
let ws: CreatedWorkspace;
const logged: string[] = [];

async function startRedis(): Promise<void> {
  redis = run(
    'redis-server',
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {},
  );
  await redis.waitFor('Ready to accept connections', 10_000);
}

async function stopRedis(): Promise<void> {
  redis?.child.kill('SIGKILL');
  await redis?.exited;
  redis = null;
}

beforeAll(async () => {
  pg = await startPrivatePostgres();
  redisPort = await freePort();
  await startRedis();
  ({ config } = await testConfig({ DATABASE_URL: pg.url('lifeline'), REDIS_URL: `redis://127.0.0.1:${redisPort}` }));
  await migrate(config, MIGRATIONS);
  api = await createApi(config);
  await api.listen(config.port, '127.0.0.1');
  ws = await api.get(WorkspacesService).create({ slug: 'down', owner: 'owner@example.com' });
  DATABASE_OUTAGE.log = REDIS_OUTAGE.log = (line) => logged.push(line);
}, 60_000);

afterAll(async () => {
  await api?.close();
  await stopRedis();
  await pg?.remove();
});

async function call(method: string, path: string, body?: unknown, key = ws.secretKey) {
  const started = Date.now();
  const answer = await fetch(config.baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await answer.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // /metrics answers text
  }
  return {
    status: answer.status,
    body: parsed,
    retryAfter: answer.headers.get('retry-after'),
    ms: Date.now() - started,
    text,
  };
}

const post = (n: number) =>
  call('POST', '/api/v1/events', { type: 'signup', email: `p${n}@example.com`, idempotency_key: `k${n}` });

/** What the app logs through Nest's loggers (errors and warnings) while `work` runs. */
async function loggedBy<T>(work: () => Promise<T>): Promise<{ value: T; lines: string[] }> {
  const lines: string[] = [];
  const error = jest
    .spyOn(Logger.prototype, 'error')
    .mockImplementation((message: unknown) => void lines.push(String(message)));
  const warn = jest
    .spyOn(Logger.prototype, 'warn')
    .mockImplementation((message: unknown) => void lines.push(String(message)));
  try {
    return { value: await work(), lines };
  } finally {
    error.mockRestore();
    warn.mockRestore();
  }
}

const UNAVAILABLE = {
  ok: false,
  error: 'unavailable',
  message: expect.stringMatching(/nothing was changed; send it again/),
};

it('while the database is stopped, every request answers 503 unavailable with Retry-After at once; the log says so once, and once when it is back', async () => {
  expect((await post(0)).status).toBe(200);
  await pg.stop();
  const { value: answers, lines } = await loggedBy(async () => {
    const answers = [];
    for (let n = 1; n <= 30; n += 3)
      answers.push(...(await Promise.all([post(n), post(n + 1), call('GET', '/api/v1/messages')])));
    await new Promise((resolve) => setTimeout(resolve, 2_500)); // the heartbeat's flush (every 2 s) fails once meanwhile, unlogged
    return answers;
  }).finally(() => pg.start());
  for (const answer of answers) {
    expect(answer).toMatchObject({ status: 503, body: UNAVAILABLE, retryAfter: '5' });
    expect(answer.ms).toBeLessThan(2_000);
  }
  // no line per refused request, and no stack trace
  expect(lines).toEqual([]);
  expect(logged.filter((l) => /^PostgreSQL cannot be reached/.test(l))).toHaveLength(1);

  await eventually(async () => (await post(100)).status === 200, 10_000, 200);
  const back = logged.filter((l) => /^PostgreSQL answers again/.test(l));
  expect(back).toEqual([
    expect.stringMatching(/^PostgreSQL answers again after [\d.]+ s; \d+ requests were refused meanwhile\.$/),
  ]);
  expect(Number(/; (\d+) requests/.exec(back[0])![1])).toBeGreaterThanOrEqual(answers.length - 1);
  // what was refused was not written; what was sent again is
  expect((await post(1)).body).toEqual({ ok: true, status: 'recorded', id: expect.stringMatching(/^per_/) });
}, 30_000);

it('while Redis is down, posts are still taken (the outbox is in PostgreSQL), what needs Redis answers 503 unavailable, and the log says so once each way', async () => {
  await stopRedis();
  const { value, lines } = await loggedBy(async () => ({
    posts: await Promise.all([post(200), post(201), post(202)]),
    metrics: await Promise.all([1, 2, 3].map(() => call('GET', '/metrics', undefined, ADMIN_TOKEN))),
  })).finally(() => redis ?? startRedis());
  for (const answer of value.posts)
    expect(answer.body).toEqual({ ok: true, status: 'recorded', id: expect.stringMatching(/^per_/) });
  for (const answer of value.metrics) expect(answer).toMatchObject({ status: 503, body: UNAVAILABLE, retryAfter: '5' });
  expect(lines.filter((l) => / at .*:\d+:\d+/.test(l))).toEqual([]);
  expect(logged.filter((l) => /^Redis cannot be reached/.test(l))).toHaveLength(1);

  await eventually(async () => logged.some((l) => /^Redis answers again/.test(l)), 10_000, 100);
  expect(logged.filter((l) => /^Redis answers again/.test(l))).toEqual([
    expect.stringMatching(/^Redis answers again after [\d.]+ s; [1-9]\d* requests? (was|were) refused meanwhile\.$/),
  ]);
  expect((await call('GET', '/metrics', undefined, ADMIN_TOKEN)).status).toBe(200);
}, 30_000);
