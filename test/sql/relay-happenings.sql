-- Built by RELAY_HAPPENINGS (@app/outbox), with HAPPENINGS_FROM.
-- Written by npm run sql:snapshot (test/sql-snapshot.spec.ts fails when the code builds it otherwise).
WITH next AS (SELECT o.* FROM outbox o
               WHERE (o.xid, o.id) > ($1::xid8, $2::bigint) AND (o.xid, o.id) <= ($3::xid8, $4::bigint)
                 AND o.workspace_id = ANY($5::text[]))
SELECT * FROM (SELECT o.workspace_id, o.id * 65536 + (h.n - 1) AS id, h.v ->> 'kind' AS kind,
       h.v ->> 'personId' AS person_id, h.v -> 'payload' AS payload, o.created_at, o.xid AS row_xid, o.id AS row_id
  FROM next o CROSS JOIN LATERAL jsonb_array_elements(o.happenings) WITH ORDINALITY AS h(v, n)) h ORDER BY h.row_xid, h.id
