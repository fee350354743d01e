-- Built by DeliveryClaimsRepository.releaseFirst (@app/webhooks).
-- Written by npm run sql:snapshot (test/sql-snapshot.spec.ts fails when the code builds it otherwise).
UPDATE deliveries d SET claimed_until = NULL, attempts = 0
  FROM unnest($1::text[], $2::text[]) AS k(w, i)
 WHERE d.workspace_id = k.w AND d.id = k.i AND d.attempts = 1 AND coalesce(d.state, '') = 'pending'
   AND d.claimed_until IS NOT NULL
RETURNING d.workspace_id, d.id
