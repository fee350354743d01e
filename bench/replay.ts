// npm run bench:replay — a webhook replay of BENCH_REPLAY (1,000,000) happenings to one address while live events go to a
// second one, on a real api and worker (two processes, local PostgreSQL and Redis). The window's happenings are written
// with SQL as outbox rows of ten days ago (100 happenings a row, about a thousand people); the replayed posts go to a sink
// in a process of its own, the live ones to a receiver here. Live events are posted one per request at BENCH_LIVE_RATE
// (20) a second, for BENCH_SECONDS (20) before the replay as the quiet figure and BENCH_REPLAY_SECONDS (180) while it
// runs; a live delivery's delay is its arrival less its post's start. Also: how long replayEvents took (it counts the
// window), and the replay's deliveries a second while live events went.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from './measure';
import { benchDatabase, gql, sleep, startService, workspaceWithKeys, writeResults } from './support';

const REPLAY = Number(process.env.BENCH_REPLAY ?? 1_000_000);
const LIVE_RATE = Number(process.env.BENCH_LIVE_RATE ?? 20);
const QUIET_SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const REPLAY_SECONDS = Number(process.env.BENCH_REPLAY_SECONDS ?? 180);
const PER_ROW = 100;
const PEOPLE = 1_000;
const DAY_MS = 24 * 3600_000;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** The replayed posts' sink: a child process answering 200 and counting, so its work is not this process's. */
function sink(): Promise<{ url: string; count(): Promise<number>; stop(): void }> {
  const code = `const http = require('node:http'); let n = 0;
    const s = http.createServer((req, res) => { if (req.method === 'GET') return res.end(String(n));
      req.resume(); req.on('end', () => { n++; res.writeHead(200).end('ok'); }); });
    s.listen(0, '127.0.0.1', () => process.send(s.address().port));`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  return new Promise((resolve) =>
    child.once('message', (port) => {
      const url = `http://127.0.0.1:${port}`;
      resolve({ url, count: async () => Number(await (await fetch(url)).text()), stop: () => child.kill() });
    }),
  );
}

/** REPLAY happenings of `event` as outbox rows written ten days ago, over the workspace's people. */
async function writeWindow(databaseUrl: string, workspaceId: string): Promise<void> {
  const db = await connect(databaseUrl);
  const rows = Math.ceil(REPLAY / PER_ROW);
  for (let from = 0; from < rows; from += 500) {
    await db.query(
      `WITH p AS (SELECT array_agg(id ORDER BY id) AS ids FROM people WHERE workspace_id = $1)
       INSERT INTO outbox (workspace_id, happenings, created_at)
       SELECT $1, (SELECT jsonb_agg(jsonb_build_object('kind', 'event', 'personId',
                     p.ids[1 + (g * ${PER_ROW} + i) % array_length(p.ids, 1)], 'payload', jsonb_build_object(
                     'at', to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'data', jsonb_build_object('event',
                     jsonb_build_object('event', 'pageview', 'id', 'evt_replay_' || (g * ${PER_ROW} + i),
                       'occurred_at', to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))))))
                   FROM generate_series(1, ${PER_ROW}) i), ts
         FROM p, generate_series($2::int, $3::int) g,
              LATERAL (SELECT now() - interval '10 days' + g * interval '50 ms' AS ts) tt`,
      [workspaceId, from, Math.min(rows, from + 500) - 1],
    );
  }
  // Relayed before any address is added, so only the replay sends them.
  for (;;) {
    const [{ left }] = (
      await db.query(`SELECT count(*)::int AS left FROM outbox o
        WHERE (o.xid, o.id) > (SELECT xid, id FROM outbox_relay WHERE name = 'main')`)
    ).rows;
    if (left === 0) break;
    await sleep(200);
  }
  await db.query('ANALYZE outbox');
  await db.end();
}

async function main() {
  const service = await startService(benchDatabase('lifeline_bench_replay'), ['api', 'worker'], {
    NODE_ENV: 'development',
    UNSAFE_ALLOW_PRIVATE_TARGETS: 'true',
  });
  const replayed = await sink();
  const arrivals: number[] = [];
  const live = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const sent = JSON.parse(Buffer.concat(chunks).toString('utf8')).data?.properties?.sent;
      if (sent) arrivals.push(Date.now() - sent);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => live.listen(0, '127.0.0.1', r));
  try {
    // A key takes 600 posts in ten minutes: the live posts go round enough keys to stay within it.
    const keys = Math.ceil(((QUIET_SECONDS + REPLAY_SECONDS) * LIVE_RATE + PEOPLE / 100) / 500);
    const { workspaceId, secretKeys } = await workspaceWithKeys(service.url, 'bench-replay', keys);
    const key = secretKeys[0];
    let posts = 0;
    const post = (body: unknown) =>
      fetch(`${service.url}/api/v1/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${secretKeys[posts++ % keys]}` },
        body: JSON.stringify(body),
      }).then((r) => r.text());
    for (let i = 0; i < PEOPLE; i += 100)
      await post({
        events: Array.from({ length: 100 }, (_, j) => ({ type: 'signup', email: `p${i + j}@bench.test` })),
      });
    const writing = Date.now();
    await writeWindow(service.databaseUrl, workspaceId);
    console.log(`${REPLAY} happenings written and relayed in ${((Date.now() - writing) / 1000).toFixed(0)} s`);

    const address = async (url: string) =>
      (
        await gql(
          service.url,
          'mutation($i: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $i) { endpoint { id } } }',
          { i: { url, triggers: ['event'] } },
          key,
        )
      ).createWebhookEndpoint.endpoint.id as string;
    const replayTo = await address(`${replayed.url}/replayed`);
    await address(`http://127.0.0.1:${(live.address() as AddressInfo).port}/live`);

    // Live events, one a request, each stamped with the moment its post started.
    const liveFor = async (seconds: number) => {
      arrivals.length = 0;
      const started = Date.now();
      const ticks = seconds * LIVE_RATE;
      for (let i = 0; i < ticks; i++) {
        void post({ type: 'live_ping', email: `p${i % PEOPLE}@bench.test`, properties: { sent: Date.now() } });
        await sleep(Math.max(0, started + ((i + 1) * 1000) / LIVE_RATE - Date.now()));
      }
      const until = Date.now() + 10_000;
      while (arrivals.length < ticks && Date.now() < until) await sleep(50);
      return { sent: ticks, delays: [...arrivals].sort((a, b) => a - b) };
    };
    const quiet = await liveFor(QUIET_SECONDS);

    const asked = Date.now();
    const queued = (
      await gql(
        service.url,
        'mutation($id: ID!, $s: DateTime!, $u: DateTime!) { replayEvents(endpointId: $id, since: $s, until: $u) }',
        { id: replayTo, s: new Date(Date.now() - 11 * DAY_MS), u: new Date(Date.now() - 9 * DAY_MS) },
        key,
      )
    ).replayEvents as number;
    const askedMs = Date.now() - asked;
    console.log(`replayEvents answered ${queued} in ${askedMs} ms`);
    while ((await replayed.count()) === 0) await sleep(50);
    const sinkStart = await replayed.count();
    const t0 = Date.now();
    const during = await liveFor(REPLAY_SECONDS);
    const sinkEnd = await replayed.count();
    const replayRate = (sinkEnd - sinkStart) / ((Date.now() - t0) / 1000);
    const progress = (
      await gql(service.url, '{ webhookEndpoints { id replays { state total done } } }', {}, key)
    ).webhookEndpoints.find((e: { id: string }) => e.id === replayTo).replays[0];

    const line = (name: string, run: { sent: number; delays: number[] }) =>
      `| ${name} | ${run.sent} | ${run.delays.length} | ${percentile(run.delays, 50)} | ${percentile(run.delays, 99)} | ` +
      `${run.delays.at(-1)} |`;
    writeResults(
      'Webhook replay beside live deliveries',
      [
        `A replay of ${queued.toLocaleString('en')} happenings (written with SQL as outbox rows ten days old) to one address, ` +
          `while ${LIVE_RATE} live events a second, one per post, go to a second address; delays in ms from a live ` +
          `post's start to its delivery's arrival.`,
        '',
        '| Live events | Posted | Arrived | p50 | p99 | max |',
        '|---|---|---|---|---|---|',
        line(`quiet, ${QUIET_SECONDS} s`, quiet),
        line(`during the replay, ${REPLAY_SECONDS} s`, during),
        '',
        `replayEvents (counting the window) answered in ${askedMs} ms. The replay sent ${replayRate.toFixed(0)} ` +
          `deliveries a second while live events went; at the end of the run it stood at ${progress.done.toLocaleString('en')} ` +
          `of ${progress.total.toLocaleString('en')} (${progress.state}).`,
      ].join('\n'),
    );
  } finally {
    live.close();
    replayed.stop();
    await service.stop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
