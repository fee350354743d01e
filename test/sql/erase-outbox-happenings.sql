-- Built by OutboxDataParticipant.erase (@app/outbox), with jsonNamesAny (@app/platform).
-- Written by npm run sql:snapshot (test/sql-snapshot.spec.ts fails when the code builds it otherwise).
WITH hit AS (
  SELECT o.id, count(*) AS n FROM outbox o CROSS JOIN LATERAL jsonb_array_elements(o.happenings) AS h(v)
   WHERE o.workspace_id = $1 AND (h.v ->> 'personId' = ANY($2::text[]) OR EXISTS (SELECT 1 FROM jsonb_path_query(h.v -> 'payload', 'strict $.**') AS v WHERE jsonb_typeof(v) = 'string' AND v #>> '{}' = ANY($3::text[]))) GROUP BY o.id),
tombstoned AS (
  UPDATE outbox o SET happenings = (
         SELECT jsonb_agg(CASE WHEN (h.v ->> 'personId' = ANY($2::text[]) OR EXISTS (SELECT 1 FROM jsonb_path_query(h.v -> 'payload', 'strict $.**') AS v WHERE jsonb_typeof(v) = 'string' AND v #>> '{}' = ANY($3::text[]))) THEN $4::jsonb ELSE h.v END ORDER BY h.n)
           FROM jsonb_array_elements(o.happenings) WITH ORDINALITY AS h(v, n))
    FROM hit WHERE o.workspace_id = $1 AND o.id = hit.id
  RETURNING hit.n)
SELECT coalesce(sum(n), 0)::int AS n FROM tombstoned
