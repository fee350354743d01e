-- Built by OutboxRelayService.relayedBetween (@app/outbox), with HAPPENINGS_FROM and RELAY_MARK.
-- Written by npm run sql:snapshot (test/sql-snapshot.spec.ts fails when the code builds it otherwise).
WITH kept AS MATERIALIZED (SELECT o.* FROM outbox o
                    WHERE o.workspace_id = $1 AND o.id >= $6 AND o.created_at >= $2 AND o.created_at < $3
                      AND (o.xid, o.id) <= ((SELECT xid FROM outbox_relay WHERE name = 'main'), (SELECT id FROM outbox_relay WHERE name = 'main'))
                    ORDER BY o.id LIMIT 200)
     SELECT * FROM (SELECT o.workspace_id, o.id * 65536 + (h.n - 1) AS id, h.v ->> 'kind' AS kind,
     h.v ->> 'personId' AS person_id, h.v -> 'payload' AS payload, o.created_at, o.xid AS row_xid, o.id AS row_id
FROM kept o CROSS JOIN LATERAL jsonb_array_elements(o.happenings) WITH ORDINALITY AS h(v, n)) h WHERE h.id > $4 ORDER BY h.id LIMIT $5
