-- Built by EventsDataParticipant.erase (@app/events).
-- Written by npm run sql:snapshot (test/sql-snapshot.spec.ts fails when the code builds it otherwise).
WITH gone AS (
  DELETE FROM segment_members WHERE workspace_id = $1 AND person_id = ANY($2::text[]) RETURNING segment_id),
counted AS (
  INSERT INTO segment_counts (workspace_id, segment_id, slot, members)
  SELECT $1, segment_id, (pg_backend_pid() % 64)::smallint, -count(*) FROM gone GROUP BY segment_id
   ORDER BY segment_id
  ON CONFLICT (workspace_id, segment_id, slot) DO UPDATE SET members = segment_counts.members + excluded.members
  RETURNING 1)
SELECT (SELECT count(*) FROM gone)::int AS dropped, (SELECT count(*) FROM counted) AS counted
