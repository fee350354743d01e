-- Built by WebhooksDataParticipant.erase (@app/webhooks), with jsonNamesAny (@app/platform).
-- Written by npm run sql:snapshot (test/sql-snapshot.spec.ts fails when the code builds it otherwise).
UPDATE delivery_attempts SET body_excerpt = NULL, error = NULL
WHERE workspace_id = $1 AND delivery_id = ANY($2::text[]) AND (body_excerpt IS NOT NULL OR error IS NOT NULL)
