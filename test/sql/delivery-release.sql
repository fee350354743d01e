-- Built by DeliveryClaimsRepository.release (@app/webhooks).
-- Written by npm run sql:snapshot (test/sql-snapshot.spec.ts fails when the code builds it otherwise).
UPDATE deliveries
  SET claimed_until = NULL, attempts = attempts - 1,
      next_attempt_at = $5::timestamptz + $4::int * interval '1 millisecond'
WHERE workspace_id = $1 AND id = $2 AND attempts = $3 AND state = 'pending' AND claimed_until IS NOT NULL
