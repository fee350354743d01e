-- Built by WebhooksDataParticipant.erase (@app/webhooks), with jsonNamesAny (@app/platform).
-- Written by npm run sql:snapshot (test/sql-snapshot.spec.ts fails when the code builds it otherwise).
UPDATE deliveries d SET body = jsonb_build_object('id', d.id, 'type', d.type, 'redacted', true)::text,
      state = CASE WHEN d.state = 'pending' THEN 'failed' ELSE d.state END,
      next_attempt_at = CASE WHEN d.state = 'pending' THEN NULL ELSE d.next_attempt_at END
WHERE d.workspace_id = $1 AND d.body LIKE '{%' AND EXISTS (SELECT 1 FROM jsonb_path_query(d.body::jsonb, 'strict $.**') AS v WHERE jsonb_typeof(v) = 'string' AND v #>> '{}' = ANY($2::text[])) RETURNING d.id
