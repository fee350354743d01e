// npm run bench:ingest — POST /api/v1/events on a real api and worker with the local PostgreSQL and
// Redis, driven by autocannon: single events (64 connections) and batches of 100, over a mix of new
// and returning people; then the same rows inserted straight into PostgreSQL with pg, for comparison.
import autocannon from 'autocannon';
import { Pool } from 'pg';
import { newId } from '@app/core';
import { startService, workspaceWithKeys, writeResults } from './support';

const DURATION = Number(process.env.BENCH_SECONDS ?? 15);
const TYPES = ['pageview', 'pageview', 'pageview', 'cta_click', 'signup', 'purchase', 'report_exported'];

function personFor(i: number): string {
  // Half the posts name a new person, half a returning one.
  return i % 2 === 0 ? `p${i}@bench.test` : `p${2 * Math.floor((Math.random() * i) / 2)}@bench.test`;
}

function event(i: number) {
  return { type: TYPES[i % TYPES.length], email: personFor(i), properties: { n: i, plan: 'pro' }, source: { path: '/pricing', os: 'mac' } };
}

async function drive(url: string, keys: string[], connections: number, body: (i: number) => unknown) {
  let n = 0;
  const result = await autocannon({
    url: `${url}/api/v1/events`,
    connections,
    duration: DURATION,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          const i = n++;
          return {
            ...req,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${keys[Math.floor(i / 500) % keys.length]}` },
            body: JSON.stringify(body(i)),
          };
        },
      },
    ],
  });
  return result;
}

async function direct(databaseUrl: string, workspaceId: string, clients: number, rowsPerStatement: number) {
  const pool = new Pool({ connectionString: databaseUrl, max: clients });
  let rows = 0;
  const until = Date.now() + DURATION * 1000;
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < until) {
        const batch = Array.from({ length: rowsPerStatement }, (_, i) => ({
          workspace_id: workspaceId,
          id: newId('evt'),
          occurred_at: new Date().toISOString(),
          person_id: `per_direct_${i}`,
          type: 'pageview',
          properties: { n: i, plan: 'pro' },
          source: { path: '/pricing', os: 'mac' },
        }));
        const started = performance.now();
        await pool.query(
          `INSERT INTO events (workspace_id, id, occurred_at, person_id, type, properties, source)
           SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(workspace_id text, id text, occurred_at timestamptz, person_id text, type text, properties jsonb, source jsonb)`,
          [JSON.stringify(batch)],
        );
        latencies.push(performance.now() - started);
        rows += rowsPerStatement;
      }
    }),
  );
  await pool.end();
  latencies.sort((a, b) => a - b);
  return { rowsPerSecond: rows / DURATION, p50: latencies[Math.floor(latencies.length / 2)], p99: latencies[Math.floor(latencies.length * 0.99)] };
}

async function main() {
  const service = await startService('lifeline_bench_ingest', ['api', 'worker']);
  try {
    const { workspaceId, secretKeys } = await workspaceWithKeys(service.url, 'bench', 160);
    // warm-up
    await drive(service.url, secretKeys.slice(150), 8, event).catch(() => undefined);
    const single = await drive(service.url, secretKeys.slice(0, 100), 64, event);
    const batch = await drive(service.url, secretKeys.slice(100, 150), 16, (i) => ({ events: Array.from({ length: 100 }, (_, j) => event(i * 100 + j)) }));
    const directSingle = await direct(service.databaseUrl, workspaceId, 64, 1);
    const directBatch = await direct(service.databaseUrl, workspaceId, 16, 100);

    const singleRate = single.requests.average;
    const batchRate = batch.requests.average * 100;
    const ok = (r: autocannon.Result) => `${r['2xx']} 2xx, ${r.non2xx} non-2xx, ${r.errors} errors`;
    const table = [
      '| run | events/s | p50 latency | p99 latency | answers |',
      '|---|---|---|---|---|',
      `| single events, 64 connections | ${singleRate.toFixed(0)} | ${single.latency.p50} ms | ${single.latency.p99} ms | ${ok(single)} |`,
      `| batches of 100, 16 connections | ${batchRate.toFixed(0)} | ${batch.latency.p50} ms | ${batch.latency.p99} ms | ${ok(batch)} |`,
      `| direct pg, 1 row per INSERT, 64 clients | ${directSingle.rowsPerSecond.toFixed(0)} | ${directSingle.p50.toFixed(1)} ms | ${directSingle.p99.toFixed(1)} ms | |`,
      `| direct pg, 100 rows per INSERT, 16 clients | ${directBatch.rowsPerSecond.toFixed(0)} | ${directBatch.p50.toFixed(1)} ms | ${directBatch.p99.toFixed(1)} ms | |`,
    ].join('\n');
    const text = [
      `Command: \`npm run bench:ingest\` (${DURATION} s per run; api and worker as two processes, NODE_ENV=production,`,
      'local PostgreSQL and Redis; half the posts name a new person, half a returning one; 7 event types incl. a custom one).',
      '',
      table,
      '',
      `Ratio to direct inserts: single ${(singleRate / directSingle.rowsPerSecond).toFixed(2)}, batches ${(batchRate / directBatch.rowsPerSecond).toFixed(2)}.`,
      `Targets: at least 2,000 single events/s with p99 under 100 ms; at least 15,000 events/s in batches.`,
      `Measured on ${new Date().toISOString().slice(0, 10)}.`,
    ].join('\n');
    writeResults('Ingest (POST /api/v1/events)', text);
    console.log(text);
  } finally {
    await service.stop();
  }
}

void main();
