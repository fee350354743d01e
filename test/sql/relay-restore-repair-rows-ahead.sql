-- Built by repairAfterRestore (@app/outbox) as a relay pass that found nothing calls it.
-- Written by npm run sql:snapshot (test/sql-snapshot.spec.ts fails when the code builds it otherwise).
WITH due AS (UPDATE outbox o SET xid = pg_current_xact_id() WHERE o.xid >= $1::xid8 AND NOT (o.xid::text::bigint % 4294967296) = o.xmin::text::bigint
  RETURNING o.id)
SELECT 0 AS relayed, (SELECT count(*) FROM due)::int AS due, 0 AS written_here
