-- Built by refreshMembers (@app/events), with peopleRowsSql and subscribedNowSql (@app/people) and outboxInsertCte
-- (@app/outbox).
-- Written by npm run sql:snapshot (test/sql-snapshot.spec.ts fails when the code builds it otherwise).
WITH pairs AS (SELECT * FROM unnest($5::text[], $2::text[], $7::boolean[]) AS x(segment_id, person_id, decided)),
live AS MATERIALIZED (SELECT id FROM segments WHERE workspace_id = $1 AND id = ANY($5::text[]) FOR KEY SHARE),
wanted AS (
  SELECT x.segment_id, x.person_id FROM pairs x
   CROSS JOIN LATERAL (SELECT * FROM people WHERE workspace_id = $1::text AND id = ANY(ARRAY[x.person_id]) OFFSET 0) p
   WHERE x.segment_id IN (SELECT id FROM live) AND p.merged_into IS NULL AND coalesce(x.decided, CASE x.segment_id
    WHEN $8::text THEN (coalesce((p.stage = ANY($9::text[])), false) AND coalesce(EXISTS (SELECT 1 FROM subscriptions s JOIN lists l ON l.workspace_id = s.workspace_id AND l.id = s.list_id
   WHERE s.workspace_id = $1::text AND s.person_id = p.id AND l.address = $10::text
     AND s.status = 'subscribed'), false) AND coalesce((p.engaged_at IS NOT NULL), false))
    WHEN $11::text THEN (coalesce(((SELECT count(*) FROM (SELECT 1 FROM events e WHERE e.workspace_id = $1::text AND e.person_id = p.id
    AND e.type = $13::text AND e.occurred_at > $3::timestamptz - $12::int * interval '24 hours' LIMIT 3) x) >= 3), false) OR coalesce((NOT coalesce(((SELECT count(*) FROM (SELECT 1 FROM events e WHERE e.workspace_id = $1::text AND e.person_id = p.id
    AND e.type = $14::text LIMIT 1) x) = 0), false)), false) OR coalesce((CASE WHEN jsonb_typeof((p.fields -> $15::text)) = 'number' THEN ((p.fields -> $15::text) #>> '{}')::numeric > $16::numeric ELSE false END), false) OR coalesce((p.first_touch ->> 'source' IS NOT DISTINCT FROM $17::text), false))
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
  SELECT $1, segment_id, (pg_backend_pid() % 64)::smallint, sum(d) FROM moves
   GROUP BY segment_id ORDER BY segment_id
  ON CONFLICT (workspace_id, segment_id, slot) DO UPDATE SET members = segment_counts.members + excluded.members
  RETURNING 1),
announced AS (
  INSERT INTO outbox (workspace_id, happenings) SELECT $1, jsonb_agg(jsonb_build_object('kind', mv.kind, 'personId', mv.person_id, 'payload', jsonb_build_object(
      'at', $4::text, 'data', jsonb_build_object(mv.kind, jsonb_build_object(
        'segment', jsonb_build_object('id', s.id, 'name', s.name))))) ORDER BY mv.kind DESC, s.id, mv.person_id)
     FROM moves mv JOIN segments s ON s.workspace_id = $1 AND s.id = mv.segment_id
    WHERE $6::boolean OR NOT s.filling
   HAVING count(*) > 0
  RETURNING 1)
SELECT (SELECT count(*) FROM came)::int AS entered, (SELECT count(*) FROM gone)::int AS left,
       (SELECT count(*) FROM counted)::int + (SELECT count(*) FROM announced)::int AS written
