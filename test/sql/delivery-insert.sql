-- Built by DeliveriesRepository.insert (@app/webhooks).
-- A row marked claimed is stored with its first attempt claimed: one statement for every row of a pass.
-- Written by npm run sql:snapshot (test/sql-snapshot.spec.ts fails when the code builds it otherwise).
INSERT INTO deliveries (workspace_id, id, endpoint_id, outbox_id, type, body, state, next_attempt_at, attempts,
 claimed_until)
SELECT w, i, e, o, t, b || coalesce(tail, ''), coalesce(s, 'pending'), CASE WHEN s = 'failed' THEN NULL
  ELSE $3::timestamptz + coalesce(ms, 0) * interval '1 millisecond' END,
       CASE WHEN c THEN 1 ELSE 0 END, CASE WHEN c
         THEN $3::timestamptz + interval '30 seconds' END
  FROM json_to_recordset($1::json) AS u(w text, i text, e text, o bigint, t text, b text, h int, s text, ms int,
    c bool)
  LEFT JOIN (SELECT n::int - 1 AS n, tail
    FROM json_array_elements_text($2::json) WITH ORDINALITY AS x(tail, n)) x ON x.n = u.h
ON CONFLICT (workspace_id, outbox_id, endpoint_id) DO NOTHING
RETURNING workspace_id, id, state, claimed_until IS NOT NULL AS claimed
