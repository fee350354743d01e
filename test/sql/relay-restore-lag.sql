-- Built by repairAfterRestore (@app/outbox) as a relay pass that found nothing calls it.
-- Written by npm run sql:snapshot (test/sql-snapshot.spec.ts fails when the code builds it otherwise).
SELECT r.xid::text AS mark_xid, r.id::text AS mark_id,
     (SELECT o.xid FROM outbox o ORDER BY o.xid DESC, o.id DESC LIMIT 1)::text AS top_xid,
     pg_snapshot_xmax(pg_current_snapshot())::text AS next_xid
FROM outbox_relay r WHERE r.name = 'main' FOR UPDATE SKIP LOCKED
