-- Built by OutboxRelayService.deleteRelayedBefore (@app/outbox), with deleteInBatches (@app/platform) and RELAY_MARK.
-- Written by npm run sql:snapshot (test/sql-snapshot.spec.ts fails when the code builds it otherwise).
DELETE FROM outbox WHERE (workspace_id, id) IN (SELECT workspace_id, id FROM outbox WHERE created_at < $2 AND (xid, id) <= ((SELECT xid FROM outbox_relay WHERE name = 'main'), (SELECT id FROM outbox_relay WHERE name = 'main')) LIMIT $1)
