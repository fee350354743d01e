-- Built by RELAY_NEXT (@app/outbox).
-- Written by npm run sql:snapshot (test/sql-snapshot.spec.ts fails when the code builds it otherwise).
WITH mark AS MATERIALIZED (SELECT xid, id FROM outbox_relay WHERE name = 'main' FOR UPDATE SKIP LOCKED),
bound AS MATERIALIZED (
  SELECT coalesce(
    (SELECT min(x) FROM pg_snapshot_xip(pg_current_snapshot()) AS x
      WHERE NOT EXISTS (SELECT 1 FROM pg_stat_get_activity(NULL) a
                         WHERE a.datid IS DISTINCT FROM (SELECT oid FROM pg_database WHERE datname = current_database())
                           AND a.backend_xid = (x::text::bigint % 4294967296)::text::xid)),
    pg_snapshot_xmax(pg_current_snapshot())) AS upto),
next AS (SELECT o.* FROM outbox o
          WHERE (o.xid, o.id) > ((SELECT xid FROM mark), (SELECT id FROM mark))
            AND o.xid < (SELECT upto FROM bound)
          ORDER BY o.xid, o.id LIMIT 200)
SELECT workspace_id, id, xid, (SELECT xid FROM mark) AS mark_xid, (SELECT id FROM mark) AS mark_id FROM next
  ORDER BY xid, id
