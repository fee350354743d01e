// npm run bench:charts — chart(input) statements over 1,000,000 events of the charted type (plus
// 200,000 of others) in one workspace of 20,000 people with first touches from 8 sources, on the local
// PostgreSQL. Two phases in one run: before (the previous statement on the schema without the bucket
// statistics, as it ran until 2026-11-23) and after (the statement ChartsService runs now, as it runs it:
// its own transaction with JIT off). Each figure is the median of 7 runs; a plain count(*) of the same
// rows on the same index, measured in each phase, shows how loaded the machine was.
import { loadavg } from 'node:os';
import { Client } from 'pg';
import { MIGRATIONS } from '@app/schema';
import { ChartQuestion, chartStatement, parseChartInput } from '@app/events';
import { resetDatabase, writeResults } from './support';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const PEOPLE = 20_000;
const RUNS = 7;
const WS = 'ws_bench_charts';
const FROM = '2026-01-01T00:00:00Z';
const TO = '2026-03-31T23:59:59Z';
const CASES: Array<[string, Record<string, string>]> = [
  ['count by day', { measure: 'count', interval: 'day' }],
  ['sum_value by day', { measure: 'sum_value', interval: 'day' }],
  ['people by day', { measure: 'people', interval: 'day' }],
  ['count by hour (1,000 buckets, the first 42 days)', { measure: 'count', interval: 'hour', to: '2026-02-11T15:00:00Z' }],
  ['count by day, breakdown source', { measure: 'count', interval: 'day', breakdown: 'source' }],
  ['people by week, breakdown campaign', { measure: 'people', interval: 'week', breakdown: 'campaign' }],
];

/** The statement charts ran before (commit 3549b6e), kept here only to measure against. */
function previousStatement(workspaceId: string, question: ChartQuestion): { sql: string; args: unknown[] } {
  const measure = { count: 'count(*)', sum_value: 'coalesce(sum(e.value), 0)', people: 'count(DISTINCT e.person_id)' }[question.measure];
  const key = question.breakdown ? `p.first_touch->>'${question.breakdown}'` : 'NULL::text';
  const join = question.breakdown ? 'JOIN people p ON p.workspace_id = e.workspace_id AND p.id = e.person_id' : '';
  return {
    sql: `SELECT g.bucket AT TIME ZONE 'UTC' AS bucket, g.key, g.value FROM (
            SELECT date_trunc($5, e.occurred_at AT TIME ZONE 'UTC') AS bucket, ${key} AS key, ${measure}::float8 AS value
              FROM events e ${join}
             WHERE e.workspace_id = $1 AND e.type = $2 AND e.occurred_at >= $3 AND e.occurred_at <= $4
               AND (e.expires_at IS NULL OR e.expires_at > now())
             GROUP BY 1, 2) AS g`,
    args: [workspaceId, question.event, question.from.toISOString(), question.to.toISOString(), question.interval],
  };
}

async function fill(db: Client) {
  await db.query(`INSERT INTO workspaces (id, slug, name, public_key) VALUES ($1, 'charts', 'charts', 'wk_benchcharts000000000000')`, [WS]);
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
      `INSERT INTO events (workspace_id, id, occurred_at, person_id, type, value, expires_at)
       SELECT $1, 'evt_' || lpad((i + $5)::text, 10, '0'), timestamptz '2026-01-01' + (i * interval '7776 seconds') / ($3::float / 1000),
              'per_' || lpad((1 + i % $4)::text, 8, '0'), $2, (i % 97) + 1,
              CASE WHEN i % 20 = 0 THEN now() - interval '1 hour' END
         FROM generate_series(1, $3) AS i`,
      [WS, type, n, PEOPLE, offset],
    );
  await insert('purchase', EVENTS, 0);
  await insert('pageview', EVENTS / 10, EVENTS);
  await insert('signup', EVENTS / 10, EVENTS + EVENTS / 10);
  await db.query('VACUUM ANALYZE');
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

/** The bucket statistics of migration 1765000000000, dropped (before) or made (after), then ANALYZE. */
async function bucketStatistics(db: Client, made: boolean) {
  const migration = new (MIGRATIONS.find((m) => m.name === 'ChartBucketStatistics1765000000000')!)();
  const runner = { query: (sql: string) => db.query(sql) } as never;
  await (made ? migration.up(runner) : migration.down(runner));
  await db.query('ANALYZE events');
}

interface Phase {
  baseline: number;
  load: string;
  figures: number[];
}

async function phase(db: Client, run: (question: ChartQuestion) => Promise<unknown>): Promise<Phase> {
  const baseline = await median(() => db.query(`SELECT count(*) FROM events WHERE workspace_id = $1 AND type = 'purchase' AND occurred_at >= $2 AND occurred_at <= $3`, [WS, FROM, TO]));
  const figures: number[] = [];
  for (const [name, change] of CASES) {
    const question = parseChartInput({ event: 'purchase', from: FROM, to: TO, ...change } as never);
    figures.push(await median(() => run(question)));
    process.stdout.write(`${name}: ${figures[figures.length - 1].toFixed(0)} ms\n`);
  }
  return { baseline, figures, load: loadavg().map((l) => l.toFixed(1)).join(', ') };
}

async function main() {
  const url = await resetDatabase('lifeline_bench_charts');
  const db = new Client({ connectionString: url });
  await db.connect();
  const filled = Date.now();
  await fill(db);
  const fillSeconds = (Date.now() - filled) / 1000;

  await bucketStatistics(db, false);
  const before = await phase(db, (question) => {
    const { sql, args } = previousStatement(WS, question);
    return db.query(sql, args);
  });
  await bucketStatistics(db, true);
  // As ChartsRepository.chart runs it.
  const after = await phase(db, async (question) => {
    const { sql, args } = chartStatement(WS, question);
    await db.query('BEGIN');
    await db.query('SET LOCAL jit = off');
    await db.query(sql, args);
    await db.query('COMMIT');
  });
  await db.end();

  const ms = (n: number) => `${n.toFixed(0)} ms`;
  const rows = CASES.map(([name], i) => `| ${name} | ${ms(before.figures[i])} | ${ms(after.figures[i])} | ${(after.figures[i] / before.figures[i]).toFixed(2)} |`);
  writeResults(
    'Charts (chart(input) over 1,000,000 events)',
    `Command: \`npm run bench:charts\` (${EVENTS.toLocaleString('en')} purchase events over 90 days and ${(EVENTS / 5).toLocaleString('en')} of other types in one
workspace of ${PEOPLE.toLocaleString('en')} people with first touches; 5% of the rows expired but not yet swept; filled in ${fillSeconds.toFixed(0)} s, then VACUUM ANALYZE).
Each figure is the median of ${RUNS} runs from a client on the same machine, in one run of the bench: before is the previous
statement (one GROUP BY over the range) on the schema without the bucket statistics; after is the statement ChartsService runs
now, as it runs it (BEGIN, SET LOCAL jit = off, the statement, COMMIT: four round trips, all in the figure).
Baseline \`count(*)\` of the same rows on the same index: ${ms(before.baseline)} in the before phase (load average ${before.load}),
${ms(after.baseline)} in the after phase (load average ${after.load}); 2 cores, shared with other work.

| chart over every purchase of the 90 days | before | after | after / before |
|---|---|---|---|
${rows.join('\n')}

Target: under 500 ms. Measured on ${new Date().toISOString().slice(0, 10)}.`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
