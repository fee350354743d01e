// npm run bench:segments — live segments (docs/graphql.md#segments): what keeping them on every write costs the
// ingest, and how they read and fill at scale. Two phases (BENCH_ONLY=ingest or scale runs one):
//
// ingest: two Lifelines (api + worker, each on its own fresh database) side by side, one workspace each, the same
// posts: one with 20 segments (a mix of stages, lists, fields, events in windows, engaged, first touch, joined by
// all, any and not), one with none. Interleaved rounds (none, segments, then segments, none, ...) of single
// events on 64 connections and batches of 100 on 16, half new people, half returning; CPU-ms per accepted event
// of the api, the worker and the database's PostgreSQL backends (/proc), after the worker relayed the round.
//
// scale: one Lifeline on a fresh database; BENCH_PEOPLE (1,000,000) people (with identities, fields, stages,
// first touches, a quarter subscribed to a list) and BENCH_EVENTS (10,000,000) events over 60 days written with
// SQL; then segments made over GraphQL, each timed until its backfill is done (filled_at - created_at), then
// `segment(id) { count }` and `segment(id) { people(first: 20) }` timed over GraphQL, then funnel and retention
// over the events, with and without a segment. Each read figure is the median of BENCH_RUNS (11) after a warm-up.
// BENCH_SECONDS (10) per round, BENCH_ROUNDS (3) per target and kind.
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import type { Client } from 'pg';
import { MIGRATIONS } from '@app/schema';
import { byPid, postgresOf, postgresShared } from './cpu';
import { backendPid, connect, measureRound, medians, Round, Target } from './measure';
import { drained } from './schema';
import { benchDatabase, gql, median, Service, sleep, startService, workspaceWithKeys, writeResults } from './support';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 1_000_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 11);
const ANALYZE = process.env.BENCH_ANALYZE !== '0';
const ONLY = (process.env.BENCH_ONLY ?? 'ingest,scale').split(',');
const DATABASE = benchDatabase('lifeline_bench_segments');
const POSTS_PER_KEY = 500;
/** Keys enough that none comes round within a run at 6,000 posts a second (the limit is 600 per ten minutes). */
const KEYS = 10 + Math.ceil(((ROUNDS + 1) * SECONDS * 6_000) / POSTS_PER_KEY);
const CUSTOM = ['report_built', 'invite_sent'];

/** Twenty segments as a workspace keeps them: every kind of condition, alone and joined. */
const TWENTY: Record<string, unknown> = {
  purchasers: { stage: 'purchaser' },
  'paying or repeat': { stage: ['purchaser', 'repeat'] },
  'news readers': { list: 'news' },
  'plan pro': { field: 'plan', equals: 'pro' },
  'pro or team': { field: 'plan', in: ['pro', 'team'] },
  'over 5 seats': { field: 'seats', gt: 5 },
  'under 3 seats': { field: 'seats', lt: 3 },
  'no plan': { field: 'plan', exists: false },
  'reporters this week': { event: 'report_built', atLeast: 3, withinDays: 7 },
  'bought this month': { event: 'purchase', withinDays: 30 },
  'never signed up': { event: 'signup', never: true },
  engaged: { engaged: true },
  'from the newsletter': { firstTouch: 'source', equals: 'newsletter' },
  'active accounts': { all: [{ stage: 'account' }, { event: 'pageview', atLeast: 5, withinDays: 7 }] },
  'news or team': { any: [{ list: 'news' }, { field: 'plan', equals: 'team' }] },
  'not engaged': { not: { engaged: true } },
  'engaged, not on product': { all: [{ engaged: true }, { not: { list: 'product' } }] },
  'big inviters': {
    all: [
      { field: 'seats', gt: 10 },
      { event: 'invite_sent', withinDays: 14 },
    ],
  },
  'hot or trial': { any: [{ event: 'cta_click', atLeast: 2, withinDays: 1 }, { stage: 'trial' }] },
  'quiet engaged': { all: [{ engaged: true }, { event: 'report_built', never: true, withinDays: 30 }] },
};

// ---- ingest -------------------------------------------------------------------------------------------------

const TYPES = ['pageview', 'pageview', 'pageview', 'cta_click', 'report_built', 'signup', 'purchase', 'invite_sent'];
const PLANS = ['free', 'pro', 'team'];
const SOURCES = ['google', 'newsletter', 'direct'];

/** Item i: every other one a new person, the others someone first seen 4,000 items earlier. */
function item(i: number): Record<string, unknown> {
  const n = i % 2 === 0 || i < 4_000 ? i - (i % 2) : i - 4_000 - (i % 2);
  const email = `p${n}@bench.test`;
  const source = { path: '/pricing', utm: { source: SOURCES[n % 3], medium: n % 2 ? 'email' : 'cpc' } };
  if (i % 10 === 8) return { type: 'identify', email, fields: { plan: PLANS[i % 3], seats: i % 13 }, source };
  if (i % 20 === 9) return { type: 'subscribe', email, list: i % 40 === 9 ? 'news' : 'product', consent: 'News.' };
  return { type: TYPES[i % TYPES.length], email, properties: { n: i }, source };
}

interface IngestTarget extends Target {
  service: Service;
  keys: string[];
  items: number;
  posts: number;
}

async function drive(target: IngestTarget, connections: number, perPost: number, seconds: number) {
  const result = await autocannon({
    url: `${target.service.url}/api/v1/events`,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          const first = target.items;
          target.items += perPost;
          const key = target.keys[Math.floor(target.posts++ / POSTS_PER_KEY) % target.keys.length];
          const body =
            perPost === 1 ? item(first) : { events: Array.from({ length: perPost }, (_, j) => item(first + j)) };
          return {
            ...req,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
            body: JSON.stringify(body),
          };
        },
      },
    ],
  });
  return {
    events: result['2xx'] * perPost,
    seconds: (result.finish.getTime() - result.start.getTime()) / 1000,
    notes: { p50: result.latency.p50, p99: result.latency.p99, refused: result.non2xx, errors: result.errors },
  };
}

/** Lists, the custom event names seen, and (with `segments`) the segments, filled. */
async function prepare(url: string, key: string, segments: Record<string, unknown>): Promise<void> {
  for (const address of ['news', 'product'])
    await gql(
      url,
      'mutation($i: CreateListInput!) { createList(input: $i) { id } }',
      { i: { address, name: address } },
      key,
    );
  const seen = await fetch(`${url}/api/v1/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ events: CUSTOM.map((type) => ({ type, email: 'seed@bench.test' })) }),
  });
  if (!seen.ok) throw new Error(`the seed post answered ${seen.status}`);
  for (const [name, definition] of Object.entries(segments))
    await gql(
      url,
      'mutation($i: CreateSegmentInput!) { createSegment(input: $i) { id } }',
      { i: { name, definition } },
      key,
    );
  while ((await gql(url, '{ segments { filling } }', {}, key)).segments.some((s: { filling: boolean }) => s.filling))
    await sleep(500);
}

async function ingestTarget(name: string, segments: Record<string, unknown>): Promise<IngestTarget> {
  const database = `${DATABASE}_${name}`;
  const service = await startService(database, ['api', 'worker']);
  const db = await connect(service.databaseUrl);
  const bench = await backendPid(db);
  const made = await workspaceWithKeys(service.url, 'bench', KEYS);
  await prepare(service.url, made.secretKeys[0], segments);
  const pg = postgresOf(database);
  return {
    name,
    service,
    db,
    keys: made.secretKeys.slice(1),
    items: 0,
    posts: 0,
    groups: {
      api: byPid(service.pids.api),
      worker: byPid(service.pids.worker),
      pg: (p, all) => p.pid !== bench && pg(p, all),
      pgShared: postgresShared,
    },
    shared: ['pgShared'],
    settle: () => drained(db),
  };
}

const KINDS = [
  { name: 'single', label: 'single events, 64 connections', connections: 64, perPost: 1 },
  { name: 'batch', label: 'batches of 100, 16 connections', connections: 16, perPost: 100 },
];

async function ingestPhase(): Promise<string> {
  const none = await ingestTarget('none', {});
  const twenty = await ingestTarget('twenty', TWENTY);
  const targets = [none, twenty];
  try {
    for (const target of targets) {
      await drive(target, 8, 1, Math.min(SECONDS, 5));
      await drive(target, 4, 100, 3);
      await target.settle();
    }
    // Statistics as a workspace in use has them (BENCH_ANALYZE=0 leaves the fresh database's, none until autovacuum's).
    if (ANALYZE) await Promise.all(targets.map((t) => t.db.query('ANALYZE')));
    const rounds: Record<string, Round[]> = {};
    for (const kind of KINDS) {
      for (let r = 0; r < ROUNDS; r++) {
        for (const target of r % 2 ? [twenty, none] : targets) {
          const round = await measureRound(target, () => drive(target, kind.connections, kind.perPost, SECONDS));
          console.log(
            `${kind.name} ${target.name} round ${r + 1}: ${(round.events / round.seconds).toFixed(0)} events/s, ` +
              `${JSON.stringify(round.cpu)} CPU-ms/event, refused ${round.notes.refused}`,
          );
          (rounds[`${kind.name}:${target.name}`] ??= []).push(round);
        }
      }
    }
    const [members] = (await twenty.db.query(`SELECT count(*)::int AS n FROM segment_members`)).rows;
    return ingestReport(rounds, members.n);
  } finally {
    for (const target of targets) {
      await target.db.end();
      await target.service.stop();
    }
  }
}

function ingestReport(rounds: Record<string, Round[]>, members: number): string {
  const f = (n: number) => n.toFixed(3);
  const apiPg = (rs: Round[]) => median(rs.map((r) => r.cpu.api + r.cpu.pg));
  const rows = KINDS.flatMap((kind) => {
    const [none, twenty] = ['none', 'twenty'].map((t) => rounds[`${kind.name}:${t}`]);
    const [a, b] = [medians(none), medians(twenty)];
    const line = (name: string, m: ReturnType<typeof medians>, rs: Round[], ratio: string) =>
      `| ${kind.label} | ${name} | ${m.rate.toFixed(0)} | ${f(m.cpu.api)} | ${f(m.cpu.worker)} | ${f(m.cpu.pg)} | ` +
      `${f(apiPg(rs))} | ${f(m.cpu.total)} | ${ratio} | ${rs.reduce((n, r) => n + r.notes.refused + r.notes.errors, 0)} |`;
    const ratio = `**${(apiPg(twenty) / apiPg(none)).toFixed(2)}×** (all ${(b.cpu.total / a.cpu.total).toFixed(2)}×)`;
    return [line('no segments', a, none, '1'), line('20 segments', b, twenty, ratio)];
  });
  return `Ingest with 20 live segments against none, two Lifelines side by side (api + worker each, own database), the same
posts, ${ROUNDS} interleaved rounds of ${SECONDS} s per kind; medians; CPU-ms per accepted event. The 20 segments held
${members.toLocaleString('en')} memberships at the end. Target: api + PostgreSQL ≤ 1.15× with segments.

| kind | workspace | events/s | api | worker | PostgreSQL | api + PostgreSQL | all three | ratio (api + PostgreSQL) | refused |
|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}`;
}

// ---- scale ---------------------------------------------------------------------------------------------------

const person = (n: string) => `'per_s' || lpad((${n})::text, 9, '0')`;
const migrationUp = (db: Client, name: string) => new (MIGRATIONS.find((m) => m.name === name)!)().up(db as never);

/**
 * People n = 1..people: a stage of seven in turn (none, account twice, trial, purchaser, repeat, churned), engaged
 * for even n, fields {plan, seats}, a first touch of three, one minute apart in created_at, an email identity
 * each, every fourth subscribed to news. Events: type, person and time (the last 60 days) by hashes of the row's
 * number, received long ago so the charts' fold leaves them alone. Search's trigram indexes are made after the
 * rows (test/support/people-search.ts does the same).
 */
async function fillScale(db: Client, ws: string, people: number, events: number, log: (s: string) => void) {
  const started = Date.now();
  await db.query(`SET statement_timeout = 0; SET maintenance_work_mem = '256MB'; SET synchronous_commit = off`);
  await db.query(`DROP INDEX identities_value_trgm; DROP INDEX people_name_trgm`);
  const created = `now() - interval '5 days' - n * interval '1 minute'`;
  await db.query(
    `INSERT INTO people (workspace_id, id, email, stage, stage_changed_at, engaged_at, fields, first_touch, first_touch_at,
                         created_at, updated_at)
     SELECT $1, ${person('n')}, 's' || n || '@scale.test',
            (ARRAY[NULL, 'account', 'account', 'trial', 'purchaser', 'repeat', 'churned'])[1 + n % 7],
            CASE WHEN n % 7 > 0 THEN now() - interval '3 days' END, CASE WHEN n % 2 = 0 THEN now() - interval '1 day' END,
            jsonb_build_object('plan', (ARRAY['free', 'pro', 'team'])[1 + n % 3], 'seats', n % 20),
            jsonb_build_object('source', (ARRAY['google', 'direct', 'newsletter'])[1 + n % 3], 'medium',
              (ARRAY['cpc', NULL, 'email'])[1 + n % 3], 'campaign', NULL, 'referrer', NULL, 'path', '/pricing', 'click_id', NULL),
            ${created}, ${created}, now() - interval '1 day'
       FROM generate_series(1, $2::int) AS n`,
    [ws, people],
  );
  await db.query(
    `INSERT INTO identities (workspace_id, kind, value, person_id, created_at, person_created_at)
     SELECT $1, 'email', 's' || n || '@scale.test', ${person('n')}, ${created}, ${created}
       FROM generate_series(1, $2::int) AS n ORDER BY 3`,
    [ws, people],
  );
  await db.query(
    `INSERT INTO subscriptions (workspace_id, list_id, person_id, status, consent, consent_text, granted_at)
     SELECT $1, l.id, ${person('n')}, 'subscribed', jsonb_build_object('text', 'News.'), 'News.', now() - interval '4 days'
       FROM generate_series(4, $2::int, 4) AS n, lists l WHERE l.workspace_id = $1 AND l.address = 'news'`,
    [ws, people],
  );
  for (const name of ['PeopleSearch1766800000000', 'IdentitiesSearchC1767150000000']) await migrationUp(db, name);
  log(`scale: ${people} people in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  // Each month of the 60 days gets its partition first, made by the worker's sweep for a row in the default one (the
  // sweep moves such rows to their month, and a row inserted meanwhile would fail the default's new constraint).
  const months = [
    ...new Set([60, 45, 30, 15, 0].map((d) => new Date(Date.now() - d * 86_400_000).toISOString().slice(0, 7))),
  ];
  for (const month of months) {
    await db.query(
      `INSERT INTO events (workspace_id, id, occurred_at, person_id, type, received_at)
       VALUES ($1, $2, $3, ${person('1')}, 'pageview', timestamptz '2000-01-01')`,
      [ws, `evt_month_${month}`, `${month}-15T12:00:00Z`],
    );
  }
  const named = months.map((m) => `events_y${m.replace('-', 'm')}`);
  while (
    (await db.query(`SELECT count(*)::int AS n FROM pg_class WHERE relname = ANY($1)`, [named])).rows[0].n <
    named.length
  )
    await sleep(2_000);
  log(`scale: partitions ${named.join(', ')} made in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  // Rows received before the fold's mark are never folded: the 10M rows would otherwise keep the worker's minute busy.
  await db.query(`UPDATE events_rollup_mark SET folded_to = greatest(folded_to, timestamptz '2001-01-01')`);
  const types = `(ARRAY['pageview','pageview','pageview','pageview','pageview','pageview','pageview','pageview','signup',
    'signup','activated','activated','purchase','report_built','report_built','report_built','report_built','cta_click',
    'invite_sent','pageview'])`;
  for (let from = 1; from <= events; from += 1_000_000) {
    await db.query(
      `INSERT INTO events (workspace_id, id, occurred_at, person_id, type, received_at)
       SELECT $1, 'evt_s' || lpad(i::text, 10, '0'), now() - (abs(hashint4(i * 3 + 1)::bigint) % 5184000) * interval '1 second',
              ${person('1 + abs(hashint4(i)::bigint) % $4::int')}, ${types}[1 + abs(hashint4(i * 7 + 2)::bigint) % 20], timestamptz '2000-01-01'
         FROM generate_series($2::int, $3::int) AS i ORDER BY 4, 3`,
      [ws, from, Math.min(events, from + 999_999), people],
    );
    log(`scale: ${Math.min(events, from + 999_999)} events in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  await db.query(`VACUUM (ANALYZE) people, identities, subscriptions, events`);
  // The fill's pages written out now, not by the checkpointer and the kernel while the first segment fills.
  await db.query(`CHECKPOINT`);
  execFileSync('sync');
  await db.query(`RESET statement_timeout; RESET maintenance_work_mem; RESET synchronous_commit`);
  return `filled with SQL in ${((Date.now() - started) / 1000).toFixed(0)} s, then VACUUM ANALYZE and CHECKPOINT`;
}

const SCALE_SEGMENTS: Record<string, unknown> = {
  'paying on pro or team': { all: [{ stage: ['purchaser', 'repeat'] }, { field: 'plan', in: ['pro', 'team'] }] },
  'reporters or readers': { any: [{ event: 'report_built', atLeast: 3, withinDays: 30 }, { list: 'news' }] },
  'not engaged': { not: { engaged: true } },
};
const PAGE = `query($id: ID!) { segment(id: $id) { people(first: 20) { edges { node { id email } } pageInfo { hasNextPage endCursor } } } }`;

/** The median of RUNS runs after a warm-up, in ms. */
async function timed(run: () => Promise<unknown>): Promise<number> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(times);
}

/** Makes a segment and waits for its fill; answers its id, members and fill time (filled_at - created_at). */
interface FilledSegment {
  id: string;
  seconds: number;
  members: number;
}

async function fillSegment(
  url: string,
  [owner, key]: string[],
  db: Client,
  name: string,
  definition: unknown,
): Promise<FilledSegment> {
  const mutation = 'mutation($i: CreateSegmentInput!) { createSegment(input: $i) { id } }';
  const { id } = (await gql(url, mutation, { i: { name, definition } }, owner)).createSegment;
  const until = Date.now() + 15 * 60_000;
  while ((await gql(url, 'query($id: ID!) { segment(id: $id) { filling } }', { id }, key)).segment.filling) {
    if (Date.now() > until) throw new Error(`${name} was still filling after 15 minutes`);
    await sleep(1_000);
  }
  const [row] = (
    await db.query(
      `SELECT extract(epoch FROM filled_at - created_at) AS s, (SELECT coalesce(sum(members), 0)::int FROM segment_counts
        WHERE segment_id = $1) AS members FROM segments WHERE id = $1`,
      [id],
    )
  ).rows;
  return { id: id as string, seconds: Number(row.s), members: row.members as number };
}

async function analytics(url: string, key: string, segment: string) {
  const day = 86_400_000;
  const funnel = `query($i: FunnelInput!) { funnel(input: $i) { steps { event people conversion } } }`;
  const retention = `query($i: RetentionInput!) { retention(input: $i) { cohorts { start people shares } } }`;
  const f = {
    steps: ['signup', 'activated', 'purchase'],
    withinDays: 14,
    from: new Date(Date.now() - 60 * day).toISOString(),
    to: new Date().toISOString(),
  };
  const r = { start: 'signup', back: 'report_built', interval: 'week', periods: 8 };
  try {
    await gql(url, funnel, { i: f }, key);
  } catch (error) {
    if (/Cannot query field|Unknown type/.test(String(error))) return null;
    throw error;
  }
  const run = (q: string, i: unknown) => () => gql(url, q, { i }, key);
  return {
    funnel: await timed(run(funnel, f)),
    funnelSegment: await timed(run(funnel, { ...f, segment })),
    retention: await timed(run(retention, r)),
    retentionSegment: await timed(run(retention, { ...r, segment })),
  };
}

async function scalePhase(): Promise<string> {
  const database = `${DATABASE}_scale`;
  const service = await startService(database, ['api', 'worker']);
  const db = await connect(service.databaseUrl);
  try {
    const made = await workspaceWithKeys(service.url, 'scale', 3);
    const [setup, poll, reads] = made.secretKeys;
    await prepare(service.url, setup, {});
    const fillText = await fillScale(db, made.workspaceId, PEOPLE, EVENTS, console.log);
    const filled: Array<{ name: string; definition: unknown; count: number; page: number } & FilledSegment> = [];
    for (const [name, definition] of Object.entries(SCALE_SEGMENTS)) {
      const s = await fillSegment(service.url, [setup, poll], db, name, definition);
      const count = await timed(() =>
        gql(service.url, 'query($id: ID!) { segment(id: $id) { count } }', { id: s.id }, reads),
      );
      const page = await timed(() => gql(service.url, PAGE, { id: s.id }, reads));
      filled.push({ name, definition, count, page, ...s });
      console.log(filled.at(-1));
    }
    // The pages again once segment_members has statistics (autovacuum's analyze of it may not have run yet).
    await db.query('ANALYZE segment_members');
    const rows: string[] = [];
    for (const s of filled) {
      const page = await timed(() => gql(service.url, PAGE, { id: s.id }, reads));
      rows.push(
        `| ${s.name} \`${JSON.stringify(s.definition)}\` | ${s.members.toLocaleString('en')} | **${s.seconds.toFixed(1)} s** | ` +
          `**${s.count.toFixed(1)} ms** | **${s.page.toFixed(1)} ms** | ${page.toFixed(1)} ms |`,
      );
    }
    const big = filled[filled.length - 1].id;
    const a = EVENTS > 0 ? await analytics(service.url, reads, big) : null;
    const ms = (n: number) => `**${n.toFixed(0)} ms**`;
    const analyticsText = a
      ? `funnel signup → activated → purchase within 14 days over 60 days ${ms(a.funnel)}, with the segment
${ms(a.funnelSegment)}; retention signup → report_built, 8 weeks ${ms(a.retention)}, with the segment ${ms(a.retentionSegment)} (≤ 500 ms).`
      : 'funnel and retention: not in this checkout.';
    return `${PEOPLE.toLocaleString('en')} people and ${EVENTS.toLocaleString('en')} events in one workspace (${fillText}); one Lifeline
(api + worker). Each segment made over GraphQL and filled by the worker alone; fill = filled_at - created_at; count is
\`segment(id) { count }\`, page \`segment(id) { people(first: 20) { ... } }\`, over GraphQL from a client on the machine,
medians of ${RUNS} after a warm-up. Targets: fill ≤ 2 min, count and page ≤ 50 ms. Load average ${loadavg()[0].toFixed(1)}.

| segment | members | fill | count | first page | first page after ANALYZE segment_members |
|---|---|---|---|---|---|
${rows.join('\n')}

Over the ${EVENTS.toLocaleString('en')} events: ${analyticsText}`;
  } finally {
    await db.end();
    await service.stop();
  }
}

async function main() {
  const started = new Date().toISOString();
  const sections: string[] = [];
  if (ONLY.includes('ingest')) sections.push(await ingestPhase());
  if (ONLY.includes('scale')) sections.push(await scalePhase());
  writeResults(
    'Live segments',
    `Command: \`${Object.entries(process.env)
      .filter(([k]) => /^BENCH_/.test(k))
      .map(([k, v]) => `${k}=${v} `)
      .join('')}npm run bench:segments\`, started ${started}.\n\n${sections.join('\n\n')}`,
  );
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
