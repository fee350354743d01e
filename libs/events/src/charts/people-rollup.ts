// The people part of the fold (rollup.sql.ts says what events_rollup_people holds): in the transaction
// of events_rollup_fold(), which holds the rollups' lock to its end, the rows it folded add their
// people's hashes to the sketches of their hour, day, week and month (no join: the key is on the row), and a
// few listed hours are sketched again from events, their days as the union of their hours, weeks and months of days.
// Sketches merge here rather than in SQL: a HyperLogLog's registers are a loop PL/pgSQL does slowly.
// Plain pg, no Nest: the worker's sweep, the operator CLI and the bench run it.
import { PersonSketch } from '../domain/person-sketch';
import { bucketEnd, bucketStart, ChartInterval } from './chart-rule';
import { HOUR_OF, PERSON_HASH } from './rollup.sql';

export type Query = (sql: string, args?: unknown[]) => Promise<any[]>;
export type InTransaction = <T>(work: (query: Query) => Promise<T>) => Promise<T>;

/** Sketch grains: hours in an hour, a day, a week, and at most in a month (the chart interval each serves). */
export const SKETCH_GRAINS = { hour: 1, day: 24, week: 168, month: 744 } as const;
/** Listed hours sketched again per minute fold (eight days' worth): each run of them reads its hours of events. */
export const DIRTY_HOURS_PER_FOLD = 192;
const HOUR = 3_600_000;

interface Folded {
  changed: string | null;
  from_at: string;
  upto: string;
  expired: string;
}

/** A row's hashes as bytes (int8send of PERSON_HASH), distinct per group. */
const HASHES = `string_agg(d.h, ''::bytea) AS hashes`;
const HASHED = (e: string) => `coalesce(${e}.touch, 0) AS touch, int8send(${PERSON_HASH(`${e}.person_id`)}) AS h`;
const LIVE_AT = (e: string, upto: string, expired: string) =>
  `${e}.received_at < ${upto}::timestamptz AND (${e}.expires_at IS NULL OR ${e}.expires_at > ${expired}::timestamptz)`;

class Sketches {
  readonly rows = new Map<
    string,
    { workspace_id: string; type: string; grain: number; at: Date; keyed: boolean; touch: string; sketch: PersonSketch }
  >();

  get(workspace_id: string, type: string, grain: number, at: Date, keyed: boolean, touch: string): PersonSketch {
    const key = [workspace_id, type, grain, at.getTime(), keyed, touch].join('\u001f');
    let row = this.rows.get(key);
    if (!row) this.rows.set(key, (row = { workspace_id, type, grain, at, keyed, touch, sketch: new PersonSketch() }));
    return row.sketch;
  }

  /** Adds hashes (int8send's bytes) under the key and over every key, at each grain in `grains`. */
  add(workspace: string, type: string, hour: Date, touch: string, hashes: Buffer, grains: number[]): void {
    for (const grain of grains) {
      const at = grainStart(hour, grain);
      this.get(workspace, type, grain, at, true, touch).addHashes(hashes);
      this.get(workspace, type, grain, at, false, '0').addHashes(hashes);
    }
  }

  /** Writes every sketch, replacing what was there (only the fold writes sketches, under the lock). */
  async save(query: Query): Promise<void> {
    const rows = [...this.rows.values()];
    if (rows.length === 0) return;
    const column = <T>(pick: (row: (typeof rows)[number]) => T) => rows.map(pick);
    await query(
      `INSERT INTO events_rollup_people (workspace_id, type, grain, at, keyed, touch, sketch)
       SELECT * FROM unnest($1::text[], $2::text[], $3::int2[], $4::timestamptz[], $5::bool[], $6::int8[], $7::bytea[])
       ON CONFLICT (workspace_id, type, grain, keyed, at, touch) DO UPDATE SET sketch = excluded.sketch`,
      [
        column((r) => r.workspace_id),
        column((r) => r.type),
        column((r) => r.grain),
        column((r) => r.at.toISOString()),
        column((r) => r.keyed),
        column((r) => r.touch),
        column((r) => r.sketch.toBytes()),
      ],
    );
  }
}

const intervalOf = (grain: number) =>
  (Object.keys(SKETCH_GRAINS) as ChartInterval[]).find((interval) => SKETCH_GRAINS[interval] === grain)!;

/** The start of the hour, day, week or month holding `at` (the chart's buckets: weeks from Monday, UTC). */
export function grainStart(at: Date, grain: number): Date {
  return bucketStart(at, intervalOf(grain));
}

/**
 * One fold, inside the caller's transaction: the counts (events_rollup_fold), the people of the rows it
 * folded, and up to `dirtyHours` listed hours sketched again. Null when the fold skipped its turn.
 */
export async function foldRollups(
  query: Query,
  dirtyHours = DIRTY_HOURS_PER_FOLD,
): Promise<{ changed: number; sketched: number } | null> {
  const [folded]: Folded[] = await query(
    `SELECT changed, from_at::text AS from_at, upto::text AS upto, expired::text AS expired FROM events_rollup_fold()`,
  );
  if (folded.changed === null) return null;
  // A minute's rows are far more than the planner guesses (events is not analyzed that often): grouped
  // by sorting they spilled to disk (1.6 s for 400,000 rows), by hashing 0.3 s.
  await query('SET LOCAL enable_sort = off');
  await addFolded(query, folded);
  const sketched = await sketchListedHours(query, folded, dirtyHours);
  return { changed: Number(folded.changed), sketched };
}

/**
 * The folded rows' people per hour and key, added to their sketches. Not made distinct in SQL: the
 * sketches drop repeats for less.
 */
async function addFolded(query: Query, folded: Folded): Promise<void> {
  const groups: Array<{ workspace_id: string; type: string; hour: Date; touch: string; hashes: Buffer }> = await query(
    `SELECT d.workspace_id, d.type, d.hour, d.touch, ${HASHES} FROM (
       SELECT e.workspace_id, e.type, ${HOUR_OF('e')} AS hour, ${HASHED('e')} FROM events e
        WHERE e.received_at >= $1::timestamptz AND ${LIVE_AT('e', '$2', '$3')}) d
     GROUP BY 1, 2, 3, 4`,
    [folded.from_at, folded.upto, folded.expired],
  );
  if (groups.length === 0) return;
  const sketches = new Sketches();
  for (const g of groups)
    sketches.add(g.workspace_id, g.type, new Date(g.hour), String(g.touch), g.hashes, Object.values(SKETCH_GRAINS));
  const rows = [...sketches.rows.values()];
  const kept: Array<{
    workspace_id: string;
    type: string;
    grain: number;
    at: Date;
    keyed: boolean;
    touch: string;
    sketch: Buffer;
  }> = await query(
    `SELECT p.workspace_id, p.type, p.grain, p.at, p.keyed, p.touch, p.sketch FROM events_rollup_people p
       JOIN unnest($1::text[], $2::text[], $3::int2[], $4::timestamptz[], $5::bool[], $6::int8[]) AS k(workspace_id,
         type, grain, at, keyed, touch)
         USING (workspace_id, type, grain, at, keyed, touch)`,
    [
      rows.map((r) => r.workspace_id),
      rows.map((r) => r.type),
      rows.map((r) => r.grain),
      rows.map((r) => r.at.toISOString()),
      rows.map((r) => r.keyed),
      rows.map((r) => r.touch),
    ],
  );
  for (const k of kept)
    sketches.get(k.workspace_id, k.type, k.grain, new Date(k.at), k.keyed, String(k.touch)).mergeBytes(k.sketch);
  await sketches.save(query);
}

/** Listed hours as runs of consecutive hours of one workspace and type, [from, to) in epoch ms. */
export function runsOf(
  hours: Array<{ workspace_id: string; type: string; hour: Date }>,
): Array<{ workspace_id: string; type: string; from: number; to: number }> {
  const sorted = hours
    .map((h) => ({ workspace_id: h.workspace_id, type: h.type, at: new Date(h.hour).getTime() }))
    .sort((a, b) => a.workspace_id.localeCompare(b.workspace_id) || a.type.localeCompare(b.type) || a.at - b.at);
  const runs: Array<{ workspace_id: string; type: string; from: number; to: number }> = [];
  for (const h of sorted) {
    const last = runs[runs.length - 1];
    if (last && last.workspace_id === h.workspace_id && last.type === h.type && last.to === h.at) last.to += HOUR;
    else runs.push({ workspace_id: h.workspace_id, type: h.type, from: h.at, to: h.at + HOUR });
  }
  return runs;
}

/**
 * Up to `limit` listed hours, latest first (charts ask for recent hours most): each run of them sketched
 * again from the rows folded under the new mark (one read of those hours' rows), then each day holding
 * one as the union of its hours' sketches, and each week and month holding one as the union of its days';
 * the hours leave the list. The lock keeps every trigger waiting meanwhile.
 */
async function sketchListedHours(query: Query, folded: Folded, limit: number): Promise<number> {
  const hours: Array<{ workspace_id: string; type: string; hour: Date }> = await query(
    `SELECT workspace_id, type, hour FROM events_rollup_dirty ORDER BY hour DESC LIMIT $1`,
    [limit],
  );
  if (hours.length === 0) return 0;
  await query(
    `DELETE FROM events_rollup_dirty WHERE (workspace_id, type, hour) IN (SELECT * FROM unnest($1::text[], ` +
      `$2::text[], $3::timestamptz[]))`,
    [hours.map((h) => h.workspace_id), hours.map((h) => h.type), hours.map((h) => new Date(h.hour).toISOString())],
  );
  const days = new Map<string, Span>();
  for (const { workspace_id, type, from, to } of runsOf(hours)) {
    const range = [workspace_id, type, new Date(from).toISOString(), new Date(to).toISOString()];
    const sketches = new Sketches();
    const groups: Array<{ hour: Date; touch: string; hashes: Buffer }> = await query(
      `SELECT d.hour, d.touch, ${HASHES} FROM (
         SELECT DISTINCT ${HOUR_OF('e')} AS hour, ${HASHED('e')} FROM events e
          WHERE e.workspace_id = $1 AND e.type = $2 AND e.occurred_at >= $3::timestamptz
            AND e.occurred_at < $4::timestamptz AND ${LIVE_AT('e', '$5', '$6')}) d
       GROUP BY 1, 2`,
      [...range, folded.upto, folded.expired],
    );
    for (const g of groups)
      sketches.add(workspace_id, type, new Date(g.hour), String(g.touch), g.hashes, [SKETCH_GRAINS.hour]);
    await query(
      `DELETE FROM events_rollup_people WHERE workspace_id = $1 AND type = $2 AND grain = ${SKETCH_GRAINS.hour} ` +
        `AND at >= $3 AND at < $4`,
      range,
    );
    await sketches.save(query);
    for (let at = from; at < to; at += HOUR) {
      const day = grainStart(new Date(at), SKETCH_GRAINS.day);
      days.set([workspace_id, type, day.getTime()].join('\u001f'), {
        workspace_id,
        type,
        grain: SKETCH_GRAINS.day,
        at: day,
      });
    }
  }
  const spans = new Map<string, Span>();
  for (const day of days.values()) {
    await unionOf(query, day, SKETCH_GRAINS.hour);
    for (const grain of [SKETCH_GRAINS.week, SKETCH_GRAINS.month]) {
      const at = grainStart(day.at, grain);
      spans.set([day.workspace_id, day.type, grain, at.getTime()].join('\u001f'), {
        workspace_id: day.workspace_id,
        type: day.type,
        grain,
        at,
      });
    }
  }
  for (const span of spans.values()) await unionOf(query, span, SKETCH_GRAINS.day);
  return hours.length;
}

interface Span {
  workspace_id: string;
  type: string;
  grain: number;
  at: Date;
}

/** A day's, week's or month's sketches made again as the union of the sketches of grain `of` inside it. */
async function unionOf(query: Query, span: Span, of: number): Promise<void> {
  const end = bucketEnd(span.at, intervalOf(span.grain));
  const parts: Array<{ keyed: boolean; touch: string; sketch: Buffer }> = await query(
    `SELECT keyed, touch, sketch FROM events_rollup_people WHERE workspace_id = $1 AND type = $2 AND grain = ` +
      `${of} AND at >= $3 AND at < $4`,
    [span.workspace_id, span.type, span.at.toISOString(), end.toISOString()],
  );
  const sketches = new Sketches();
  for (const p of parts)
    sketches.get(span.workspace_id, span.type, span.grain, span.at, p.keyed, String(p.touch)).mergeBytes(p.sketch);
  await query(`DELETE FROM events_rollup_people WHERE workspace_id = $1 AND type = $2 AND grain = $3 AND at = $4`, [
    span.workspace_id,
    span.type,
    span.grain,
    span.at.toISOString(),
  ]);
  await sketches.save(query);
}

/**
 * The rebuild: events_rollup_rebuild() (counts again, every hour listed), then folds until every listed
 * hour is sketched again. A fold that finds the lock taken is tried again.
 */
export async function rebuildRollups(transaction: InTransaction): Promise<number> {
  const [{ changed }] = await transaction((query) => query('SELECT events_rollup_rebuild() AS changed'));
  for (;;) {
    const folded = await transaction((query) => foldRollups(query, 64 * 24));
    if (folded === null) await new Promise((resolve) => setTimeout(resolve, 100));
    else if (folded.sketched === 0) return Number(changed);
  }
}

/** A transaction on a pg client (the CLI's and the bench's). */
export function clientTransaction(client: {
  query(sql: string, args?: unknown[]): Promise<{ rows: any[] }>;
}): InTransaction {
  return async (work) => {
    await client.query('BEGIN');
    try {
      const result = await work(async (sql, args) => (await client.query(sql, args)).rows);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
  };
}
