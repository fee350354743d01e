-- Built by DeliveryClaimsRepository.claim (@app/webhooks).
-- One statement for a batch of claims (GroupCommit).
-- Written by npm run sql:snapshot (test/sql-snapshot.spec.ts fails when the code builds it otherwise).
WITH due AS (
  SELECT d.workspace_id, d.id, d.claimed_until AS previous_claim
    FROM deliveries d JOIN unnest($1::text[], $2::text[]) AS k(w, i) ON d.workspace_id = k.w AND d.id = k.i
   WHERE coalesce(d.state, '') = 'pending' AND d.next_attempt_at <= $4::timestamptz AND (d.claimed_until IS NULL
     OR d.claimed_until < $4::timestamptz)
   FOR UPDATE OF d SKIP LOCKED),
claimed AS (
  UPDATE deliveries d
     SET claimed_until = $4::timestamptz + interval '30 seconds', attempts = d.attempts + 1
    FROM due, webhook_endpoints e
   WHERE d.workspace_id = due.workspace_id AND d.id = due.id AND e.workspace_id = d.workspace_id
     AND e.id = d.endpoint_id
     AND e.disabled_at IS NULL
  RETURNING d.workspace_id, d.id, d.endpoint_id, d.attempts, d.type, d.body, e.url, e.secret_sealed,
    CASE WHEN e.previous_secret_until > now() THEN e.previous_secret_sealed END AS previous_secret_sealed,
    e.rate_limit_per_second, due.previous_claim IS NOT NULL AS took_over),
held AS (
  UPDATE deliveries d SET state = 'failed', next_attempt_at = NULL, claimed_until = NULL
    FROM due, webhook_endpoints e
   WHERE d.workspace_id = due.workspace_id AND d.id = due.id AND e.workspace_id = d.workspace_id
     AND e.id = d.endpoint_id
     AND e.disabled_at IS NOT NULL),
lost AS (
  INSERT INTO delivery_attempts (workspace_id, delivery_id, number, error)
  SELECT workspace_id, id, attempts - 1, $3 FROM claimed WHERE took_over
  ON CONFLICT DO NOTHING)
SELECT * FROM claimed
