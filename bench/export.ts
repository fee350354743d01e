// npm run bench:export — GET /api/v1/events/export (docs/rest.md#every-event-out-as-a-stream) over BENCH_EVENTS
// (10,000,000) events of one workspace, written with SQL over 60 days for BENCH_PEOPLE (100,000) people with an
// email each. One Lifeline (api + worker, NODE_ENV=production) on a fresh database. A reader process of its own
// reads the whole range over HTTP, counting the lines (target ≥ 50,000 events/s): once alone, then plain and
// gzipped beside ingest, while the bench samples the api's resident memory every 100 ms (target: peak ≤ 100 MB
// above its rest before the first export; the quiet rounds' own peak is reported beside it). Single-event posts
// on the same workspace at BENCH_RATE (200) posts/s on 16 connections, in BENCH_SECONDS (10) s rounds: a quiet
// round before, between and after the exports, and rounds back to back while each export streams (target: the
// median p99 while exporting ≤ 1.5× the quiet median; BENCH_QUIET_ROUNDS (2) quiet rounds each time).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { Client } from 'pg';
import { connect } from './measure';
import { postRound, type PostRound, type PostTarget, POSTS_PER_KEY } from './post-rounds';
import { benchDatabase, median, sleep, startService, workspaceWithKeys, writeResults } from './support';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000_000);
const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const RATE = Number(process.env.BENCH_RATE ?? 200);
/** Quiet rounds before, between and after the exports, each time. */
const QUIET_ROUNDS = Number(process.env.BENCH_QUIET_ROUNDS ?? 2);
const DATABASE = benchDatabase('lifeline_bench_export');
// In months a fresh database has partitions for (the current one and three ahead): no sweep moves rows meanwhile.
const NOW = new Date();
const END = Date.UTC(NOW.getUTCFullYear(), NOW.getUTCMonth() + 3, 1);
Date.parse(`${new Date().getUTCFullYear() + (new Date().getUTCMonth() >= 9 ? 1 : 0)}-01-01T00:00:00Z`) +
  59 * 86_400_000;
const FROM = new Date(END - 60 * 86_400_000).toISOString();
const TO = new Date(END).toISOString();
/** Enough keys for the rounds of two exports at the slowest rate worth measuring (25,000 events/s). */
const KEYS = 2 + Math.ceil(((3 + (2 * EVENTS) / 25_000 / SECONDS) * SECONDS * RATE) / POSTS_PER_KEY);

/** People 1..PEOPLE with an email identity, and EVENTS rows over the 60 days before END, a few kinds of them. */
async function fill(db: Client, ws: string): Promise<number> {
  const started = Date.now();
  const person = (n: string) => `'per_x' || lpad((${n})::text, 9, '0')`;
  await db.query(`SET statement_timeout = 0; SET synchronous_commit = off`);
  await db.query(
    `INSERT INTO people (workspace_id, id, email, fields, created_at, updated_at, last_seen_at)
     SELECT $1, ${person('n')}, 'p' || n || '@bench.test', '{}'::jsonb, $3::timestamptz, now(), $3::timestamptz
       FROM generate_series(1, $2::int) AS n`,
    [ws, PEOPLE, FROM],
  );
  await db.query(
    `INSERT INTO identities (workspace_id, kind, value, person_id, created_at, person_created_at)
     SELECT $1, 'email', 'p' || n || '@bench.test', ${person('n')}, $3::timestamptz, $3::timestamptz
       FROM generate_series(1, $2::int) AS n ORDER BY 3`,
    [ws, PEOPLE, FROM],
  );
  const step = (END - Date.parse(FROM)) / EVENTS;
  for (let from = 0; from < EVENTS; from += 1_000_000) {
    await db.query(
      `INSERT INTO events (workspace_id, id, occurred_at, person_id, type, value, properties, detail, source)
       SELECT $1, 'evt_x' || lpad(i::text, 10, '0'), $2::timestamptz + (i * $3::float8) * interval '1 millisecond',
              ${person('1 + i % $5')}, (ARRAY['pageview','cta_click','purchase','report_viewed'])[1 + i % 4],
              CASE WHEN i % 4 = 2 THEN 1 + i % 97 END,
              jsonb_build_object('path', '/page/' || (i % 500), 'n', i),
              CASE WHEN i % 10 = 0 THEN 'Opened the pricing page' END,
              CASE WHEN i % 3 = 0 THEN jsonb_build_object('referrer', 'news.example.com', 'os', 'mac') END
         FROM generate_series($4::bigint, $4::bigint + $6 - 1) AS i`,
      [ws, FROM, step, from, PEOPLE, Math.min(1_000_000, EVENTS - from)],
    );
    process.stdout.write(`  ${(from + 1_000_000).toLocaleString('en')} events written\n`);
  }
  await db.query(`VACUUM (ANALYZE) people, identities, events`);
  await db.query(`RESET statement_timeout; RESET synchronous_commit`);
  return (Date.now() - started) / 1000;
}

/** One round of single events at RATE posts/s on the workspace: its latency percentiles and answers. */
const ingestRound = (target: PostTarget, seconds = SECONDS) =>
  postRound(target, { rate: RATE, seconds, email: (n) => `p${1 + (n % PEOPLE)}@bench.test` });

type IngestRound = PostRound & { peak?: number };

const rssMb = (pid: number) =>
  Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/**
 * The reader of an export: a process of its own, as a warehouse's loader is, so its work on the lines (and gunzip)
 * never delays the ingest rounds' answers in this process's event loop. It prints {lines, bytes, encoding}.
 */
const READER = `
const [url, key, gzip] = process.argv.slice(1);
require('node:http').get(url, { headers: { authorization: 'Bearer ' + key, 'accept-encoding': gzip === '1' ? 'gzip' : 'identity' } }, (res) => {
  if (res.statusCode !== 200) { console.error('export answered ' + res.statusCode); process.exit(1); }
  let lines = 0, bytes = 0;
  res.on('data', (chunk) => (bytes += chunk.length));
  const body = gzip === '1' ? res.pipe(require('node:zlib').createGunzip()) : res;
  body.on('data', (chunk) => { for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++; });
  body.on('end', () => console.log(JSON.stringify({ lines, bytes, encoding: res.headers['content-encoding'] })));
}).on('error', (e) => { console.error(e.message); process.exit(1); });`;

/** The whole range over HTTP, its lines counted as they come (gunzipped when asked for gzip), by READER. */
function exportOnce(url: string, key: string, gzip: boolean) {
  const started = Date.now();
  return new Promise<{ lines: number; bytes: number; seconds: number; encoding?: string }>((resolve, reject) => {
    const target = `${url}/api/v1/events/export?from=${FROM}&to=${TO}`;
    execFile(process.execPath, ['-e', READER, target, key, gzip ? '1' : '0'], (error, out) => {
      if (error) return reject(error);
      resolve({ ...JSON.parse(out), seconds: (Date.now() - started) / 1000 });
    });
  });
}

/** The api's peak resident memory while `work` runs, sampled every 100 ms. */
async function peakWhile<T>(apiPid: number, work: () => Promise<T>): Promise<T & { peak: number }> {
  let peak = rssMb(apiPid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(apiPid))), 100);
  try {
    return { ...(await work()), peak };
  } finally {
    clearInterval(sampler);
  }
}

/** An export streamed while ingest rounds run back to back and the api's memory is sampled. */
function duringExport(url: string, key: string, gzip: boolean, target: PostTarget, apiPid: number) {
  return peakWhile(apiPid, async () => {
    const rounds: IngestRound[] = [];
    let done = false;
    const exported = exportOnce(url, key, gzip).finally(() => (done = true));
    while (!done) rounds.push(await ingestRound(target));
    return { ...(await exported), rounds, gzip };
  });
}

type Export = Awaited<ReturnType<typeof duringExport>>;

async function run(log: (s: string) => void): Promise<string> {
  const service = await startService(DATABASE, ['api', 'worker']);
  const db = await connect(service.databaseUrl);
  try {
    const made = await workspaceWithKeys(service.url, 'bench', KEYS);
    const [owner, ...keys] = made.secretKeys;
    const filled = await fill(db, made.workspaceId);
    log(`${EVENTS.toLocaleString('en')} events written in ${filled.toFixed(0)} s`);
    const target: PostTarget = { url: service.url, keys, posts: 0 };
    await ingestRound(target, 5); // warm-up: connections open, statements planned
    const apiPid = service.pids.api!;
    const quiet: IngestRound[] = [await ingestRound(target)];
    await sleep(2_000);
    const rest = rssMb(apiPid);
    // The quiet rounds' own peak: what ingest alone grows the api by (its young generation), beside the export's.
    const quietRounds = async () => {
      for (let n = 0; n < QUIET_ROUNDS; n++) quiet.push(await peakWhile(apiPid, () => ingestRound(target)));
    };
    // The export's own memory: alone, with no posts growing the api's young generation beside it.
    const alone = await peakWhile(apiPid, () => exportOnce(service.url, owner, false));
    log(
      `api at rest ${rest.toFixed(0)} MB; export alone: ${alone.lines} lines in ${alone.seconds.toFixed(1)} s, ` +
        `peak ${alone.peak.toFixed(0)} MB`,
    );
    await quietRounds();
    log(`quiet p99 ${quiet.map((q) => q.p99).join(' / ')} ms`);
    const exports: Export[] = [];
    for (const gzip of [false, true]) {
      exports.push(await duringExport(service.url, owner, gzip, target, apiPid));
      const e = exports.at(-1)!;
      log(
        `export${gzip ? ' (gzip)' : ''}: ${e.lines} lines in ${e.seconds.toFixed(1)} s, peak ${e.peak.toFixed(0)} MB`,
      );
      await quietRounds();
    }
    return report({ filled, rest, quiet, exports, alone });
  } finally {
    await db.end();
    await service.stop();
  }
}

function report({
  filled,
  rest,
  quiet,
  exports,
  alone,
}: {
  filled: number;
  rest: number;
  quiet: IngestRound[];
  exports: Export[];
  alone: { lines: number; seconds: number; peak: number };
}) {
  const quietP99 = median(quiet.map((q) => q.p99));
  const during = exports.flatMap((e) => e.rounds);
  const duringP99 = median(during.map((r) => r.p99));
  const p99s = (rounds: IngestRound[]) => rounds.map((r) => r.p99).join(' / ');
  const refused = [...quiet, ...during].reduce((n, r) => n + r.other, 0);
  const quietPeak = Math.max(...quiet.map((q) => q.peak ?? 0));
  const line = (e: Export) => {
    const rate = e.lines / e.seconds;
    return `- ${e.gzip ? `gzip (Content-Encoding ${e.encoding})` : 'plain'}: **${e.lines.toLocaleString('en')} lines** (${e.lines === EVENTS ? 'every event, once' : `**not ${EVENTS.toLocaleString('en')}**`}) in ${e.seconds.toFixed(1)} s, **${Math.round(rate).toLocaleString('en')} events/s** (target ≥ 50,000), ${(e.bytes / 1e6).toFixed(0)} MB on the wire; api RSS peak ${e.peak.toFixed(0)} MB, **${(e.peak - rest).toFixed(0)} MB above rest** (target ≤ 100); ingest p99 in its rounds ${p99s(e.rounds)} ms`;
  };
  return `${EVENTS.toLocaleString('en')} events of one workspace over 60 days for ${PEOPLE.toLocaleString('en')} people (written with SQL in
${filled.toFixed(0)} s), exported whole over HTTP by the bench (which counts the lines), one Lifeline (api + worker) on this
machine's 2 cores beside PostgreSQL. The api at rest: ${rest.toFixed(0)} MB. Load average ${loadavg()[0].toFixed(1)} at the end.

- alone (no posts beside it): ${alone.lines.toLocaleString('en')} lines in ${alone.seconds.toFixed(1)} s, **${Math.round(alone.lines / alone.seconds).toLocaleString('en')} events/s**; api RSS peak ${alone.peak.toFixed(0)} MB, **${(alone.peak - rest).toFixed(0)} MB above rest** (target ≤ 100)
${exports.map(line).join('\n')}
- Ingest on the same workspace, single events at ${RATE} posts/s on 16 connections, ${SECONDS} s rounds: p99 quiet
  **${quietP99} ms** (rounds ${p99s(quiet)}: before, between and after the exports), while exporting **${duringP99} ms**
  (median of ${during.length} rounds): **${(duringP99 / quietP99).toFixed(2)}×** (target ≤ 1.5×); ${refused} answers not 2xx.
- The api's RSS peak in the quiet rounds (ingest alone): ${quietPeak.toFixed(0)} MB, ${(quietPeak - rest).toFixed(0)} MB above rest.`;
}

async function main() {
  const started = new Date().toISOString();
  const body = await run((line) => console.log(line));
  const env = Object.entries(process.env)
    .filter(([k]) => /^BENCH_/.test(k))
    .map(([k, v]) => `${k}=${v} `)
    .join('');
  writeResults('Events export', `Command: \`${env}npm run bench:export\`, started ${started}.\n\n${body}`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
