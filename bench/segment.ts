// npm run bench:segment — what a Segment call costs against the same events posted natively.
// One Lifeline (api and worker, NODE_ENV=production) on a fresh database; autocannon posts the same
// facts (identifies, pages and tracks of many users; half the posts name a new person, half one first
// seen 4,000 events earlier) both ways, in interleaved rounds (native then Segment, Segment then native, …): to
// POST /api/v1/events as events-endpoint items, and to Segment's paths as Segment's libraries send
// them (a batch as analytics-node posts it to /v1/batch; a single call to /v1/track, /v1/identify or
// /v1/page). Each round reports CPU-ms per accepted event of the api process (and of api, worker and
// the database's backends together) from /proc, until the worker has relayed the round's outbox.
//
// BENCH_SECONDS (10) per round, BENCH_ROUNDS (3) per way and kind, BENCH_ONLY=batch100|batch15|single.
// Target: the Segment routes at most 1.2× the api's CPU per event of the native endpoint.
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { NODE_FLAGS } from '@app/platform/launcher';
import { byPid, postgresOf, postgresShared, Proc } from './cpu';
import { backendPid, connect, measureRound, medians, Round, Target } from './measure';
import { drained } from './schema';
import { benchDatabase, startService, workspaceWithKeys, writeResults } from './support';
import { basicAuth, nativeItem, SegmentFact, segmentMessage } from '../test/support/segment';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DATABASE = benchDatabase('lifeline_bench_segment');
// The 'server' limit is 600 posts per key in ten minutes: each key takes 500 posts in turn.
const POSTS_PER_KEY = 500;
const KINDS = [
  { name: 'batch100', label: 'batches of 100, 16 connections', connections: 16, perPost: 100, keys: 12 },
  {
    name: 'batch15',
    label: "batches of 15 (analytics-node's flushAt), 16 connections",
    connections: 16,
    perPost: 15,
    keys: 40,
  },
  { name: 'single', label: 'single calls, 64 connections', connections: 64, perPost: 1, keys: 150 },
].filter((k) => !process.env.BENCH_ONLY || k.name === process.env.BENCH_ONLY);
const WAYS = ['native', 'segment'] as const;
type Way = (typeof WAYS)[number];

const RETURN_AFTER = 4_000;
const userOf = (i: number) => `p${i < RETURN_AFTER || i % 2 === 0 ? i - (i % 2) : i - RETURN_AFTER - (i % 2)}`;

/** Fact i: a mix of identifies, pages and tracks (spec names, a custom one), as a product's server sends them. */
function factAt(i: number, way: Way): SegmentFact {
  const userId = `${way}-${userOf(i)}`;
  const at = new Date();
  switch (i % 6) {
    case 0:
      return {
        call: 'identify',
        userId,
        at,
        traits: { email: `${userId}@bench.test`, name: `User ${i}`, plan: 'pro' },
      };
    case 1:
      return { call: 'page', userId, at, name: 'Pricing', path: '/pricing' };
    case 2:
      return { call: 'track', userId, at, event: 'Signed Up' };
    case 3:
      return { call: 'track', userId, at, event: 'Order Completed', properties: { revenue: 49, order_id: `o-${i}` } };
    default:
      return { call: 'track', userId, at, event: 'Report Built', properties: { n: i, plan: 'pro' } };
  }
}

interface Counters {
  events: number;
  posts: number;
}

/** One post's path and body, each way. */
function post(way: Way, first: number, perPost: number): { path: string; body: unknown } {
  const facts = Array.from({ length: perPost }, (_, j) => factAt(first + j, way));
  // Both ways name each event by the same id: Segment's messageId is the native idempotency_key.
  const ids = facts.map((_, j) => `m-${way}-${first + j}`);
  if (way === 'native')
    return {
      path: '/api/v1/events',
      body: perPost === 1 ? nativeItem(facts[0], ids[0]) : { events: facts.map((f, j) => nativeItem(f, ids[j])) },
    };
  const messages = facts.map((f, j) => segmentMessage(f, ids[j]));
  const sentAt = new Date().toISOString();
  if (perPost === 1) return { path: `/v1/${facts[0].call}`, body: { ...messages[0], sentAt } };
  return { path: '/v1/batch', body: { batch: messages, sentAt } };
}

async function drive(
  url: string,
  way: Way,
  keys: string[],
  kind: (typeof KINDS)[number],
  counters: Counters,
  seconds: number,
) {
  const result = await autocannon({
    url,
    connections: kind.connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          const key = keys[Math.floor(counters.posts++ / POSTS_PER_KEY) % keys.length];
          const { path, body } = post(way, counters.events, kind.perPost);
          counters.events += kind.perPost;
          const authorization = way === 'native' ? `Bearer ${key}` : basicAuth(key);
          return {
            ...req,
            path,
            headers: { 'content-type': 'application/json', authorization },
            body: JSON.stringify(body),
          };
        },
      },
    ],
  });
  const elapsed = (result.finish.getTime() - result.start.getTime()) / 1000;
  return {
    events: result['2xx'] * kind.perPost,
    seconds: elapsed,
    notes: { p50: result.latency.p50, p99: result.latency.p99, refused: result.non2xx, errors: result.errors },
  };
}

const redis = (proc: Proc) => proc.comm === 'redis-server';
const fixed = (n: number, digits = 3) => (Number.isFinite(n) ? n.toFixed(digits) : '–');

async function main() {
  const started = new Date();
  const load = loadavg();
  const lifeline = await startService(DATABASE, ['api', 'worker']);
  try {
    const perWay = KINDS.reduce((n, k) => n + k.keys, 0) + 4;
    const { secretKeys } = await workspaceWithKeys(lifeline.url, 'bench', perWay * WAYS.length);
    const keysOf = (way: Way) => secretKeys.slice(WAYS.indexOf(way) * perWay, (WAYS.indexOf(way) + 1) * perWay);
    const db = await connect(lifeline.databaseUrl);
    const bench = await backendPid(db);
    const target: Target = {
      name: 'lifeline',
      db,
      shared: ['pgShared', 'redis'],
      groups: {
        api: byPid(lifeline.pids.api),
        worker: byPid(lifeline.pids.worker),
        pg: (p, all) => p.pid !== bench && postgresOf(DATABASE)(p, all),
        pgShared: postgresShared,
        redis,
      },
      settle: () => drained(db),
    };
    const counters: Record<Way, Counters> = { native: { events: 0, posts: 0 }, segment: { events: 0, posts: 0 } };
    // Warm-up both ways on keys of their own, so the rounds start with every path compiled.
    for (const way of WAYS) {
      for (const kind of KINDS) await drive(lifeline.url, way, keysOf(way).slice(-4), kind, counters[way], 3);
      await target.settle();
    }
    // Fresh statistics before the rounds: a new database has none until an ANALYZE, and plans change as tables grow.
    await db.query('ANALYZE');
    const rounds: Record<string, Round[]> = {};
    for (const kind of KINDS) {
      let at = 0;
      for (const k of KINDS.slice(0, KINDS.indexOf(kind))) at += k.keys;
      for (let r = 0; r < ROUNDS; r++) {
        // Each way goes first in every other round, so what the database has grown by does not favour one.
        for (const way of r % 2 ? [...WAYS].reverse() : WAYS) {
          const keys = keysOf(way).slice(at, at + kind.keys);
          const round = await measureRound(target, () => drive(lifeline.url, way, keys, kind, counters[way], DURATION));
          console.log(
            `${kind.name} ${way} round ${r + 1}: ${(round.events / round.seconds).toFixed(0)} events/s, api ${fixed(round.cpu.api)} / total ${fixed(round.cpu.total)} CPU-ms/event, refused ${round.notes.refused}`,
          );
          (rounds[`${kind.name}:${way}`] ??= []).push(round);
        }
      }
    }
    const lines = [
      `Command: \`npm run bench:segment\` (${DURATION} s per round, ${ROUNDS} rounds per way and kind, interleaved, each way first in every other round; ANALYZE after the warm-up).`,
      `Started ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC; load average ${load.map((l) => l.toFixed(1)).join(' ')} at the start, ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} at the end.`,
      `One Lifeline (api and worker, NODE_ENV=production, node ${NODE_FLAGS.join(' ')}); the same facts both ways; CPU-ms per accepted event, medians over rounds,`,
      "from /proc until the worker relayed the round's outbox; total = api + worker + the database's backends.",
      '',
      '| kind | native api / total CPU-ms/event | Segment api / total | api ratio | total ratio | events/s native / Segment | refused |',
      '|---|---|---|---|---|---|---|',
    ];
    for (const kind of KINDS) {
      const [n, s] = WAYS.map((way) => medians(rounds[`${kind.name}:${way}`]));
      const refused = WAYS.map((way) =>
        rounds[`${kind.name}:${way}`].reduce((sum, r) => sum + r.notes.refused + r.notes.errors, 0),
      ).join(' / ');
      lines.push(
        `| ${kind.label} | ${fixed(n.cpu.api)} / ${fixed(n.cpu.total)} | ${fixed(s.cpu.api)} / ${fixed(s.cpu.total)} | **${fixed(s.cpu.api / n.cpu.api, 2)}×** | ${fixed(s.cpu.total / n.cpu.total, 2)}× | ${n.rate.toFixed(0)} / ${s.rate.toFixed(0)} | ${refused} |`,
      );
    }
    writeResults('Segment-compatible ingest', lines.join('\n'));
    await db.end();
  } finally {
    await lifeline.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
