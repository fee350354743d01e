-- Built by DeliveryClaimsRepository.settle (@app/webhooks).
-- One statement for a batch of settlements (GroupCommit).
-- Written by npm run sql:snapshot (test/sql-snapshot.spec.ts fails when the code builds it otherwise).
WITH u AS (
  SELECT * FROM json_to_recordset($1::json)
    AS u(w text, i text, n int, started_at timestamptz, duration_ms int, status_code int, body_excerpt text,
      error text, ok bool, next_ms bigint)),
recorded AS (
  INSERT INTO delivery_attempts (workspace_id, delivery_id, number, started_at, duration_ms, status_code,
    body_excerpt, error)
  SELECT w, i, n, started_at, duration_ms, status_code, body_excerpt, error FROM u
  ON CONFLICT (workspace_id, delivery_id, number) DO UPDATE
    SET started_at = EXCLUDED.started_at, duration_ms = EXCLUDED.duration_ms,
    status_code = EXCLUDED.status_code, body_excerpt = EXCLUDED.body_excerpt, error = EXCLUDED.error),
settled AS (
  UPDATE deliveries d SET claimed_until = NULL,
    state = CASE WHEN u.ok THEN 'succeeded'
                 WHEN d.next_attempt_at > d.claimed_until - interval '30 seconds' THEN 'pending'
                 WHEN u.next_ms IS NULL THEN 'failed' ELSE 'pending' END,
    next_attempt_at = CASE WHEN u.ok THEN NULL
                 WHEN d.next_attempt_at > d.claimed_until - interval '30 seconds' THEN d.next_attempt_at
                 WHEN u.next_ms IS NULL THEN NULL ELSE $2::timestamptz + u.next_ms * interval '1 millisecond' END
    FROM u
   WHERE d.workspace_id = u.w AND d.id = u.i AND d.attempts = u.n AND coalesce(d.state, '') = 'pending'
     AND d.claimed_until IS NOT NULL
  RETURNING d.workspace_id, d.id, d.state, d.next_attempt_at)
SELECT workspace_id, id, state, GREATEST(0, floor(EXTRACT(EPOCH
  FROM (next_attempt_at - $2::timestamptz)) * 1000))::int AS due_in_ms FROM settled
