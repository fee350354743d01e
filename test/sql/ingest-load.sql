-- Built by INGEST_LOAD (@app/events), with peopleKeysNameCtes and PERSON_COLUMNS (@app/people).
-- Written by npm run sql:snapshot (test/sql-snapshot.spec.ts fails when the code builds it otherwise).
WITH probes_only AS MATERIALIZED (
  SELECT set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true),
         set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true)),
found AS MATERIALIZED (
  SELECT k.kind, k.value, i.person_id
    FROM unnest($2::text[], $3::text[]) AS k(kind, value)
    CROSS JOIN LATERAL (SELECT i.person_id FROM identities i
                         WHERE i.workspace_id = $1 AND i.kind = k.kind AND i.value = k.value OFFSET 0) i),
locked AS MATERIALIZED (
  SELECT p.* FROM (SELECT DISTINCT person_id FROM found ORDER BY person_id) d
    CROSS JOIN LATERAL (SELECT workspace_id, id, name, email, stage, stage_changed_at, purchases, engaged_at, os, fields, first_touch, first_touch_at, created_at, last_seen_at, revenue, merged_into FROM people p WHERE p.workspace_id = $1
      AND p.id = d.person_id FOR UPDATE) p)
SELECT f.kind AS identity_kind, f.value AS identity_value, l.* FROM found f JOIN locked l ON l.id = f.person_id
 WHERE (SELECT count(*) FROM probes_only) = 1
 ORDER BY l.id
