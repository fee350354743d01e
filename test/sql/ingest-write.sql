-- Built by INGEST_WRITE_TOUCHES (@app/events: ingestWrite, TIMELINE_COLUMNS and TIMELINE_LEAN_RECORD), with
-- peopleWriteCtes and suppressionCheckCte (@app/people), outboxWriteCte (@app/outbox) and keyRecheckCte
-- (@app/workspaces).
-- The full shape, every part present: IngestRepository.write sends it when a post retouches rows written
-- before or names new touches, and otherwise INGEST_WRITE, the same without retouched and named_touches.
-- Rows, people and happenings travel in the jsonb document $1, so their number never changes the text.
-- Written by npm run sql:snapshot (test/sql-snapshot.spec.ts fails when the code builds it otherwise).
WITH
new_people AS (
  INSERT INTO people (workspace_id, id, name, email, stage, stage_changed_at, purchases, engaged_at, os, fields,
                      first_touch, first_touch_at, created_at, last_seen_at, revenue, updated_at)
  SELECT $2, x.*, x.created_at FROM jsonb_to_recordset($1::jsonb -> 'newPeople') AS x(id text, name text, email text, stage text, stage_changed_at timestamptz, purchases int,
  engaged_at timestamptz, os text, fields jsonb, first_touch jsonb, first_touch_at timestamptz, created_at timestamptz,
  last_seen_at timestamptz, revenue numeric)
  RETURNING 1),
changed_people AS (
  UPDATE people p SET name = x.name, email = x.email, stage = x.stage, stage_changed_at = x.stage_changed_at,
         purchases = x.purchases, engaged_at = x.engaged_at, os = x.os, fields = x.fields,
         first_touch = x.first_touch, first_touch_at = x.first_touch_at,
         created_at = least(p.created_at, x.first_seen), last_seen_at = greatest(p.last_seen_at, x.last_seen_at),
         revenue = x.revenue, updated_at = now()
    FROM jsonb_to_recordset($1::jsonb -> 'changedPeople') AS x(workspace_id text, id text, name text, email text, stage text, stage_changed_at timestamptz, purchases int,
  engaged_at timestamptz, os text, fields jsonb, first_touch jsonb, first_touch_at timestamptz, created_at timestamptz,
  last_seen_at timestamptz, revenue numeric, first_seen timestamptz)
   WHERE p.workspace_id = x.workspace_id AND p.id = x.id
  RETURNING 1),
redated_identities AS (
  UPDATE identities i SET person_created_at = x.first_seen
    FROM jsonb_to_recordset($1::jsonb -> 'changedPeople') AS x(id text, first_seen timestamptz)
   WHERE x.first_seen IS NOT NULL AND i.workspace_id = $2 AND i.person_id = x.id
     AND i.person_created_at > x.first_seen
  RETURNING 1),
new_identities AS (
  INSERT INTO identities (workspace_id, kind, value, person_id, person_created_at)
  SELECT $2, x.kind, x.value, x.person_id,
         coalesce(x.person_created_at, (SELECT p.created_at FROM people p WHERE p.workspace_id = $2
           AND p.id = x.person_id))
    FROM jsonb_to_recordset($1::jsonb -> 'identities') AS x(kind text, value text, person_id text,
      person_created_at timestamptz)
   ORDER BY x.kind, x.value
  RETURNING 1),
timeline AS (
  INSERT INTO events (workspace_id, id, occurred_at, person_id, type, value, properties, detail, source, expires_at, touch)
  SELECT $2, x.* FROM jsonb_to_recordset($1::jsonb -> 'rows') AS x(id text, occurred_at timestamptz, person_id text,
    type text, value numeric, properties jsonb, detail text, source jsonb, expires_at timestamptz, touch bigint)
  RETURNING 1),
retouched AS (
  UPDATE events e SET touch = x.touch FROM jsonb_to_recordset($1::jsonb -> 'retouch') AS x(person_id text, touch bigint)
   WHERE e.workspace_id = $2 AND e.person_id = x.person_id AND e.touch IS DISTINCT FROM x.touch
  RETURNING 1),
named_touches AS (
  INSERT INTO event_touches (workspace_id, touch, source, medium, campaign)
  SELECT $2, x.* FROM jsonb_to_recordset($1::jsonb -> 'touches') AS x(touch bigint, source text, medium text, campaign text)
  ON CONFLICT DO NOTHING
  RETURNING 1),
names AS (
  INSERT INTO event_names (workspace_id, name) SELECT $2, jsonb_array_elements_text($1::jsonb -> 'names')
  ON CONFLICT DO NOTHING
  RETURNING 1),
answers AS (
  UPDATE idempotency_keys k SET status = x.status, record_id = x.record_id
    FROM jsonb_to_recordset($1::jsonb -> 'answers') AS x(key text, status text, record_id text)
   WHERE k.workspace_id = $2 AND k.key = x.key
  RETURNING 1),
happenings AS (
  INSERT INTO outbox (workspace_id, happenings)
  SELECT $2, $1::jsonb -> 'happenings' WHERE jsonb_array_length($1::jsonb -> 'happenings') > 0
  RETURNING 1),
key_recheck AS (
  SELECT lifeline_key_refused(x.id) FROM jsonb_array_elements_text($1::jsonb -> 'keys') AS x(id)
    LEFT JOIN LATERAL (SELECT k.member_id FROM api_keys k WHERE k.workspace_id = $2 AND k.id = x.id
      AND k.revoked_at IS NULL OFFSET 0) k ON true
    LEFT JOIN LATERAL (SELECT true AS live FROM members m WHERE m.workspace_id = $2 AND m.id = k.member_id
      AND m.removed_at IS NULL OFFSET 0) m ON true
   WHERE m.live IS NULL),
suppression_check AS (
  SELECT lifeline_key_suppressed(x.hash) FROM jsonb_array_elements_text($1::jsonb -> 'suppressionHashes') AS x(hash)
    CROSS JOIN LATERAL (SELECT 1 FROM suppressions s WHERE s.workspace_id = $2 AND s.hash = x.hash OFFSET 0) s
  UNION ALL
  SELECT lifeline_key_suppressed('(the workspace lists erased keys)') FROM (
    SELECT 1 FROM suppressions s WHERE ($1::jsonb ->> 'suppressionsNone')::boolean AND s.workspace_id = $2
      LIMIT 1) s),
segments_check AS (
  SELECT lifeline_segments_changed()
   WHERE (SELECT revision FROM segment_revisions WHERE workspace_id = $2) IS DISTINCT FROM
         ($1::jsonb ->> 'segmentsRevision')::bigint)
SELECT (SELECT count(*) FROM timeline) AS rows, (SELECT count(*) FROM key_recheck) AS refused_keys,
       (SELECT count(*) FROM suppression_check) AS suppressed_keys, (SELECT count(*) FROM segments_check) AS segments
