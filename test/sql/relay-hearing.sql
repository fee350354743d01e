-- Built by hearingOf (@app/outbox) over the hearing of WebhookRelayService and AutomationRelayService.
-- The handlers in the order the worker registers them: webhooks, then automations.
-- Written by npm run sql:snapshot (test/sql-snapshot.spec.ts fails when the code builds it otherwise).
SELECT 0 AS handler, h.workspace_id, to_jsonb(h) AS item FROM (SELECT e.workspace_id, e.id, e.triggers, e.disabled_at, e.url, e.secret_sealed,
    e.rate_limit_per_second, CASE WHEN e.previous_secret_until > now() THEN e.previous_secret_sealed END AS previous_secret_sealed
                        FROM webhook_endpoints e WHERE e.workspace_id = ANY($1::text[])) h
UNION ALL
SELECT 1 AS handler, h.workspace_id, to_jsonb(h) AS item FROM (SELECT workspace_id, id, trigger, steps FROM automations
    WHERE workspace_id = ANY($1::text[]) AND status = 'running' AND trigger ->> 'kind' <> 'webhook') h
