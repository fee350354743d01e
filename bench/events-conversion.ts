// npm run bench:events-conversion — converting a plain events table of 5,000,000 rows (BENCH_EVENTS) to
// monthly partitions (docs/decisions.md#events-by-month), on the local PostgreSQL, while
// one writer inserts a timeline row after another into it. The table is made as before
// EventsByMonth1766300000000 (its down), filled with generate_series (20 workspaces, 100,000 people, a
// year of occurred_at), then the migration runs and the partitions sweep's conversion copies until done.
import { loadavg } from 'node:os';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { PartitionUpkeep } from '@app/events';
import { EVENTS_MIGRATIONS } from '../libs/events/src/migrations';
import { benchDatabase, resetDatabase, writeResults } from './support';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 5_000_000);
const migration = EVENTS_MIGRATIONS.find((m) => m.name === 'EventsByMonth1766300000000')!;

async function inTransaction(
  ds: DataSource,
  work: (runner: ReturnType<DataSource['createQueryRunner']>) => Promise<void>,
): Promise<number> {
  const runner = ds.createQueryRunner();
  const started = Date.now();
  await runner.startTransaction();
  await work(runner);
  await runner.commitTransaction();
  await runner.release();
  return Date.now() - started;
}

async function main(): Promise<void> {
  const url = await resetDatabase(benchDatabase('lifeline_bench_conversion'));
  const ds = new DataSource({ type: 'postgres', url, extra: { max: 4 } });
  await ds.initialize();
  await inTransaction(ds, (runner) => new migration().down(runner));
  let started = Date.now();
  await ds.query(
    `INSERT INTO events (workspace_id, id, occurred_at, person_id, type, value, properties)
     SELECT 'ws_' || (n % 20), 'evt_' || lpad(n::text, 10, '0'), now() - (n % 525600) * interval '1 minute', 'per_' || (n % 100000),
            CASE WHEN n % 10 = 0 THEN 'purchase' ELSE 'pageview' END, CASE WHEN n % 10 = 0 THEN n % 100 END, jsonb_build_object('path', '/p/' || (n % 50))
       FROM generate_series(1, $1) n`,
    [EVENTS],
  );
  await ds.query('VACUUM ANALYZE events');
  const fillMs = Date.now() - started;

  // One writer all along: each insert's time says how long the conversion ever held ingest up.
  const writer = new Client({ connectionString: url });
  await writer.connect();
  let writing = true;
  let writes = 0;
  let slowest = 0;
  const writes$ = (async () => {
    while (writing) {
      const at = Date.now();
      await writer.query(
        `INSERT INTO events (workspace_id, id, occurred_at, person_id, type) VALUES ('ws_1', 'evt_w' || $1, now(), 'per_1', 'pageview')`,
        [String(writes)],
      );
      slowest = Math.max(slowest, Date.now() - at);
      writes++;
    }
  })();

  const load = loadavg()[0];
  const migrationMs = await inTransaction(ds, (runner) => new migration().up(runner));
  started = Date.now();
  const copied = await new PartitionUpkeep(ds).convert(Number.POSITIVE_INFINITY);
  const convertMs = Date.now() - started;
  writing = false;
  await writes$;
  await writer.end();

  const [{ kind }] = await ds.query(`SELECT relkind AS kind FROM pg_class WHERE oid = 'events'::regclass`);
  const [{ n, months }] = await ds.query(
    `SELECT count(*)::int AS n, (SELECT count(*) FROM pg_inherits WHERE inhparent = 'events'::regclass)::int AS months FROM events`,
  );
  await ds.destroy();
  writeResults(
    'Events by month: converting a plain table',
    `\`npm run bench:events-conversion\` (BENCH_EVENTS=${EVENTS}), measured ${new Date().toISOString().slice(0, 16)} UTC, load ${load.toFixed(1)}.

| step | time |
|---|---|
| prefill ${EVENTS.toLocaleString('en')} rows (generate_series, plain table, 3 btrees and the BRIN) | ${(fillMs / 1000).toFixed(1)} s |
| migration EventsByMonth1766300000000 (partitioned table beside, months ahead, mirror triggers) | ${migrationMs} ms |
| conversion: copy in batches of 5,000, months made ahead of the copy, then the swap | ${(convertMs / 1000).toFixed(1)} s (${Math.round(copied / (convertMs / 1000)).toLocaleString('en')} rows/s) |

Afterwards \`events\` is ${kind === 'p' ? 'partitioned' : 'NOT partitioned'} (${months} partitions with the default) and holds ${n.toLocaleString('en')} rows =
${EVENTS.toLocaleString('en')} + ${writes.toLocaleString('en')} written by the one writer meanwhile; that writer's slowest insert took ${slowest} ms.`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
