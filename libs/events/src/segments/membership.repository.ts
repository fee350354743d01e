// docs/graphql.md#segments: the SQL of live membership. One statement recomputes some people's memberships of
// some segments from the definitions compiled here: it adds the rows of those who now qualify, removes those
// who no longer do, moves the counts by the difference and writes a segment_entered or segment_left happening
// per move, so a move and what it tells other systems commit together.
import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { isoText, preparedQuery } from '@app/platform';
import { outboxInsertCte } from '@app/outbox';
import { lockPeopleSql, peopleRowsSql } from '@app/people';
import { compileCondition, SqlParams } from './domain/compile';
import { parseDefinition, type SegmentCondition } from './domain/definition';
import { inputsOf, type SegmentInputs } from './domain/inputs';

/** A segment as membership needs it. */
export interface LiveSegment {
  id: string;
  name: string;
  filling: boolean;
  condition: SegmentCondition;
  /** What the condition reads of a person: a write that changed none of it moves no one (mayMove). */
  inputs: SegmentInputs;
}

/**
 * Which segment to recompute for which person, the arrays side by side; `decided` true for a pair answered already
 * (a person the post made, evaluated in memory), null for one the statement evaluates.
 */
export interface MemberPairs {
  segmentIds: string[];
  personIds: string[];
  decided: Array<true | null>;
}

/** A workspace's segments as of a revision (null: it never had one). */
export interface SegmentPlan {
  revision: string | null;
  segments: LiveSegment[];
}

export interface Moves {
  entered: number;
  left: number;
}

// $1 workspace, $2, $5 and $7 the pairs' people, segments and answers, $3 now, $4 the happenings' time as text, $6
// announce while filling; the definitions' values follow.
const FIXED_PARAMS = 7;

/** Count slots: one per connection (by backend pid), so concurrent writers add to different rows. */
const COUNT_SLOTS = 64;

function refreshSql(segments: LiveSegment[], params: SqlParams): string {
  const scope = { workspace: '$1::text', now: '$3::timestamptz', params };
  // CASE evaluates only the branch of the pair's segment.
  const branches = segments.map((s) => `WHEN ${params.add(s.id, 'text')} THEN ${compileCondition(s.condition, scope)}`);
  const happening = `jsonb_build_object('kind', mv.kind, 'personId', mv.person_id, 'payload', jsonb_build_object(
      'at', $4::text, 'data', jsonb_build_object(mv.kind, jsonb_build_object(
        'segment', jsonb_build_object('id', s.id, 'name', s.name)))))`;
  return `
WITH pairs AS (SELECT * FROM unnest($5::text[], $2::text[], $7::boolean[]) AS x(segment_id, person_id, decided)),
live AS MATERIALIZED (SELECT id FROM segments WHERE workspace_id = $1 AND id = ANY($5::text[]) FOR KEY SHARE),
wanted AS (
  SELECT x.segment_id, x.person_id FROM pairs x
   CROSS JOIN LATERAL (${peopleRowsSql('$1::text', 'ARRAY[x.person_id]')} OFFSET 0) p
   WHERE x.segment_id IN (SELECT id FROM live) AND p.merged_into IS NULL AND coalesce(x.decided, CASE x.segment_id
    ${branches.join('\n    ')}
    ELSE false END)),
came AS (
  INSERT INTO segment_members (workspace_id, segment_id, person_id, entered_at)
  SELECT $1, w.segment_id, w.person_id, $3 FROM wanted w
   WHERE NOT EXISTS (SELECT 1 FROM segment_members m
                      WHERE m.workspace_id = $1 AND m.segment_id = w.segment_id AND m.person_id = w.person_id)
   ORDER BY w.segment_id, w.person_id
  ON CONFLICT DO NOTHING
  RETURNING segment_id, person_id),
gone AS (
  DELETE FROM segment_members m USING pairs x
   WHERE m.workspace_id = $1 AND m.segment_id = x.segment_id AND m.person_id = x.person_id
     AND NOT EXISTS (SELECT 1 FROM wanted w WHERE w.segment_id = m.segment_id AND w.person_id = m.person_id)
  RETURNING m.segment_id, m.person_id),
moves AS (
  SELECT segment_id, person_id, 'segment_entered' AS kind, 1 AS d FROM came
  UNION ALL SELECT segment_id, person_id, 'segment_left', -1 FROM gone),
counted AS (
  INSERT INTO segment_counts (workspace_id, segment_id, slot, members)
  SELECT $1, segment_id, (pg_backend_pid() % ${COUNT_SLOTS})::smallint, sum(d) FROM moves
   GROUP BY segment_id ORDER BY segment_id
  ON CONFLICT (workspace_id, segment_id, slot) DO UPDATE SET members = segment_counts.members + excluded.members
  RETURNING 1),
${outboxInsertCte(
  'announced',
  `SELECT $1, jsonb_agg(${happening} ORDER BY mv.kind DESC, s.id, mv.person_id)
     FROM moves mv JOIN segments s ON s.workspace_id = $1 AND s.id = mv.segment_id
    WHERE $6::boolean OR NOT s.filling
   HAVING count(*) > 0`,
)}
SELECT (SELECT count(*) FROM came)::int AS entered, (SELECT count(*) FROM gone)::int AS left,
       (SELECT count(*) FROM counted)::int + (SELECT count(*) FROM announced)::int AS written`;
}

/** A statement's name for its text: the same text is prepared once per connection. */
const statementName = (text: string) => `segment_refresh_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;

interface Compiled {
  name: string;
  text: string;
  values: unknown[];
}
/** The statement of a plan's segments, made once per plan read (the ingest keeps its plan). */
const compiledOf = new WeakMap<LiveSegment[], Compiled>();

function compiled(segments: LiveSegment[]): Compiled {
  let statement = compiledOf.get(segments);
  if (!statement) {
    const params = new SqlParams(FIXED_PARAMS);
    const text = refreshSql(segments, params);
    statement = { name: statementName(text), text, values: params.values };
    compiledOf.set(segments, statement);
  }
  return statement;
}

/**
 * The planner set to key probes for the rest of the transaction (as the ingest load sets it), and planning the
 * membership statement for this call's own pairs (a custom plan): a refresh outside a post (a fill's chunk, a sweep,
 * one person's unsubscribe) runs on any pooled connection, whose prepared statement may have been planned when
 * segment_members was empty. A plan kept from then took 5 to 10 s a fill's chunk of 2,000 people at a million
 * (550 people a second); planned afresh, the same chunk took 30 ms. Planning costs a few milliseconds a call.
 */
const PROBES_ONLY = `SELECT set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true),
  set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true),
  set_config('plan_cache_mode', 'force_custom_plan', true)`;

/**
 * Reads a workspace's segments and revision inside `m` (a transaction's manager or the data source's); `probes`: and
 * sets the transaction's planner to key probes (PROBES_ONLY) for the membership statement after it.
 */
export async function readPlan(
  m: Pick<EntityManager, 'query'>,
  workspaceId: string,
  probes = false,
): Promise<SegmentPlan> {
  const rows: Array<{ id: string; name: string; filling: boolean; definition: unknown; revision: string | null }> =
    await m.query(
      `WITH probes AS MATERIALIZED (${probes ? PROBES_ONLY : 'SELECT 1'})
       SELECT r.revision::text AS revision, s.id, s.name, s.filling, s.definition
         FROM (SELECT $1::text AS workspace_id) w
         LEFT JOIN segment_revisions r ON r.workspace_id = w.workspace_id
         LEFT JOIN segments s ON s.workspace_id = w.workspace_id
        WHERE (SELECT count(*) FROM probes) = 1
        ORDER BY s.id`,
      [workspaceId],
    );
  const segments: LiveSegment[] = [];
  for (const row of rows) {
    if (row.id === null) continue;
    const condition = parseDefinition(row.definition);
    // A stored definition was checked when it was written; one this version cannot read matches no one.
    if (!(condition instanceof Error))
      segments.push({ id: row.id, name: row.name, filling: row.filling, condition, inputs: inputsOf(condition) });
  }
  return { revision: rows[0]?.revision ?? null, segments };
}

/** Locks these people's rows for the rest of the transaction (the order every writer locks them in). */
export async function lockPeople(m: EntityManager, workspaceId: string, personIds: string[]): Promise<void> {
  await m.query(lockPeopleSql('$1', '$2::text[]'), [workspaceId, personIds]);
}

/** Recomputes these pairs' memberships (each a segment of `segments` and a person), in `m`'s transaction. */
export async function refreshMembers(
  m: EntityManager,
  workspaceId: string,
  segments: LiveSegment[],
  pairs: MemberPairs,
  at: Date,
  announce: boolean,
): Promise<Moves & { written: number }> {
  if (segments.length === 0 || pairs.personIds.length === 0) return { entered: 0, left: 0, written: 0 };
  const { name, text, values } = compiled(segments);
  const fixed = [workspaceId, pairs.personIds, at, isoText(at), pairs.segmentIds, announce, pairs.decided];
  const [row] = await preparedQuery<Moves & { written: number }>(m, name, text, [...fixed, ...values]);
  return row;
}

/**
 * Takes the absorbed people's memberships away, counts with them, and tells no one: a merge's survivor is
 * recomputed by the write that merged (docs/graphql.md#segments).
 */
export async function dropMembers(m: EntityManager, workspaceId: string, personIds: string[]): Promise<number> {
  const [row]: Array<{ dropped: number }> = await m.query(
    `WITH gone AS (
       DELETE FROM segment_members WHERE workspace_id = $1 AND person_id = ANY($2::text[]) RETURNING segment_id),
     counted AS (
       INSERT INTO segment_counts (workspace_id, segment_id, slot, members)
       SELECT $1, segment_id, (pg_backend_pid() % ${COUNT_SLOTS})::smallint, -count(*) FROM gone GROUP BY segment_id
        ORDER BY segment_id
       ON CONFLICT (workspace_id, segment_id, slot) DO UPDATE SET members = segment_counts.members + excluded.members
       RETURNING 1)
     SELECT (SELECT count(*) FROM gone)::int AS dropped, (SELECT count(*) FROM counted) AS counted`,
    [workspaceId, personIds],
  );
  return row?.dropped ?? 0;
}

/**
 * The ingest write's check (a CTE `segments_check` of the write's document `doc`): the statement fails with LL409
 * when the workspace's segment revision is no longer the one the post compiled (doc's segmentsRevision).
 */
export function segmentsCheckCte(doc: string, workspace: string): string {
  return `segments_check AS (
  SELECT lifeline_segments_changed()
   WHERE (SELECT revision FROM segment_revisions WHERE workspace_id = ${workspace}) IS DISTINCT FROM
         (${doc} ->> 'segmentsRevision')::bigint)`;
}

/** The failure of segmentsCheckCte. */
export function isSegmentsChanged(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'LL409';
}
