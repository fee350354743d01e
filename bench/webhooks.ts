// npm run bench:webhooks — outgoing webhooks on a real api and worker (two processes, local PostgreSQL
// and Redis): each event fans out to 10 addresses on a local receiver. Measures event-to-delivery
// latency at a steady rate, deliveries per second in a burst, and, for comparison, bare HTTP posts
// from Node (undici, keep-alive) to the same receiver. The worker's CPU-ms per delivery (/proc, from
// the first post until every delivery is settled) for each run; the burst runs BENCH_ROUNDS (3) times.
// BENCH_LABEL=x writes the section "Webhooks (issue 18) — x" instead of "Webhooks".
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { byPid, CpuMeter, postgresOf } from './cpu';
import { connect } from './measure';
import { drained, pendingDeliveries } from './schema';
import { benchDatabase, gql, median, sleep, startService, workspaceWithKeys, writeResults } from './support';

const ENDPOINTS = 10;
const STEADY_RATES = (process.env.BENCH_RATES ?? '50,100').split(',').map(Number);
const STEADY_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const BURST_EVENTS = Number(process.env.BENCH_BURST ?? 1_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main() {
  // The receiver: answers 200 at once and notes when each delivery arrived and when its event was sent.
  const arrivals: Array<{ at: number; sent: number }> = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (req.url !== '/bare') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        arrivals.push({ at: Date.now(), sent: body.data?.properties?.sent ?? 0 });
      }
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  const database = benchDatabase('lifeline_bench_webhooks');
  const service = await startService(database, ['api', 'worker'], { NODE_ENV: 'development', UNSAFE_ALLOW_PRIVATE_TARGETS: 'true' });
  const db = await connect(service.databaseUrl);
  const load = loadavg();
  // Settled: the outbox relayed and no delivery left pending.
  const settled = async () => {
    await drained(db);
    await drained(db, pendingDeliveries);
  };
  // The worker's CPU, and for the bursts where the rest went: the api, PostgreSQL's backends, this process (receiver and client).
  const workerCpu = () => new CpuMeter({ worker: byPid(service.pids.worker), api: byPid(service.pids.api), postgres: postgresOf(database) }).start();
  try {
    const { secretKeys } = await workspaceWithKeys(service.url, 'bench-webhooks', 4);
    for (let i = 0; i < ENDPOINTS; i++) {
      await gql(service.url, 'mutation($i: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $i) { secret } }', { i: { url: `${receiverUrl}/hook/${i}`, triggers: ['event'] } }, secretKeys[0]);
    }
    let posts = 0;
    const postEvents = async (count: number) => {
      const key = secretKeys[posts++ % secretKeys.length];
      const events = Array.from({ length: count }, (_, i) => ({ type: 'pageview', email: `p${i % 200}@bench.test`, properties: { sent: Date.now() } }));
      const answer = await fetch(`${service.url}/api/v1/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ events }),
      });
      if (!answer.ok) throw new Error(`events answered ${answer.status}: ${await answer.text()}`);
    };
    const waitFor = async (n: number, timeoutMs = 120_000) => {
      const until = Date.now() + timeoutMs;
      while (arrivals.length < n && Date.now() < until) await sleep(20);
      if (arrivals.length < n) throw new Error(`only ${arrivals.length} of ${n} deliveries arrived`);
    };

    // Warm-up: people exist, connections are open, statements are planned.
    for (let i = 0; i < 5; i++) await postEvents(20);
    await waitFor(5 * 20 * ENDPOINTS);
    arrivals.length = 0;

    // Steady: a post of rate / 10 events every 100 ms, for each rate asked.
    const steadyRuns: Array<{ rate: number; deliveryRate: number; latencies: number[]; cpu: number }> = [];
    for (const rate of STEADY_RATES) {
      const meter = workerCpu();
      const perTick = Math.max(1, Math.round(rate / 10));
      const ticks = STEADY_SECONDS * 10;
      const started = Date.now();
      for (let i = 0; i < ticks; i++) {
        void postEvents(perTick);
        await sleep(Math.max(0, started + (i + 1) * 100 - Date.now()));
      }
      await waitFor(ticks * perTick * ENDPOINTS);
      await settled();
      const cpu = meter.stop().ms.worker / arrivals.length;
      const latencies = arrivals.map((a) => a.at - a.sent).sort((a, b) => a - b);
      steadyRuns.push({ rate, deliveryRate: arrivals.length / ((arrivals.at(-1)!.at - started) / 1000), latencies, cpu });
      arrivals.length = 0;
      await sleep(1_000);
    }

    // The baseline: bare posts, undici from this process to the same receiver, 100 in flight, keep-alive;
    // as many posts as a burst has deliveries, right before each burst, so both meet the same machine
    // (other work on a shared machine moves either by half from one minute to the next).
    const agent = new Agent({ connections: 100 });
    const barePosts = async (count: number) => {
      let left = count;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: 100 }, async () => {
          while (left-- > 0) {
            const answer = await request(`${receiverUrl}/bare`, { method: 'POST', body: '{"id":"x"}', headers: { 'content-type': 'application/json' }, dispatcher: agent });
            await answer.body.text();
          }
        }),
      );
      return count / ((performance.now() - started) / 1000);
    };
    await barePosts(2_000);

    // Burst, ROUNDS times: BURST_EVENTS events posted at once in batches of 100; deliveries/s from first
    // post to last arrival; the worker's CPU until every delivery is settled.
    const bursts: Array<{ rate: number; bare: number; posting: number; latencies: number[]; cpu: number; others: string }> = [];
    for (let round = 0; round < ROUNDS; round++) {
      const bare = await barePosts(BURST_EVENTS * ENDPOINTS);
      await sleep(500);
      const meter = workerCpu();
      const benchCpu = process.cpuUsage();
      const burstStart = Date.now();
      await Promise.all(Array.from({ length: Math.ceil(BURST_EVENTS / 100) }, () => postEvents(100)));
      const posted = Date.now();
      await waitFor(BURST_EVENTS * ENDPOINTS);
      await settled();
      const reading = meter.stop();
      const cpu = reading.ms.worker / arrivals.length;
      const own = process.cpuUsage(benchCpu);
      const per = (ms: number) => (ms / arrivals.length).toFixed(3);
      const others = `api ${per(reading.ms.api)}, PostgreSQL ${per(reading.ms.postgres)}, bench ${per((own.user + own.system) / 1000)}`;
      const burstEnd = Math.max(...arrivals.map((a) => a.at));
      const latencies = arrivals.map((a) => a.at - a.sent).sort((a, b) => a - b);
      bursts.push({ rate: (BURST_EVENTS * ENDPOINTS) / ((burstEnd - burstStart) / 1000), bare, posting: posted - burstStart, latencies, cpu, others });
      arrivals.length = 0;
      await sleep(1_000);
    }
    const burstCpu = median(bursts.map((b) => b.cpu));
    const ratio = median(bursts.map((b) => b.rate / b.bare));
    await agent.close();

    const table = [
      '| run | deliveries/s | bare posts/s just before | ratio | p50 event-to-delivery | p99 event-to-delivery | deliveries | worker CPU-ms/delivery | other CPU-ms/delivery |',
      '|---|---|---|---|---|---|---|---|---|',
      ...steadyRuns.map(
        ({ rate, deliveryRate, latencies, cpu }) =>
          `| steady, ${rate} events/s × ${ENDPOINTS} addresses, ${STEADY_SECONDS} s | ${deliveryRate.toFixed(0)} | | | ${percentile(latencies, 50)} ms | ${percentile(latencies, 99)} ms | ${latencies.length} | ${cpu.toFixed(3)} | |`,
      ),
      ...bursts.map(
        ({ rate, bare, posting, latencies, cpu, others }, i) =>
          `| burst ${i + 1}, ${BURST_EVENTS} events × ${ENDPOINTS} addresses posted at once (posting took ${posting} ms) | ${rate.toFixed(0)} | ${bare.toFixed(0)} | ${(rate / bare).toFixed(2)} | ${percentile(latencies, 50)} ms | ${percentile(latencies, 99)} ms | ${latencies.length} | ${cpu.toFixed(3)} | ${others} |`,
      ),
    ].join('\n');
    const body = [
      'Command: `npm run bench:webhooks` (api and worker as two processes, NODE_ENV=development with',
      'UNSAFE_ALLOW_PRIVATE_TARGETS=true so the receiver may be on 127.0.0.1; the receiver runs in the bench',
      'process and answers 200 at once; each `pageview` event fans out to 10 addresses that hear `event`).',
      'Event-to-delivery: from just before the event is posted to its delivery arriving at the receiver',
      '(post, outbox, relay, stored body, claim, signed post; the relay sends first attempts itself and only',
      'retries go through BullMQ; claims and settlements of concurrent attempts are written in groups).',
      '',
      table,
      '',
      `Burst / bare posts of the same round, median of ${ROUNDS}: **${ratio.toFixed(2)}**. Worker CPU per delivery, median of ${ROUNDS} bursts: **${burstCpu.toFixed(3)} ms**.`,
      `Load average (uptime) ${load.map((x) => x.toFixed(2)).join(', ')} at the start, ${loadavg().map((x) => x.toFixed(2)).join(', ')} at the end.`,
      'Targets: at least 1,000 deliveries/s and p50 under 100 ms.',
      `Measured on ${new Date().toISOString().slice(0, 10)}.`,
    ].join('\n');
    console.log(body);
    writeResults(process.env.BENCH_LABEL ? `Webhooks (issue 18) — ${process.env.BENCH_LABEL}` : 'Webhooks', body);
  } finally {
    await db.end();
    await service.stop();
    receiver.closeAllConnections();
    receiver.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
