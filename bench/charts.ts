// npm run bench:charts — chart(input) over BENCH_EVENTS (1,000,000) events of the charted type (plus a
// fifth as many of others) in one workspace of 20,000 people with first touches from 8 sources, on the
// local PostgreSQL. Two phases in one run: before (the events-only statement, chart-statement.ts, as
// it ran until the rollups: its own transaction with JIT off) and after (what ChartsService runs now:
// counts and sums from the rollups, people from the sketches, rebuilt once after the fill; REPEATABLE
// READ, JIT off). Each figure is the median of 7 runs; a plain count(*) of the same rows on
// the same index, measured in each phase, shows how loaded the machine was.
import { loadavg } from 'node:os';
import { Client } from 'pg';
import {
  ChartQuestion,
  chartStatement,
  clientTransaction,
  parseChartInput,
  readChart,
  rebuildRollups,
} from '@app/events';
import { touchKeySql } from '@app/people/first-touch-sql';
import { benchDatabase, dropDatabase, resetDatabase, writeResults } from './support';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const PEOPLE = 20_000;
const RUNS = 7;
const WS = 'ws_bench_charts';
const DATABASE = benchDatabase('lifeline_bench_charts');
const FROM = '2026-01-01T00:00:00Z';
const TO = '2026-03-31T23:59:59Z';
const CASES: Array<[string, Record<string, string>]> = [
  ['count by day', { measure: 'count', interval: 'day' }],
  ['sum_value by day', { measure: 'sum_value', interval: 'day' }],
  ['people by day', { measure: 'people', interval: 'day' }],
  [
    'count by hour (1,000 buckets, the first 42 days)',
    { measure: 'count', interval: 'hour', to: '2026-02-11T15:00:00Z' },
  ],
  ['count by day, breakdown source', { measure: 'count', interval: 'day', breakdown: 'source' }],
  ['people by week, breakdown campaign', { measure: 'people', interval: 'week', breakdown: 'campaign' }],
];

async function fill(db: Client) {
  await db.query(
    `INSERT INTO workspaces (id, slug, name, public_key) VALUES ($1, 'charts', 'charts', 'wk_benchcharts000000000000')`,
    [WS],
  );
  await db.query(
    `INSERT INTO people (workspace_id, id, email, first_touch, created_at)
     SELECT $1, 'per_' || lpad(i::text, 8, '0'), 'p' || i || '@bench.test',
            CASE WHEN i % 10 = 0 THEN NULL ELSE jsonb_build_object('source', (ARRAY['google','direct','news.ycombinator.com','twitter','newsletter','bing','reddit','github'])[1 + i % 8],
              'medium', (ARRAY['cpc','email',NULL,'social'])[1 + i % 4], 'campaign', 'c' || (i % 25)) END,
            now()
       FROM generate_series(1, $2) AS i`,
    [WS, PEOPLE],
  );
  // 90 days; every twentieth row already expired (not yet swept), as after an expiry and before the sweep.
  const insert = (type: string, n: number, offset: number) =>
    db.query(
      // Each row with its person's first-touch key, as the ingest writes it.
      `INSERT INTO events (workspace_id, id, occurred_at, person_id, type, value, expires_at, touch)
       SELECT $1, 'evt_' || lpad((i + $5)::text, 10, '0'), timestamptz '2026-01-01' + (i * interval '7776 seconds') / ($3::float / 1000),
              'per_' || lpad((1 + i % $4)::text, 8, '0'), $2, (i % 97) + 1,
              CASE WHEN i % 20 = 0 THEN now() - interval '1 hour' END, k.touch
         FROM generate_series(1, $3) AS i JOIN bench_touches k ON k.n = 1 + i % $4`,
      [WS, type, n, PEOPLE, offset],
    );
  await db.query(
    `CREATE TEMP TABLE bench_touches AS SELECT row_number() OVER (ORDER BY id) AS n, ${touchKeySql('first_touch')} AS touch FROM people WHERE workspace_id = $1`,
    [WS],
  );
  await insert('purchase', EVENTS, 0);
  await insert('pageview', EVENTS / 10, EVENTS);
  await insert('signup', EVENTS / 10, EVENTS + EVENTS / 10);
  await db.query('VACUUM ANALYZE');
  // The first fold (the rebuild names the first touches too, and sketches every day's people); then the minute sweep's folds keep it.
  const rebuilt = Date.now();
  await rebuildRollups(clientTransaction(db));
  process.stdout.write(`rebuild: ${((Date.now() - rebuilt) / 1000).toFixed(0)} s\n`);
  await db.query('VACUUM ANALYZE events_rollup, events_rollup_people');
}

async function median(run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(RUNS / 2)];
}

interface Phase {
  baseline: number;
  load: string;
  figures: number[];
}

async function phase(db: Client, run: (question: ChartQuestion) => Promise<unknown>): Promise<Phase> {
  const baseline = await median(() =>
    db.query(
      `SELECT count(*) FROM events WHERE workspace_id = $1 AND type = 'purchase' AND occurred_at >= $2 AND occurred_at <= $3`,
      [WS, FROM, TO],
    ),
  );
  const figures: number[] = [];
  for (const [name, change] of CASES) {
    const question = parseChartInput({ event: 'purchase', from: FROM, to: TO, ...change } as never);
    figures.push(await median(() => run(question)));
    process.stdout.write(`${name}: ${figures[figures.length - 1].toFixed(0)} ms\n`);
  }
  return {
    baseline,
    figures,
    load: loadavg()
      .map((l) => l.toFixed(1))
      .join(', '),
  };
}

async function main() {
  const url = await resetDatabase(DATABASE);
  const db = new Client({ connectionString: url });
  await db.connect();
  const filled = Date.now();
  await fill(db);
  const fillSeconds = (Date.now() - filled) / 1000;

  const before = await phase(db, async (question) => {
    const { sql, args } = chartStatement(WS, question);
    await db.query('BEGIN');
    await db.query('SET LOCAL jit = off');
    await db.query(sql, args);
    await db.query('COMMIT');
  });
  // As ChartsRepository.chart runs it.
  const after = await phase(db, async (question) => {
    await db.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    await db.query('SET LOCAL jit = off');
    await readChart((sql, args) => db.query(sql, args).then((r) => r.rows), WS, question);
    await db.query('COMMIT');
  });
  await db.end();
  // BENCH_KEEP=1 keeps the database (a 10M fill takes minutes).
  if (!process.env.BENCH_KEEP) await dropDatabase(DATABASE);

  const ms = (n: number) => `${n.toFixed(0)} ms`;
  const rows = CASES.map(
    ([name], i) =>
      `| ${name} | ${ms(before.figures[i])} | ${ms(after.figures[i])} | ${(after.figures[i] / before.figures[i]).toFixed(2)} |`,
  );
  writeResults(
    `Charts (chart(input) over ${EVENTS.toLocaleString('en')} events)`,
    `Command: \`npm run bench:charts\` (${EVENTS.toLocaleString('en')} purchase events over 90 days and ${(EVENTS / 5).toLocaleString('en')} of other types in one
workspace of ${PEOPLE.toLocaleString('en')} people with first touches; 5% of the rows expired but not yet swept; filled in ${fillSeconds.toFixed(0)} s, then VACUUM ANALYZE).
Each figure is the median of ${RUNS} runs from a client on the same machine, in one run of the bench: before is the events-only
statement (chart-statement.ts: BEGIN, SET LOCAL jit = off, the statement, COMMIT); after is what ChartsService runs now (counts and
sums from the rollups, people from the sketches, rebuilt after the fill; BEGIN REPEATABLE READ, jit off, the mark (and for people
the listed hours), the statement (and for a breakdown of people the keys' names), COMMIT: five to seven round trips, all in the figure).
Baseline \`count(*)\` of the same rows on the same index: ${ms(before.baseline)} in the before phase (load average ${before.load}),
${ms(after.baseline)} in the after phase (load average ${after.load}); 2 cores, shared with other work.

| chart over every purchase of the 90 days | before | after | after / before |
|---|---|---|---|
${rows.join('\n')}

Target: under 150 ms. Measured on ${new Date().toISOString().slice(0, 10)}.`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
