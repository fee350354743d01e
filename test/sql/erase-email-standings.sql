-- Built by MessagingDataParticipant.erase (@app/messaging).
-- Written by npm run sql:snapshot (test/sql-snapshot.spec.ts fails when the code builds it otherwise).
DELETE FROM email_standings WHERE workspace_id = $1 AND person_id = ANY($2::text[])
