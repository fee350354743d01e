// Health and metrics (docs/operations.md#health-and-metrics): /metrics moves when events are posted; /health/live and
// /health/ready (database, Redis, migrations, worker heartbeat); /metrics guarded by ADMIN_TOKEN.
import type { INestApplicationContext } from '@nestjs/common';
import { createWorker } from '../apps/worker/src/bootstrap';
import { ADMIN_TOKEN, eventually, useApp } from './harness';

let worker: INestApplicationContext | null;
// jest runs afterAll hooks in the order declared: the worker is closed before the app it needs.
afterAll(() => worker?.close());
const t = useApp();
beforeAll(async () => {
  worker = await createWorker(t.config);
}, 60_000);

const scrape = async () => {
  const answer = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(answer.status).toBe(200);
  return answer.text();
};
const value = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
};

it('counts event items accepted and refused by code, their latency, and request codes', async () => {
  const ws = await t.workspace();
  const before = await scrape();
  const accepted = 'lifeline_events_total{door="server",outcome="accepted"}';
  expect(
    (await t.request('POST', '/api/v1/events', { key: ws.secretKey, body: { type: 'signup', email: 'a@example.com' } }))
      .status,
  ).toBe(200);
  const batch = await t.request('POST', '/api/v1/events', {
    key: ws.secretKey,
    body: {
      events: [
        { type: 'signup', email: 'b@example.com' },
        { type: 'signup', email: 'not an email' },
      ],
    },
  });
  expect(batch.status).toBe(207);
  const refusedCode = batch.body.results[1].error;
  await t.request('POST', '/api/v1/events', { key: 'sk_live_wrong', body: { type: 'signup' } });
  const after = await scrape();
  expect(value(after, accepted) - value(before, accepted)).toBe(2);
  const refused = `lifeline_events_total{door="server",outcome="${refusedCode}"}`;
  expect(value(after, refused) - value(before, refused)).toBe(1);
  const invalidKey = 'lifeline_events_total{door="server",outcome="invalid_key"}';
  expect(value(after, invalidKey) - value(before, invalidKey)).toBe(1);
  const latency = 'lifeline_ingest_duration_seconds_count{door="server"}';
  expect(value(after, latency) - value(before, latency)).toBe(3);
  expect(after).toMatch(
    /lifeline_http_requests_total\{method="POST",route="\/api\/v1\/events",status="401",code="invalid_key"\} \d+/,
  );
});

it('shows the outbox backlog and age, deliveries by state, queue depths and memory of both processes', async () => {
  const text = await scrape();
  for (const series of [
    'lifeline_outbox_backlog',
    'lifeline_outbox_oldest_age_seconds',
    'lifeline_api_process_resident_memory_bytes',
  ]) {
    expect(text).toMatch(new RegExp(`^${series} \\d`, 'm'));
  }
  expect(text).toMatch(/^lifeline_deliveries\{state="pending"\} \d+/m);
  expect(text).toMatch(/^lifeline_queue_jobs\{queue="webhook-delivery",state="waiting"\} \d+/m);
  expect(value(text, 'lifeline_worker_resident_memory_bytes')).toBeGreaterThan(10_000_000);
});

it('/metrics refuses a caller without ADMIN_TOKEN', async () => {
  expect((await t.request('GET', '/metrics')).body).toMatchObject({ ok: false, error: 'invalid_key' });
  expect((await t.request('GET', '/metrics', { key: 'not-the-token' })).status).toBe(401);
});

it('/health/live answers; /health/ready names the worker when its heartbeat stops', async () => {
  expect((await t.request('GET', '/health/live')).body).toEqual({ ok: true });
  expect((await t.request('GET', '/health/ready')).body).toEqual({
    ok: true,
    database: 'up',
    redis: 'up',
    migrations: 'up',
    worker: 'up',
  });
  await worker!.close();
  worker = null;
  const ready = await eventually(async () => {
    const answer = await t.request('GET', '/health/ready');
    return answer.status === 503 ? answer : null;
  });
  expect(ready.body).toMatchObject({ ok: false, error: 'not_ready', worker: 'down', database: 'up', migrations: 'up' });
  expect(ready.body.message).toMatch(/worker/);
});
