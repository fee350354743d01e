-- Built by repairAfterRestore (@app/outbox) as a relay pass that found nothing calls it.
-- Written by npm run sql:snapshot (test/sql-snapshot.spec.ts fails when the code builds it otherwise).
WITH relayed AS (UPDATE outbox o SET xid = '1' WHERE (o.xid, o.id) <= ($1::xid8, $2::bigint) AND NOT (o.xid::text::bigint % 4294967296) = o.xmin::text::bigint
  RETURNING o.id),
     due AS (UPDATE outbox o SET xid = '2' WHERE (o.xid, o.id) > ($1::xid8, $2::bigint) AND NOT (o.xid::text::bigint % 4294967296) = o.xmin::text::bigint
       RETURNING o.id),
     mark AS (UPDATE outbox_relay SET xid = '1', id = greatest($2::bigint, (SELECT max(id) FROM relayed))
       WHERE name = 'main')
SELECT (SELECT count(*) FROM relayed)::int AS relayed, (SELECT count(*) FROM due)::int AS due,
       (SELECT count(*) FROM outbox o WHERE (o.xid, o.id) <= ($1::xid8, $2::bigint)
         AND (o.xid::text::bigint % 4294967296) = o.xmin::text::bigint)::int AS written_here
