-- Built by MessagingDataParticipant.erase (@app/messaging).
-- Written by npm run sql:snapshot (test/sql-snapshot.spec.ts fails when the code builds it otherwise).
UPDATE broadcast_recipients SET person_id = 'erased_' || md5(random()::text || clock_timestamp()::text),
  message_id = NULL, provider_id = NULL, claimed_by = NULL, claimed_at = NULL, updated_at = now(),
  reason = CASE WHEN state = 'queued' THEN 'erased' ELSE reason END,
  state = CASE WHEN state = 'queued' THEN 'skipped' ELSE state END
WHERE workspace_id = $1 AND person_id = ANY($2::text[])
