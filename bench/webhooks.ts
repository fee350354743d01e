// npm run bench:webhooks — outgoing webhooks on a real api and worker (two processes, local PostgreSQL
// and Redis): each event fans out to 10 addresses on a local receiver. Measures event-to-delivery
// latency at a steady rate, deliveries per second in a burst, and, for comparison, bare HTTP posts
// from Node (undici, keep-alive) to the same receiver. The worker's CPU-ms per delivery (/proc, from
// the first post until every delivery is settled) for each run; the burst runs BENCH_ROUNDS (3) times.
// BENCH_LABEL=x writes the section under a title ending in " — x" instead of "Webhooks".
// BENCH_BASE_ROOT=<another checkout> (a worktree of the base): that checkout's api and worker run beside this one's
// (its own database and migrations), each run and burst taken in turn, so before and after meet the same machine.
// BENCH_BARE_CONNECTIONS: sockets (and posts in flight) of the bare baseline, by default the worker's per origin.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { loadavg } from 'node:os';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { byPid, CpuMeter, postgresOf } from './cpu';
import { connect } from './measure';
import { drained, pendingDeliveries } from './schema';
import {
  benchDatabase,
  gql,
  median,
  ROOT,
  Service,
  sleep,
  startService,
  workspaceWithKeys,
  writeResults,
} from './support';

const ENDPOINTS = 10;
const STEADY_RATES = (process.env.BENCH_RATES ?? '50,100').split(',').filter(Boolean).map(Number);
const STEADY_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const BURST_EVENTS = Number(process.env.BENCH_BURST ?? 1_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BASE_ROOT = process.env.BENCH_BASE_ROOT;
// The worker's sockets per origin (createSafeAgent in libs/webhooks/src/sending/safe-post.ts): the bare posts use as many.
const BARE_CONNECTIONS = Number(process.env.BENCH_BARE_CONNECTIONS ?? 256);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

interface Arrival {
  at: number;
  sent: number;
}

/** One Lifeline (this checkout or the one at BENCH_BASE_ROOT) with its workspace, addresses and meters. */
interface Subject {
  name: string;
  service: Service;
  settled(): Promise<void>;
  postEvents(count: number): Promise<void>;
  meter(): CpuMeter;
  close(): Promise<void>;
}

interface Burst {
  rate: number;
  bare: number;
  posting: number;
  /** ms from the first post to the first, the middle and the last arrival. */
  arrived: [number, number, number];
  latencies: number[];
  cpu: number;
  others: Record<string, number>;
}

async function main() {
  // The receiver: answers 200 at once; reads every body as JSON (the bare posts' too) and notes when each delivery arrived and when its event was sent.
  const arrivals: Arrival[] = [];
  let sample: { body: string; headers: Record<string, string> } | null = null;
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = JSON.parse(text);
      if (req.url !== '/bare') {
        arrivals.push({ at: Date.now(), sent: body.data?.properties?.sent ?? 0 });
        sample ??= { body: text, headers: signatureHeaders(req.headers) };
      }
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const waitFor = async (n: number, timeoutMs = 120_000) => {
    const until = Date.now() + timeoutMs;
    while (arrivals.length < n && Date.now() < until) await sleep(20);
    if (arrivals.length < n) throw new Error(`only ${arrivals.length} of ${n} deliveries arrived`);
  };

  const load = loadavg();
  const subjects: Subject[] = [];
  try {
    if (BASE_ROOT) subjects.push(await subject('before', BASE_ROOT, receiverUrl));
    subjects.push(await subject(BASE_ROOT ? 'after' : 'now', ROOT, receiverUrl));
    // Warm-up: people exist, connections are open, statements are planned.
    for (const s of subjects) {
      for (let i = 0; i < 5; i++) await s.postEvents(20);
      await waitFor(5 * 20 * ENDPOINTS);
      await s.settled();
      arrivals.length = 0;
    }

    // Steady: a post of rate / 10 events every 100 ms, for each rate asked.
    const steadyRuns: Array<{ subject: string; rate: number; deliveryRate: number; latencies: number[]; cpu: number }> =
      [];
    for (const rate of STEADY_RATES) {
      for (const s of subjects) {
        const meter = s.meter();
        const perTick = Math.max(1, Math.round(rate / 10));
        const ticks = STEADY_SECONDS * 10;
        const started = Date.now();
        for (let i = 0; i < ticks; i++) {
          void s.postEvents(perTick);
          await sleep(Math.max(0, started + (i + 1) * 100 - Date.now()));
        }
        await waitFor(ticks * perTick * ENDPOINTS);
        await s.settled();
        const cpu = meter.stop().ms.worker / arrivals.length;
        const latencies = arrivals.map((a) => a.at - a.sent).sort((a, b) => a - b);
        steadyRuns.push({
          subject: s.name,
          rate,
          deliveryRate: arrivals.length / ((arrivals.at(-1)!.at - started) / 1000),
          latencies,
          cpu,
        });
        arrivals.length = 0;
        await sleep(1_000);
      }
    }

    // The baseline: bare posts of a delivery's own bytes and signature headers (the first one received), undici from this
    // process to the same receiver, keep-alive, BARE_CONNECTIONS sockets and posts in flight; as many posts as a burst has
    // deliveries, right before each burst, so both meet the same machine (other work on a shared machine moves either by half).
    const agent = new Agent({ connections: BARE_CONNECTIONS });
    const bare = sample as { body: string; headers: Record<string, string> } | null;
    if (!bare) throw new Error('no delivery arrived to copy');
    const barePosts = async (count: number) => {
      let left = count;
      const started = performance.now();
      const headers = { 'content-type': 'application/json', 'user-agent': 'Lifeline-Webhooks/1.0', ...bare.headers };
      await Promise.all(
        Array.from({ length: BARE_CONNECTIONS }, async () => {
          while (left-- > 0) {
            const answer = await request(`${receiverUrl}/bare`, {
              method: 'POST',
              body: bare.body,
              headers,
              dispatcher: agent,
            });
            await answer.body.text();
          }
        }),
      );
      return count / ((performance.now() - started) / 1000);
    };
    await barePosts(2_000);

    // Burst, ROUNDS times for each subject in turn: BURST_EVENTS events posted at once in batches of 100;
    // deliveries/s from first post to last arrival; the worker's CPU until every delivery is settled.
    const bursts: Record<string, Burst[]> = Object.fromEntries(subjects.map((s) => [s.name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of round % 2 ? [...subjects].reverse() : subjects) {
        const bareRate = await barePosts(BURST_EVENTS * ENDPOINTS);
        await sleep(500);
        const meter = s.meter();
        const benchCpu = process.cpuUsage();
        const burstStart = Date.now();
        await Promise.all(Array.from({ length: Math.ceil(BURST_EVENTS / 100) }, () => s.postEvents(100)));
        const posted = Date.now();
        await waitFor(BURST_EVENTS * ENDPOINTS);
        await s.settled();
        const reading = meter.stop();
        const own = process.cpuUsage(benchCpu);
        const n = arrivals.length;
        const offsets = arrivals.map((a) => a.at - burstStart).sort((a, b) => a - b);
        const burstEnd = burstStart + offsets[n - 1];
        const latencies = arrivals.map((a) => a.at - a.sent).sort((a, b) => a - b);
        const others = {
          api: reading.ms.api / n,
          postgres: reading.ms.postgres / n,
          bench: (own.user + own.system) / 1000 / n,
        };
        bursts[s.name].push({
          rate: (BURST_EVENTS * ENDPOINTS) / ((burstEnd - burstStart) / 1000),
          bare: bareRate,
          posting: posted - burstStart,
          arrived: [offsets[0], percentile(offsets, 50), offsets[n - 1]],
          latencies,
          cpu: reading.ms.worker / n,
          others,
        });
        console.log(
          `burst ${round + 1} ${s.name}: ${bursts[s.name].at(-1)!.rate.toFixed(0)} deliveries/s, bare ${bareRate.toFixed(0)}/s, arrivals ${bursts[s.name].at(-1)!.arrived.join(' / ')} ms`,
        );
        arrivals.length = 0;
        await sleep(1_000);
      }
    }
    await agent.close();
    const body = report(
      subjects.map((s) => s.name),
      steadyRuns,
      bursts,
      load,
    );
    console.log(body);
    if (!process.env.BENCH_PROFILE)
      writeResults(process.env.BENCH_LABEL ? `Webhooks — ${process.env.BENCH_LABEL}` : 'Webhooks', body);
  } finally {
    for (const s of subjects) await s.close();
    receiver.closeAllConnections();
    receiver.close();
  }
}

/** Starts a Lifeline from the checkout at `root` with a workspace of ENDPOINTS addresses on the receiver. */
async function subject(name: string, root: string, receiverUrl: string): Promise<Subject> {
  const database = benchDatabase(root === ROOT ? 'lifeline_bench_webhooks' : 'lifeline_bench_webhooks_base');
  const service = await startService(
    database,
    ['api', 'worker'],
    { NODE_ENV: 'development', UNSAFE_ALLOW_PRIVATE_TARGETS: 'true' },
    1,
    root,
  );
  const db = await connect(service.databaseUrl);
  const { secretKeys } = await workspaceWithKeys(service.url, 'bench-webhooks', 4);
  for (let i = 0; i < ENDPOINTS; i++) {
    await gql(
      service.url,
      'mutation($i: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $i) { secret } }',
      { i: { url: `${receiverUrl}/hook/${i}`, triggers: ['event'] } },
      secretKeys[0],
    );
  }
  let posts = 0;
  return {
    name,
    service,
    // Settled: the outbox relayed and no delivery left pending.
    settled: async () => {
      await drained(db);
      await drained(db, pendingDeliveries);
    },
    postEvents: async (count: number) => {
      const key = secretKeys[posts++ % secretKeys.length];
      const events = Array.from({ length: count }, (_, i) => ({
        type: 'pageview',
        email: `p${i % 200}@bench.test`,
        properties: { sent: Date.now() },
      }));
      const answer = await fetch(`${service.url}/api/v1/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ events }),
      });
      if (!answer.ok) throw new Error(`events answered ${answer.status}: ${await answer.text()}`);
    },
    // The worker's CPU, and for the bursts where the rest went: the api, PostgreSQL's backends of this database.
    meter: () =>
      new CpuMeter({
        worker: byPid(service.pids.worker),
        api: byPid(service.pids.api),
        postgres: postgresOf(database),
      }).start(),
    close: async () => {
      await db.end();
      await service.stop();
    },
  };
}

/** The headers a delivery is signed with, as received (the bare posts send the same). */
function signatureHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const names = [
    'x-service-delivery',
    'x-service-event',
    'x-service-signature',
    'webhook-id',
    'webhook-timestamp',
    'webhook-signature',
  ];
  return Object.fromEntries(names.filter((n) => typeof headers[n] === 'string').map((n) => [n, headers[n] as string]));
}

function report(
  names: string[],
  steadyRuns: Array<{ subject: string; rate: number; deliveryRate: number; latencies: number[]; cpu: number }>,
  bursts: Record<string, Burst[]>,
  load: number[],
): string {
  const f = (x: number) => x.toFixed(3);
  const table = [
    '| subject | run | deliveries/s | bare posts/s just before | ratio | p50 event-to-delivery | p99 event-to-delivery | deliveries | worker CPU-ms/delivery | api / PostgreSQL / bench CPU-ms/delivery |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...steadyRuns.map(
      ({ subject, rate, deliveryRate, latencies, cpu }) =>
        `| ${subject} | steady, ${rate} events/s × ${ENDPOINTS} addresses, ${STEADY_SECONDS} s | ${deliveryRate.toFixed(0)} | | | ${percentile(latencies, 50)} ms | ${percentile(latencies, 99)} ms | ${latencies.length} | ${f(cpu)} | |`,
    ),
    ...names.flatMap((name) =>
      bursts[name].map(
        ({ rate, bare, posting, arrived, latencies, cpu, others }, i) =>
          `| ${name} | burst ${i + 1}, ${BURST_EVENTS} events × ${ENDPOINTS} addresses posted at once (posted in ${posting} ms; arrivals first / half / last at ${arrived.join(' / ')} ms) | ${rate.toFixed(0)} | ${bare.toFixed(0)} | ${(rate / bare).toFixed(2)} | ${percentile(latencies, 50)} ms | ${percentile(latencies, 99)} ms | ${latencies.length} | ${f(cpu)} | ${f(others.api)} / ${f(others.postgres)} / ${f(others.bench)} |`,
      ),
    ),
  ].join('\n');
  const summary = names.map((name) => {
    const b = bursts[name];
    const m = (pick: (x: Burst) => number) => median(b.map(pick));
    return `- ${name}: burst / bare of the same round, median of ${b.length}: **${m((x) => x.rate / x.bare).toFixed(2)}** (${m((x) => x.rate).toFixed(0)} deliveries/s); CPU-ms per delivery: worker **${f(m((x) => x.cpu))}**, PostgreSQL ${f(m((x) => x.others.postgres))}, api ${f(m((x) => x.others.api))}, bench ${f(m((x) => x.others.bench))}`;
  });
  if (names.length === 2) {
    const [before, after] = names.map((name) => bursts[name]);
    const m = (b: Burst[], pick: (x: Burst) => number) => median(b.map(pick));
    summary.push(
      `- after / before: burst ratio ${(m(after, (x) => x.rate / x.bare) / m(before, (x) => x.rate / x.bare)).toFixed(2)}×, worker CPU ${(m(after, (x) => x.cpu) / m(before, (x) => x.cpu)).toFixed(2)}×, PostgreSQL CPU ${(m(after, (x) => x.others.postgres) / m(before, (x) => x.others.postgres)).toFixed(2)}×`,
    );
  }
  return [
    'Command: `npm run bench:webhooks` (api and worker as two processes, NODE_ENV=development with',
    'UNSAFE_ALLOW_PRIVATE_TARGETS=true so the receiver may be on 127.0.0.1; the receiver runs in the bench',
    'process, reads each body as JSON and answers 200 at once; each `pageview` event fans out to 10 addresses that hear `event`).',
    `Bare baseline: a delivery's own body and signature headers posted by undici, ${BARE_CONNECTIONS} sockets and posts in flight.`,
    BASE_ROOT
      ? `Before: the checkout at ${BASE_ROOT}, run in turn with this one (bursts alternate which goes first).`
      : '',
    '',
    table,
    '',
    ...summary,
    `Load average (uptime) ${load.map((x) => x.toFixed(2)).join(', ')} at the start, ${loadavg()
      .map((x) => x.toFixed(2))
      .join(', ')} at the end.`,
    'Targets: burst ≥ 0.7× bare, p50 under 100 ms.',
    `Measured on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
  ].join('\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
