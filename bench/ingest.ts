// npm run bench:ingest — what POST /api/v1/events costs, against the thinnest service that could
// answer it (bench/thin-server.ts: node:http + pg, one prepared INSERT). Lifeline's api and worker and
// the thin service run side by side on the local PostgreSQL and Redis; autocannon drives them in
// interleaved rounds (thin, Lifeline, thin, ...; with BENCH_BASE_ROOT the two Lifelines swap places every
// other round): single events on 64 connections, then batches of
// 100 on 16, over a mix of new and returning people, then the probe's batches (every item a new person,
// 250 keys in turn). Each round reports events/s and CPU-ms per
// accepted event per process (/proc), after the worker has relayed everything the round wrote.
//
// `npm run bench:ingest -- --apis N` compares instead Lifeline with N api processes on one
// database and Redis prefix (the load spread across them) against Lifeline with one, both with one
// worker, on a private redis-server so Redis commands per event can be counted.
//
// BENCH_SECONDS (10) per round, BENCH_ROUNDS (3) per target and kind, BENCH_ONLY=single|batch|probe (or a list: batch,probe),
// BENCH_PREFILL_PEOPLE / BENCH_PREFILL_OUTBOX (0) fill the workspace first (bench/schema.ts),
// BENCH_LABEL names the section a run prints (e.g. before, after), BENCH_ANALYZE=1 runs ANALYZE
// after the warm-up, BENCH_CONTENDED=1 and BENCH_NO_WORKER=1 as before; BENCH_PROFILE and BENCH_EXPLAIN in bench/support.ts.
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import Redis from 'ioredis';
import { freePort } from '@app/platform';
import { byPid, postgresOf, postgresShared, Proc } from './cpu';
import {
  backendPid,
  connect,
  measureRound,
  medians,
  perEvent,
  Round,
  statsSettled,
  tableStats,
  Target,
} from './measure';
import { report, targetNames } from './ingest-report';
import { drained, prefill } from './schema';
import { startThin, THIN_DATABASE } from './thin';
import { benchDatabase, Service, startService, workspaceWithKeys, writeResults } from './support';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PREFILL_PEOPLE = Number(process.env.BENCH_PREFILL_PEOPLE ?? 0);
const PREFILL_OUTBOX = Number(process.env.BENCH_PREFILL_OUTBOX ?? 0);
const DATABASE = benchDatabase('lifeline_bench_ingest');
const APIS_FLAG = process.argv.indexOf('--apis');
const APIS = APIS_FLAG > 0 ? Number(process.argv[APIS_FLAG + 1]) : 1;
// BENCH_BASE_ROOT=<another checkout> (e.g. a worktree at the base of a change): that checkout's Lifeline runs as a third
// target, on its own database migrated by its own migrations, interleaved with the two others, so before and after
// are measured in the same run against the same thin service (each reported against thin, then after / before).
const BASE_ROOT = APIS > 1 ? undefined : process.env.BENCH_BASE_ROOT;
const TYPES = ['pageview', 'pageview', 'pageview', 'cta_click', 'signup', 'purchase', 'report_exported'];
// Keys: the 'server' limit is 600 posts per key per ten minutes; each key takes 500 posts in turn, and
// there are enough that no key comes round again within a run (750,000 single posts; at 170 keys the
// single rounds, once faster, came round and were refused with 429, and at 600 keys the fifth
// round of a quiet machine's BENCH_ROUNDS=5 run, at 7,000 posts a second).
const POSTS_PER_KEY = 500;
// `probe` is the shape of an independent probe: every item names a new person, and each post
// takes the next of 250 keys of the workspace in turn (so the api meets 250 keys at once).
export const KINDS = [
  { name: 'single', label: 'single events, 64 connections', connections: 64, perPost: 1, keys: [0, 1500] },
  { name: 'batch', label: 'batches of 100, 16 connections', connections: 16, perPost: 100, keys: [1500, 1540] },
  {
    name: 'probe',
    label: 'batches of 100, every item a new person, 250 keys in turn, 16 connections',
    connections: 16,
    perPost: 100,
    keys: [1560, 1810],
    newPeople: true,
    keyPerPost: true,
  },
].filter((k) => !process.env.BENCH_ONLY || process.env.BENCH_ONLY.split(',').includes(k.name));
const WARM_UP_KEYS = [1540, 1560];
const ALL_KEYS = 1810;

// Half the posts name a new person, half a returning one: someone first seen RETURN_AFTER events
// earlier (they came back later). BENCH_CONTENDED=1 picks returning people uniformly from everyone
// seen so far instead, so concurrent posts often name the same person and must wait for each other.
const RETURN_AFTER = 4_000;
function personFor(i: number): string {
  if (i % 2 === 0 || i < RETURN_AFTER) return `p${i - (i % 2)}@bench.test`;
  if (process.env.BENCH_CONTENDED) return `p${2 * Math.floor((Math.random() * i) / 2)}@bench.test`;
  return `p${i - RETURN_AFTER - (i % 2)}@bench.test`;
}

function event(i: number, newPeople = false) {
  return {
    type: TYPES[i % TYPES.length],
    email: newPeople ? `n${i}@bench.test` : personFor(i),
    properties: { n: i, plan: 'pro' },
    source: { path: '/pricing', os: 'mac' },
  };
}

/** How a kind's posts are made: every item a new person, and a key per post in turn rather than POSTS_PER_KEY posts each. */
interface Shape {
  newPeople?: boolean;
  keyPerPost?: boolean;
}

/** Numbers events and posts across rounds, so new people stay new and keys take turns. */
interface Counters {
  events: number;
  posts: Record<string, number>;
}

/** One autocannon per api, the connections divided between them; their answers summed. */
async function drive(
  urls: string[],
  keys: string[],
  connections: number,
  perPost: number,
  counters: Counters,
  kind: string,
  seconds: number,
  shape: Shape = {},
) {
  const results = await Promise.all(
    urls.map((url) =>
      driveOne(url, keys, Math.max(1, Math.round(connections / urls.length)), perPost, counters, kind, seconds, shape),
    ),
  );
  return {
    events: results.reduce((n, r) => n + r.events, 0),
    seconds: Math.max(...results.map((r) => r.seconds)),
    notes: {
      p50: Math.max(...results.map((r) => r.notes.p50)),
      p99: Math.max(...results.map((r) => r.notes.p99)),
      refused: results.reduce((n, r) => n + r.notes.refused, 0),
      errors: results.reduce((n, r) => n + r.notes.errors, 0),
    },
  };
}

async function driveOne(
  url: string,
  keys: string[],
  connections: number,
  perPost: number,
  counters: Counters,
  kind: string,
  seconds: number,
  shape: Shape,
) {
  const result = await autocannon({
    url: `${url}/api/v1/events`,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          const post = (counters.posts[kind] = (counters.posts[kind] ?? 0) + 1);
          const first = counters.events;
          counters.events += perPost;
          const body =
            perPost === 1
              ? event(first)
              : { events: Array.from({ length: perPost }, (_, j) => event(first + j, shape.newPeople)) };
          const key = keys[(shape.keyPerPost ? post : Math.floor(post / POSTS_PER_KEY)) % keys.length];
          return {
            ...req,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
            body: JSON.stringify(body),
          };
        },
      },
    ],
  });
  const seconds_ = (result.finish.getTime() - result.start.getTime()) / 1000;
  return {
    events: result['2xx'] * perPost,
    seconds: seconds_,
    notes: { p50: result.latency.p50, p99: result.latency.p99, refused: result.non2xx, errors: result.errors },
  };
}

const redis = (proc: Proc) => proc.comm === 'redis-server';

/** A redis-server of the run's own (no persistence), so its command counts are the two Lifelines' alone. */
async function privateRedis(): Promise<{ url: string; client: Redis; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  const client = new Redis(url, { maxRetriesPerRequest: null, retryStrategy: () => 100 });
  client.on('error', () => undefined); // refused until redis-server listens; ioredis retries
  await client.ping();
  return {
    url,
    client,
    stop: async () => (client.disconnect(), await new Promise((r) => (child.once('exit', r), child.kill('SIGTERM')))),
  };
}

/** Commands Redis has run since it started (INFO commandstats), INFO itself left out. */
async function redisCommands(client: Redis): Promise<number> {
  const stats = await client.info('commandstats');
  return [...stats.matchAll(/^cmdstat_(\w+(?:\|\w+)?):calls=(\d+)/gm)]
    .filter(([, name]) => name !== 'info')
    .reduce((n, [, , calls]) => n + Number(calls), 0);
}

async function main() {
  const started = new Date();
  const load = loadavg();
  const apps: Array<'api' | 'worker'> = process.env.BENCH_NO_WORKER ? ['api'] : ['api', 'worker'];
  const ownRedis = APIS > 1 ? await privateRedis() : null;
  const redisEnv: Record<string, string> = ownRedis ? { REDIS_URL: ownRedis.url } : {};
  // With --apis N the baseline is Lifeline with one api (on a second database), otherwise the thin service.
  const baseDatabase = APIS > 1 ? `${DATABASE}_one_api` : THIN_DATABASE;
  const before = BASE_ROOT ? await startService(`${DATABASE}_base`, apps, redisEnv, 1, BASE_ROOT) : null;
  const base = APIS > 1 ? await startService(baseDatabase, apps, redisEnv) : await startThin();
  const lifeline = await startService(DATABASE, apps, redisEnv, APIS);
  const services: Service[] = [lifeline, base, ...(before ? [before] : [])];
  try {
    const lifelineDb = await connect(lifeline.databaseUrl);
    const baseDb = await connect(base.databaseUrl);
    const beforeDb = before ? await connect(before.databaseUrl) : null;
    const bench = [
      await backendPid(lifelineDb),
      await backendPid(baseDb),
      ...(beforeDb ? [await backendPid(beforeDb)] : []),
    ];
    const notBench = (pg: ReturnType<typeof postgresOf>) => (p: Proc, all: Map<number, Proc>) =>
      !bench.includes(p.pid) && pg(p, all);
    const ofLifeline = (service: Service, db: typeof lifelineDb, database: string) => ({
      groups: {
        api: (p: Proc) => service.apiPids.includes(p.pid),
        worker: byPid(service.pids.worker),
        pg: notBench(postgresOf(database)),
        pgShared: postgresShared,
        redis,
      },
      settle: () => (service.pids.worker ? drained(db) : Promise.resolve()),
    });
    const [baseName, subjectName] = targetNames(APIS).map((t) => t.name);
    const targets: Array<Target & { service: Service; counters: Counters; secretKeys: string[] }> = [
      {
        name: baseName,
        service: base,
        db: baseDb,
        counters: { events: 0, posts: {} },
        shared: ['pgShared', 'redis'],
        secretKeys: [],
        ...(APIS > 1
          ? ofLifeline(base, baseDb, baseDatabase)
          : {
              groups: {
                thin: byPid(base.pids.api),
                pg: notBench(postgresOf(THIN_DATABASE)),
                pgShared: postgresShared,
                redis,
              },
              settle: async () => undefined,
            }),
      },
      {
        name: subjectName,
        service: lifeline,
        db: lifelineDb,
        counters: { events: 0, posts: {} },
        shared: ['pgShared', 'redis'],
        secretKeys: [],
        ...ofLifeline(lifeline, lifelineDb, DATABASE),
      },
    ];
    if (before && beforeDb) {
      targets.push({
        name: 'before',
        service: before,
        db: beforeDb,
        counters: { events: 0, posts: {} },
        shared: ['pgShared', 'redis'],
        secretKeys: [],
        ...ofLifeline(before, beforeDb, `${DATABASE}_base`),
      });
    }
    // Each Lifeline gets its own workspace and keys; thin takes any key, so it is driven with Lifeline's.
    for (const target of targets.filter((t) => t.name !== 'thin')) {
      const made = await workspaceWithKeys(target.service.url, 'bench', ALL_KEYS);
      target.secretKeys = made.secretKeys;
      await prefill(target.db, made.workspaceId, PREFILL_PEOPLE, PREFILL_OUTBOX, console.log);
    }
    if (targets[0].name === 'thin') targets[0].secretKeys = targets[1].secretKeys;
    const keysOf = (target: (typeof targets)[number], [from, to]: number[]) => target.secretKeys.slice(from, to);
    for (const target of targets) {
      await drive(
        target.service.urls,
        keysOf(target, WARM_UP_KEYS),
        8,
        1,
        target.counters,
        'warm-up',
        Math.min(DURATION, 5),
      );
      await drive(target.service.urls, keysOf(target, WARM_UP_KEYS), 4, 100, target.counters, 'warm-up', 3);
      await target.settle();
    }
    // BENCH_ANALYZE=1: fresh statistics before the rounds (a fresh database has none until an ANALYZE).
    if (process.env.BENCH_ANALYZE) await Promise.all(targets.map((t) => t.db.query('ANALYZE')));

    const rounds: Record<string, Round[]> = {};
    const tables: Record<string, Record<string, ReturnType<typeof perEvent>>> = {};
    for (const kind of KINDS) {
      await statsSettled();
      const before = await Promise.all(targets.map((t) => tableStats(t.db)));
      for (let r = 0; r < ROUNDS; r++) {
        // The two Lifelines take turns in the slot after thin: that slot cost single events ~1.09x by itself (an A/A run, bench/RESULTS.md).
        for (const target of r % 2 ? [targets[0], ...targets.slice(1).reverse()] : targets) {
          const commands = ownRedis ? await redisCommands(ownRedis.client) : 0;
          const round = await measureRound(target, () =>
            drive(
              target.service.urls,
              keysOf(target, kind.keys),
              kind.connections,
              kind.perPost,
              target.counters,
              kind.name,
              DURATION,
              kind,
            ),
          );
          if (ownRedis) round.notes.redisCommands = (await redisCommands(ownRedis.client)) - commands;
          console.log(
            `${kind.name} ${target.name} round ${r + 1}: ${(round.events / round.seconds).toFixed(0)} events/s, ${JSON.stringify(round.cpu)} CPU-ms/event, ${round.walBytes.toFixed(0)} WAL bytes/event`,
          );
          (rounds[`${kind.name}:${target.name}`] ??= []).push(round);
        }
      }
      await statsSettled();
      const after = await Promise.all(targets.map((t) => tableStats(t.db)));
      tables[kind.name] = Object.fromEntries(
        targets.map((t, i) => [
          t.name,
          perEvent(
            before[i],
            after[i],
            rounds[`${kind.name}:${t.name}`].reduce((n, r) => n + r.events, 0),
          ),
        ]),
      );
    }

    const prefilled =
      PREFILL_PEOPLE || PREFILL_OUTBOX
        ? `, prefilled with ${PREFILL_PEOPLE} people and ${PREFILL_OUTBOX} relayed outbox rows`
        : '';
    const analyzed = process.env.BENCH_ANALYZE ? ', ANALYZE after the warm-up' : '';
    const against = APIS > 1 ? `${APIS} api processes against one` : 'Ingest cost against a thin service';
    const title = `${against} — ${process.env.BENCH_LABEL ?? 'latest'}${prefilled}${analyzed}`;
    const settings = Object.entries(process.env).filter(([name]) => name.startsWith('BENCH_'));
    const command = [
      ...settings.map(([name, value]) => `${name}=${value}`),
      'npm run bench:ingest',
      ...(APIS > 1 ? ['--', '--apis', String(APIS)] : []),
    ].join(' ');
    const ended = loadavg();
    const common = {
      command,
      started,
      load,
      ended,
      seconds: DURATION,
      rounds: ROUNDS,
      prefilled: prefilled + analyzed,
      apis: APIS,
      kinds: KINDS,
    };
    let text = report({ ...common, results: rounds, tables });
    if (before) text += `\n\n${beforeSection(common, rounds, tables)}`;
    console.log(`## ${title}\n\n${text}`);
    if (!process.env.BENCH_PROFILE) writeResults(title, text);
    await Promise.all(targets.map((t) => t.db.end()));
  } finally {
    await Promise.all(services.map((s) => s.stop()));
    await ownRedis?.stop();
  }
}

/** The checkout at BENCH_BASE_ROOT against thin as the report puts Lifeline, then this checkout's figures over its own. */
function beforeSection(
  common: Omit<Parameters<typeof report>[0], 'results' | 'tables'>,
  rounds: Record<string, Round[]>,
  tables: Record<string, Record<string, ReturnType<typeof perEvent>>>,
): string {
  const asLifeline = (kind: string) => ({
    [`${kind}:thin`]: rounds[`${kind}:thin`],
    [`${kind}:lifeline`]: rounds[`${kind}:before`],
  });
  const results = Object.assign({}, ...KINDS.map((k) => asLifeline(k.name)));
  const beforeTables = Object.fromEntries(
    Object.entries(tables).map(([kind, t]) => [kind, { thin: t.thin, lifeline: t.before }]),
  );
  const body = report({ ...common, results, tables: beforeTables })
    .split('\n')
    .filter((line) => !line.startsWith('Command:') && !line.startsWith('Started'));
  const ratios = KINDS.map((k) => {
    const [a, b] = [medians(rounds[`${k.name}:lifeline`]), medians(rounds[`${k.name}:before`])];
    return `- ${k.label}: CPU per event ${(a.cpu.total / b.cpu.total).toFixed(2)}× (api ${(a.cpu.api / b.cpu.api).toFixed(2)}×, PostgreSQL ${(a.cpu.pg / b.cpu.pg).toFixed(2)}×), throughput ${(a.rate / b.rate).toFixed(2)}×`;
  });
  return [
    `## Before: the checkout at ${BASE_ROOT} in the same run (as "lifeline" below)`,
    '',
    ...body,
    '',
    '### After / before (this checkout over the one at BENCH_BASE_ROOT)',
    '',
    ...ratios,
  ].join('\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
