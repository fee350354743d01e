// npm run bench:charts — chart(input) over BENCH_EVENTS (1,000,000 by default; 10,000,000 for issue 32)
// events of the charted type (plus a fifth as many of others) in one workspace of 20,000 people with
// first touches from 8 sources, on the local PostgreSQL, filled with generate_series and then rolled up
// (events_rollup_rebuild, timed). Two phases in one run: before (the events-only statement, chart-statement.ts,
// as ChartsRepository ran it until the rollups: BEGIN, SET LOCAL jit = off, it, COMMIT) and after (the
// rollup path as ChartsRepository runs it now: BEGIN, REPEATABLE READ, jit off, the mark, the statement,
// COMMIT). Each figure is the median of 7 runs; a plain count(*) of the same rows on the same index,
// measured in each phase, shows how loaded the machine was. Then the fold's cost: a batch of new events
// inserted (timed) and folded by the minute sweep's function (timed), median of 3.
import { loadavg } from 'node:os';
import { Client } from 'pg';
import { ChartQuestion, chartStatement, parseChartInput, ROLLUP_MARK_SQL, rollupChartStatement } from '@app/events';
import { resetDatabase } from './support';

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
  // A first bucket that starts before from: its part outside the range is taken away.
  ['people by day, breakdown campaign, from noon on 16 January', { measure: 'people', interval: 'day', breakdown: 'campaign', from: '2026-01-16T12:00:00Z' }],
  ['people by month, breakdown source, from noon on 16 January', { measure: 'people', interval: 'month', breakdown: 'source', from: '2026-01-16T12:00:00Z' }],
];
/** Events per fold batch in the fold's measure (a minute of ingest at about 1,700 events/s). */
const FOLD_BATCH = 100_000;

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

/** The same answer both ways (rows sorted), so the figures compare like with like. */
async function sameAnswers(db: Client) {
  for (const [name, change] of CASES) {
    const question = parseChartInput({ event: 'purchase', from: FROM, to: TO, ...change } as never);
    const sorted = (rows: Array<{ bucket: Date; key: string | null; value: number }>) =>
      rows.map((r) => `${new Date(r.bucket).toISOString()} ${r.key || ''} ${Number(r.value)}`).sort().join('\n');
    const before = await db.query(chartStatement(WS, question).sql, chartStatement(WS, question).args);
    const [mark] = (await db.query(ROLLUP_MARK_SQL)).rows;
    const after = rollupChartStatement(WS, question, mark);
    if (sorted(before.rows) !== sorted((await db.query(after.sql, after.args)).rows)) throw new Error(`${name}: the rollups answer differently`);
  }
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** A batch of FOLD_BATCH new events inserted, then folded: the fold's time per event against the insert's. */
async function foldCost(db: Client, round: number): Promise<{ insert: number; fold: number }> {
  const insert = await timed(() =>
    db.query(
      `INSERT INTO events (workspace_id, id, occurred_at, person_id, type, value)
       SELECT $1, 'evt_fold_' || $3 || '_' || i, timestamptz '2026-03-01' + i * interval '1 second', 'per_' || lpad((1 + i % $4)::text, 8, '0'), 'purchase', i % 97
         FROM generate_series(1, $2) AS i`,
      [WS, FOLD_BATCH, round, PEOPLE],
    ),
  );
  const fold = await timed(() => db.query('SELECT events_rollup_fold()'));
  return { insert, fold };
}

async function main() {
  const url = await resetDatabase('lifeline_bench_charts');
  const db = new Client({ connectionString: url });
  await db.connect();
  const fillSeconds = (await timed(() => fill(db))) / 1000;
  const rebuildSeconds = (await timed(() => db.query('SELECT events_rollup_rebuild()'))) / 1000;
  await db.query('VACUUM ANALYZE');
  const [{ rollups }] = (await db.query(`SELECT (SELECT count(*) FROM events_rollup) + (SELECT count(*) FROM events_rollup_people_counts) AS rollups`)).rows;
  await sameAnswers(db);

  const transaction = async (head: string[], work: () => Promise<unknown>) => {
    await db.query('BEGIN');
    for (const sql of head) await db.query(sql);
    await work();
    await db.query('COMMIT');
  };
  const before = await phase(db, (question) => transaction(['SET LOCAL jit = off'], () => db.query(chartStatement(WS, question).sql, chartStatement(WS, question).args)));
  // As ChartsRepository.chart runs it.
  const after = await phase(db, (question) =>
    transaction(['SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY', 'SET LOCAL jit = off'], async () => {
      const [mark] = (await db.query(ROLLUP_MARK_SQL)).rows;
      const { sql, args } = rollupChartStatement(WS, question, mark);
      return db.query(sql, args);
    }),
  );
  const folds = [];
  for (let round = 0; round < 3; round++) folds.push(await foldCost(db, round));
  await db.end();

  const mid = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const insertMs = mid(folds.map((f) => f.insert));
  const foldMs = mid(folds.map((f) => f.fold));
  const ms = (n: number) => `${n.toFixed(0)} ms`;
  const rows = CASES.map(([name], i) => `| ${name} | ${ms(before.figures[i])} | ${ms(after.figures[i])} | ${(after.figures[i] / before.figures[i]).toFixed(3)} |`);
  console.log(`
Command: \`BENCH_EVENTS=${EVENTS} npm run bench:charts\` (${EVENTS.toLocaleString('en')} purchase events over 90 days and ${(EVENTS / 5).toLocaleString('en')} of other types in one
workspace of ${PEOPLE.toLocaleString('en')} people with first touches; 5% of the rows expired but not yet swept; filled in ${fillSeconds.toFixed(0)} s, rolled up by
events_rollup_rebuild() in ${rebuildSeconds.toFixed(0)} s into ${Number(rollups).toLocaleString('en')} rollup rows, then VACUUM ANALYZE; both paths checked to answer alike).
Medians of ${RUNS} runs from a client on the same machine. Baseline \`count(*)\` of the same rows: ${ms(before.baseline)} in the before phase
(load ${before.load}), ${ms(after.baseline)} in the after phase (load ${after.load}).

| chart over the purchases of the 90 days | before: events-only statement | after: rollups + rows not folded | after / before |
|---|---|---|---|
${rows.join('\n')}

Fold (the minute sweep's events_rollup_fold) of ${FOLD_BATCH.toLocaleString('en')} new events, median of 3: ${ms(foldMs)} (${((foldMs * 1000) / FOLD_BATCH).toFixed(1)} µs an event)
against ${ms(insertMs)} for inserting them in one statement (${((insertMs * 1000) / FOLD_BATCH).toFixed(1)} µs an event): fold / insert ${(foldMs / insertMs).toFixed(2)}.
Measured on ${new Date().toISOString().slice(0, 16)} UTC.`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
