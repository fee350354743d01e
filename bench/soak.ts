// npm run bench:soak [-- MINUTES] — a real api and worker (child processes, local
// PostgreSQL and Redis) under a steady mixed load for a set time (the first argument or BENCH_MINUTES,
// 30 by default), reported minute by minute: resident memory of the api and the worker (/proc), the
// api's event-loop delay (/metrics, its p99 and max over the minute), latency percentiles and errors of
// each kind of call, and deliveries to a local receiver. Open loop (calls leave on a clock whether or not
// earlier ones were answered), per second: BENCH_EVENTS (20) single event posts, 1 batch of 20, 5
// website posts (each from its own visitor address, TRUST_PROXY), 2 messages rendered for a person,
// 2 GraphQL reads (a people page, a person's timeline); every event is delivered to a webhook receiver
// in this process. NODE_ENV=development with UNSAFE_ALLOW_PRIVATE_TARGETS=true, as the receiver is local.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { readFileSync } from 'node:fs';
import {
  ADMIN_TOKEN,
  benchDatabase,
  dropDatabase,
  gql,
  sleep,
  startService,
  workspaceWithKeys,
  writeResults,
} from './support';

const MINUTES = Number(process.argv[2] ?? process.env.BENCH_MINUTES ?? 30);
const EVENTS_PER_SECOND = Number(process.env.BENCH_EVENTS ?? 20);
const PEOPLE = 500;
const ORIGIN = 'https://shop.bench.test';
const KINDS = ['event', 'batch', 'website', 'message', 'graphql'] as const;
type Kind = (typeof KINDS)[number];
/** Calls per second of each kind. */
const RATES: Record<Kind, number> = { event: EVENTS_PER_SECOND, batch: 1, website: 5, message: 2, graphql: 2 };
const TICK_MS = 50;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)];
const mb = (bytes: number) => (bytes / 1048576).toFixed(0);

function rss(pid: number | undefined): number {
  if (!pid) return NaN;
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.match(/(\d+)/)?.[1] ?? NaN) * 1024;
}

interface Minute {
  latencies: Record<Kind, number[]>;
  errors: Record<Kind, number>;
  /** Refusals and failures by kind and status, for the report's last line. */
  failures: Map<string, number>;
  delivered: number;
}

const newMinute = (): Minute => ({
  latencies: Object.fromEntries(KINDS.map((k) => [k, []])) as unknown as Record<Kind, number[]>,
  errors: Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>,
  failures: new Map(),
  delivered: 0,
});

async function main() {
  let minute = newMinute();
  let deliveredTotal = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      minute.delivered++;
      deliveredTotal++;
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  const database = benchDatabase('lifeline_bench_soak');
  const service = await startService(database, ['api', 'worker'], {
    NODE_ENV: 'development',
    UNSAFE_ALLOW_PRIVATE_TARGETS: 'true',
    TRUST_PROXY: 'true',
  });
  const { url } = service;
  const load = [loadavg()[0]];
  try {
    // Each secret key may post 600 times and read 1,200 times in ten minutes.
    const perKeyPerSecond = 600 / 600;
    const keysNeeded = Math.ceil((RATES.event + RATES.batch + RATES.message) / perKeyPerSecond / 0.8) + 1;
    const ws = await workspaceWithKeys(url, 'bench-soak', keysNeeded);
    await gql(
      url,
      'mutation($o: [String!]!) { updateWorkspaceSettings(input: { allowedOrigins: $o }) { id } }',
      { o: [ORIGIN] },
      ws.secretKeys[0],
    );
    await gql(
      url,
      'mutation($i: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $i) { secret } }',
      { i: { url: `${receiverUrl}/hook`, triggers: ['event'] } },
      ws.secretKeys[0],
    );
    let keyTurn = 0;
    const key = () => ws.secretKeys[keyTurn++ % ws.secretKeys.length];
    const emails = Array.from({ length: PEOPLE }, (_, i) => `p${i}@soak.test`);
    const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const answer = await fetch(url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      const text = await answer.text();
      return { status: answer.status, body: text };
    };
    // Every person signs up (so messages may go to them) and has a plan to fill into the template.
    for (let i = 0; i < PEOPLE; i += 100) {
      const events = emails
        .slice(i, i + 100)
        .map((email, j) => ({ type: 'signup', email, name: `Person ${i + j}`, properties: { plan: 'pro' } }));
      const answer = await post('/api/v1/events', { events }, { authorization: `Bearer ${key()}` });
      if (answer.status !== 200) throw new Error(`set-up batch answered ${answer.status}: ${answer.body}`);
    }

    const calls: Record<Kind, () => Promise<{ status: number; body: string }>> = {
      event: () =>
        post(
          '/api/v1/events',
          { type: pick(['pageview', 'purchase', 'login']), email: pick(emails), properties: { value: 5 } },
          { authorization: `Bearer ${key()}` },
        ),
      batch: () =>
        post(
          '/api/v1/events',
          {
            events: Array.from({ length: 20 }, () => ({
              type: 'pageview',
              email: pick(emails),
              source: { path: '/pricing' },
            })),
          },
          { authorization: `Bearer ${key()}` },
        ),
      website: () =>
        post(
          `/api/in/${ws.publicKey}/event`,
          { type: 'pageview', anon_id: `a${Math.random().toString(16).slice(2)}`, source: { path: '/' } },
          {
            origin: ORIGIN,
            'x-forwarded-for': `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`,
          },
        ),
      message: () =>
        post(
          '/api/v1/messages',
          {
            to: pick(emails),
            subject: 'Hello {{ person.first_name }}',
            body: '# Hi {{ person.name }}\n\nYou are on **{{ person.fields.plan | default: "free" }}**.',
          },
          { authorization: `Bearer ${key()}` },
        ),
      graphql: async () => {
        const query =
          Math.random() < 0.5
            ? '{ people(first: 20) { edges { node { id } } } }'
            : `{ person(email: "${pick(emails)}") { id timeline(first: 20) { edges { node { id } } } } }`;
        const answer = await post('/graphql', { query }, { authorization: `Bearer ${key()}` });
        // GraphQL answers 200 with errors: count those as errors too.
        return answer.status === 200 && answer.body.includes('"errors"') ? { status: 599, body: answer.body } : answer;
      },
    };

    // Warm-up: the render threads start with the first message, not inside the first minute's figures.
    for (const kind of KINDS) await calls[kind]();

    const scrape = async () => {
      const text = await (
        await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
      ).text();
      const read = (series: string) =>
        Number(text.match(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm'))?.[1] ?? NaN);
      return {
        loopP99: read('lifeline_api_nodejs_eventloop_lag_p99_seconds') * 1000,
        loopMax: read('lifeline_api_nodejs_eventloop_lag_max_seconds') * 1000,
        backlog: read('lifeline_outbox_backlog'),
      };
    };
    await scrape(); // starts the first minute's window of the event-loop histogram

    const rows: string[] = [];
    const memory: Array<{ api: number; worker: number }> = [];
    const totals = { calls: 0, errors: 0, failures: new Map<string, number>() };
    const owed: Record<Kind, number> = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;
    const inFlight = new Set<Promise<void>>();
    const started = performance.now();
    let minuteEnds = started + 60_000;
    console.log(`soak: ${MINUTES} min against ${url} (api ${service.pids.api}, worker ${service.pids.worker})`);
    const closeMinute = async () => {
      const done = minute;
      minute = newMinute();
      const metrics = await scrape();
      const used = { api: rss(service.pids.api), worker: rss(service.pids.worker) };
      memory.push(used);
      load.push(loadavg()[0]);
      const cells = KINDS.map((k) => {
        const sorted = [...done.latencies[k]].sort((a, b) => a - b);
        return `${percentile(sorted, 50).toFixed(0)} / ${percentile(sorted, 99).toFixed(0)}${done.errors[k] ? ` (${done.errors[k]} err)` : ''}`;
      });
      const row = `| ${memory.length} | ${mb(used.api)} / ${mb(used.worker)} | ${metrics.loopP99.toFixed(1)} / ${metrics.loopMax.toFixed(0)} | ${cells.join(' | ')} | ${done.delivered} | ${metrics.backlog} |`;
      rows.push(row);
      console.log(row);
      for (const [what, n] of done.failures) totals.failures.set(what, (totals.failures.get(what) ?? 0) + n);
    };

    while (performance.now() - started < MINUTES * 60_000) {
      for (const kind of KINDS) {
        owed[kind] += (RATES[kind] * TICK_MS) / 1000;
        for (; owed[kind] >= 1; owed[kind]--) {
          const leaving = performance.now();
          const call: Promise<void> = calls[kind]()
            .then(
              (answer) => ({ status: answer.status, body: answer.body }),
              (error: Error) => ({ status: 0, body: error.message }),
            )
            .then(({ status, body }) => {
              // Counted in the minute it is answered in, so no answer falls between two minutes' rows.
              const bucket = minute;
              bucket.latencies[kind].push(performance.now() - leaving);
              totals.calls++;
              if (status >= 200 && status < 300) return;
              bucket.errors[kind]++;
              totals.errors++;
              const what = `${kind} ${status} ${body.match(/"error":"(\w+)"/)?.[1] ?? body.slice(0, 60)}`;
              bucket.failures.set(what, (bucket.failures.get(what) ?? 0) + 1);
            })
            .finally(() => inFlight.delete(call));
          inFlight.add(call);
        }
      }
      if (performance.now() >= minuteEnds) {
        minuteEnds += 60_000;
        await closeMinute();
      }
      await sleep(TICK_MS);
    }
    await Promise.all(inFlight);
    if (minute.latencies.event.length) await closeMinute();
    // Deliveries still on their way when the load stops: given up to a minute to arrive.
    const expected = deliveredTotal;
    for (let i = 0; i < 60 && (await scrape()).backlog > 0; i++) await sleep(1000);
    await sleep(2000);

    const half = memory.slice(Math.floor(memory.length / 2));
    const slope = (values: number[]) => {
      const n = values.length;
      if (n < 2) return 0;
      const mean = values.reduce((a, b) => a + b, 0) / n;
      const xMean = (n - 1) / 2;
      const num = values.reduce((sum, v, i) => sum + (i - xMean) * (v - mean), 0);
      const den = values.reduce((sum, _v, i) => sum + (i - xMean) ** 2, 0);
      return num / den;
    };
    const apiSlope = slope(half.map((m) => m.api)) / 1048576;
    const workerSlope = slope(half.map((m) => m.worker)) / 1048576;
    writeResults(
      'Soak',
      `
\`npm run bench:soak -- ${MINUTES}\`: api + worker (NODE_ENV=development, UNSAFE_ALLOW_PRIVATE_TARGETS=true for the local receiver), open loop per
second: ${RATES.event} event posts, ${RATES.batch} batch of 20, ${RATES.website} website posts, ${RATES.message} messages (Liquid + Markdown in the render
threads), ${RATES.graphql} GraphQL reads; every event delivered to one webhook address in the bench. ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC,
load ${load[0].toFixed(1)} → ${load[load.length - 1].toFixed(1)} (max ${Math.max(...load).toFixed(1)}).

| min | RSS MB api / worker | event-loop delay p99 / max ms | event p50 / p99 ms | batch | website | message | graphql | delivered | outbox backlog |
|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Calls ${totals.calls}, errors ${totals.errors}${totals.failures.size ? ` (${[...totals.failures].map(([what, n]) => `${n} × ${what}`).join('; ')})` : ''}; deliveries ${deliveredTotal}
(${deliveredTotal - expected} more after the load stopped). RSS over the second half: api ${apiSlope >= 0 ? '+' : ''}${apiSlope.toFixed(2)} MB/min, worker
${workerSlope >= 0 ? '+' : ''}${workerSlope.toFixed(2)} MB/min (least squares); first / last minute: api ${mb(memory[0]?.api ?? NaN)} / ${mb(memory[memory.length - 1]?.api ?? NaN)} MB,
worker ${mb(memory[0]?.worker ?? NaN)} / ${mb(memory[memory.length - 1]?.worker ?? NaN)} MB.
`,
    );
  } finally {
    await service.stop();
    receiver.close();
    await dropDatabase(database);
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
