// The statements of the events table by month (docs/decisions.md#events-by-month), shared by the
// migration that starts it (EventsByMonth1766300000000) and the sweep that keeps it (PartitionUpkeep).
// Each takes the query function of its caller's transaction.
import { rollupEventTriggers } from '../charts/rollup.sql';
import { TIMELINE_COLUMNS } from '../timeline-columns';
import { monthStart, partitionName } from './event-months';

export type Run = (sql: string, params?: unknown[]) => Promise<any>;

/** Every column, in the table's order, received_at included. */
export const COLUMNS = `${TIMELINE_COLUMNS}, received_at`;
export const KEY = 'workspace_id, person_id, occurred_at, id';
/** The partitioned table's name while an old plain `events` is being copied into it. */
export const CONVERTING = 'events_partitioned';
export const DEFAULT_PARTITION = 'events_default';
/** Rows copied per transaction of a conversion, each row share-locked until its copy commits. */
export const COPY_BATCH = 5_000;
/** DDL here waits this long for a lock, then gives up until the next sweep rather than queue ingest behind it. */
const LOCK_TIMEOUT = `SET LOCAL lock_timeout = '2s'`;
// Must match libs/events/src/charts/chart-statement.ts (rangeSql), like ChartBucketStatistics1765000000000.
export const CHART_INTERVALS = ['hour', 'day', 'week', 'month'];

export const DROP_MIRROR = `DROP FUNCTION IF EXISTS events_mirror_insert, events_mirror_delete, events_mirror_update CASCADE;`;

export type EventsShape = 'partitioned' | 'converting' | 'plain';

export async function eventsShape(run: Run): Promise<EventsShape> {
  const [row] = await run(
    `SELECT (SELECT relkind FROM pg_class WHERE oid = to_regclass('events')) AS kind, to_regclass('${CONVERTING}') IS NOT NULL AS converting`,
  );
  if (row.kind === 'p') return 'partitioned';
  return row.converting ? 'converting' : 'plain';
}

/** The partitioned table of this shape (null while the old table stands alone). */
export function partitionedName(shape: EventsShape): string {
  return shape === 'converting' ? CONVERTING : 'events';
}

/** The months that hold rows in the default partition, oldest first, at most `limit`. */
export async function monthsInDefault(run: Run, limit: number): Promise<Date[]> {
  const rows: Array<{ month: Date }> = await run(
    `SELECT DISTINCT date_trunc('month', occurred_at, 'UTC') AS month FROM ${DEFAULT_PARTITION} WHERE ` +
      `isfinite(occurred_at) ORDER BY 1 LIMIT $1`,
    [limit],
  );
  return rows.map((r) => new Date(r.month));
}

/** The month partitions of `parent`, by name. */
export async function monthPartitions(run: Run, parent: string): Promise<Set<string>> {
  const rows: Array<{ name: string }> = await run(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = ` +
      `to_regclass($1) AND c.relname <> $2`,
    [parent, DEFAULT_PARTITION],
  );
  return new Set(rows.map((r) => r.name));
}

/**
 * Makes the partition of the month starting at `start` (in the caller's transaction): its rows in the
 * default partition move into a new table, which is then attached. Attaching scans the default partition
 * under an exclusive lock (it must hold no row of the month), so this is kept for months whose rows there
 * are few: the months ahead, and a conversion's months made before it copies into them. Answers the rows moved.
 */
export async function makeMonth(run: Run, parent: string, start: Date): Promise<number> {
  const name = partitionName(start);
  const from = start.toISOString();
  const to = monthStart(start, 1).toISOString();
  await run(LOCK_TIMEOUT);
  await run(`LOCK TABLE ${DEFAULT_PARTITION} IN ACCESS EXCLUSIVE MODE`);
  const [{ made }] = await run(`SELECT to_regclass($1) IS NOT NULL AS made`, [name]);
  if (made) return 0;
  await run(`CREATE TABLE ${name} (LIKE ${parent} INCLUDING DEFAULTS)`);
  const [{ moved }] = await run(
    // Every column (the new table is LIKE the parent, so in the same order), touch included.
    `WITH moved AS (DELETE FROM ${DEFAULT_PARTITION} WHERE occurred_at >= $1 AND occurred_at < $2 RETURNING *),
     put AS (INSERT INTO ${name} SELECT * FROM moved RETURNING 1)
     SELECT count(*)::int AS moved FROM put`,
    [from, to],
  );
  await run(`ALTER TABLE ${parent} ATTACH PARTITION ${name} FOR VALUES FROM ('${from}') TO ('${to}')`);
  await nameIndexes(run, parent, name);
  return moved;
}

/**
 * Names a partition's indexes after its partitioned table's (events_y2026m11_chart for events_chart), so plans read
 * plainly.
 */
export async function nameIndexes(run: Run, parent: string, partition: string): Promise<void> {
  const rows: Array<{ index: string; suffix: string }> = await run(
    `SELECT c.relname AS index, substr(p.relname, length($1) + 2) AS suffix
       FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid JOIN pg_inherits i ON i.inhrelid = c.oid JOIN pg_class p
         ON p.oid = i.inhparent
      WHERE x.indrelid = to_regclass($2) AND c.relname <> $2 || '_' || substr(p.relname, length($1) + 2)`,
    [parent, partition],
  );
  for (const { index, suffix } of rows) await run(`ALTER INDEX ${index} RENAME TO ${partition}_${suffix}`);
}

export interface CopyMark {
  last_workspace: string | null;
  last_person: string | null;
  last_at: Date | null;
  last_id: string | null;
  copied: string;
}

export async function copyMark(run: Run): Promise<CopyMark> {
  const [mark] = await run(`SELECT last_workspace, last_person, last_at, last_id, copied FROM events_conversion`);
  return mark;
}

/** The rows after the mark, in the old table's key order: on its key, a range read from the mark. */
function afterMark(mark: CopyMark, select: string, limit: number, lock = ''): { text: string; args: unknown[] } {
  if (mark.last_workspace === null)
    return { text: `SELECT ${select} FROM events ORDER BY ${KEY} LIMIT $1 ${lock}`, args: [limit] };
  return {
    text:
      `SELECT ${select} FROM events WHERE (${KEY}) > ($2::text, $3::text, $4::timestamptz, $5::text) ORDER BY ` +
      `${KEY} LIMIT $1 ${lock}`,
    args: [limit, mark.last_workspace, mark.last_person, mark.last_at, mark.last_id],
  };
}

/** The months of the next batch, so their partitions are made before rows are copied into them. */
export async function nextBatchMonths(run: Run, mark: CopyMark, limit = COPY_BATCH): Promise<Date[]> {
  const { text, args } = afterMark(mark, 'occurred_at', limit);
  const rows: Array<{ month: Date }> = await run(
    `SELECT DISTINCT date_trunc('month', occurred_at, 'UTC') AS month FROM (${text}) AS b WHERE isfinite(occurred_at)`,
    args,
  );
  return rows.map((r) => new Date(r.month));
}

/**
 * Copies the next batch after the mark and moves the mark (in the caller's transaction). The rows are
 * share-locked until the copy commits, so an update or delete of one waits for it and is then mirrored
 * onto the copy, never lost under it; rows already mirrored are left as they are. Answers the rows read.
 */
export async function copyBatch(run: Run, mark: CopyMark, limit = COPY_BATCH): Promise<number> {
  const { text, args } = afterMark(mark, COLUMNS, limit, 'FOR SHARE');
  const [{ read }] = await run(
    `WITH batch AS (${text}),
     copied AS (INSERT INTO ${CONVERTING} (${COLUMNS}) SELECT ${COLUMNS} FROM batch ON CONFLICT DO NOTHING RETURNING 1),
     last AS (SELECT workspace_id, person_id, occurred_at, id FROM batch
       ORDER BY workspace_id DESC, person_id DESC, occurred_at DESC, id DESC LIMIT 1),
     marked AS (UPDATE events_conversion c
       SET last_workspace = l.workspace_id, last_person = l.person_id, last_at = l.occurred_at, last_id = l.id,
                       copied = c.copied + (SELECT count(*) FROM copied)
                  FROM last l RETURNING 1)
     SELECT (SELECT count(*) FROM batch)::int AS read, (SELECT count(*) FROM marked)::int AS marked`,
    args,
  );
  return read;
}

/**
 * Ends a conversion whose copy has reached the end (in the caller's transaction): under a brief
 * exclusive lock on the old table, the last rows past the mark are copied and the partitioned one takes
 * its name. The old one stays, renamed and no longer written, until dropLegacy: a statement that queued
 * behind the lock then finds `events` anew rather than a table gone. Answers false (and changes nothing
 * but the mark) when a whole batch was still past the mark.
 */
/** The chart rollups' triggers (migration 1767200000001), when the old table had them, go with the name. */
const MOVE_ROLLUP_TRIGGERS = `DO $$ BEGIN
  IF EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'events_rollup_deleted' AND tgrelid = 'events_legacy'::regclass)
    THEN
    DROP TRIGGER events_rollup_deleted ON events_legacy;
    DROP TRIGGER events_rollup_updated ON events_legacy;
    ${rollupEventTriggers('events')}
  END IF;
END $$;`;

export async function finishConversion(run: Run): Promise<boolean> {
  await run(LOCK_TIMEOUT);
  await run(`LOCK TABLE events IN ACCESS EXCLUSIVE MODE`);
  // Rows written since the last batch are mirrored already; what else lies past the mark is copied now.
  if ((await copyBatch(run, await copyMark(run))) === COPY_BATCH) return false;
  await run(`${DROP_MIRROR}
DROP TABLE events_conversion;
ALTER TABLE events RENAME TO events_legacy;
${['pkey', 'chart', 'expiry', 'received'].map((i) => `ALTER INDEX IF EXISTS events_${i} RENAME TO events_legacy_${i};`).join('\n')}
${CHART_INTERVALS.map((i) => `DROP STATISTICS IF EXISTS events_chart_${i};`).join('\n')}
ALTER TABLE ${CONVERTING} RENAME TO events;
${['pkey', 'chart', 'expiry', 'received'].map((i) => `ALTER INDEX ${CONVERTING}_${i} RENAME TO events_${i};`).join('\n')}
${CHART_INTERVALS.map((i) => `ALTER STATISTICS ${CONVERTING}_chart_${i} RENAME TO events_chart_${i};`).join('\n')}
${MOVE_ROLLUP_TRIGGERS}`);
  return true;
}

export async function dropLegacy(run: Run): Promise<void> {
  await run(`DROP TABLE IF EXISTS events_legacy`);
}
