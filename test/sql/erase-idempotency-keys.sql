-- Built by EventsDataParticipant.erase (@app/events).
-- Written by npm run sql:snapshot (test/sql-snapshot.spec.ts fails when the code builds it otherwise).
DELETE FROM idempotency_keys WHERE workspace_id = $1 AND record_id = ANY($2::text[])
