-- Built by EventsDataParticipant.erase (@app/events).
-- Written by npm run sql:snapshot (test/sql-snapshot.spec.ts fails when the code builds it otherwise).
UPDATE event_touches SET source = CASE WHEN (lower(source) = ANY($2::text[]) OR lower(source) LIKE ANY($3::text[])) THEN $4 ELSE source END, medium = CASE WHEN (lower(medium) = ANY($2::text[]) OR lower(medium) LIKE ANY($3::text[])) THEN $4 ELSE medium END, campaign = CASE WHEN (lower(campaign) = ANY($2::text[]) OR lower(campaign) LIKE ANY($3::text[])) THEN $4 ELSE campaign END
WHERE workspace_id = $1 AND ((lower(source) = ANY($2::text[]) OR lower(source) LIKE ANY($3::text[])) OR (lower(medium) = ANY($2::text[]) OR lower(medium) LIKE ANY($3::text[])) OR (lower(campaign) = ANY($2::text[]) OR lower(campaign) LIKE ANY($3::text[])))
