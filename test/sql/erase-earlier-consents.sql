-- Built by PeopleDataParticipant.erase (@app/people).
-- Written by npm run sql:snapshot (test/sql-snapshot.spec.ts fails when the code builds it otherwise).
DELETE FROM earlier_consents WHERE workspace_id = $1 AND person_id = ANY($2::text[])
