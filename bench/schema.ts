// The benches' knowledge of Lifeline's tables, kept here so a schema change is one edit: whether the
// worker has relayed everything, and the prefill of a workspace at scale. Today's schema:
// libs/<lib>/src/migrations/* (people, identities, outbox).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Client } from 'pg';
import { RELAY_MARK } from '@app/outbox';

/** Outbox rows the worker has not relayed yet (0 once it has caught up). */
export async function pendingOutbox(db: Client): Promise<number> {
  const [row] = (await db.query(`SELECT count(*)::int AS n FROM outbox o WHERE (o.xid, o.id) > ${RELAY_MARK}`)).rows;
  return row.n;
}

/** Outgoing webhook deliveries not yet settled (sent and recorded, or given up). */
export async function pendingDeliveries(db: Client): Promise<number> {
  const [row] = (await db.query(`SELECT count(*)::int AS n FROM deliveries WHERE state = 'pending'`)).rows;
  return row.n;
}

/** Waits until `pending` (by default the unrelayed outbox) reaches 0, up to `timeoutMs`. */
export async function drained(db: Client, pending = pendingOutbox, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const left = await pending(db);
    if (left === 0) return;
    if (Date.now() > until) throw new Error(`the worker left ${left} rows of work after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Fills a workspace as a long-lived one looks: `people` people, each with an email identity, and
 * `outbox` happenings the worker relayed within the retention week (an `event` happening each, named
 * like the ingest's). Emails are `fill<n>@prefill.test`, apart from the bench's own people. Ends with
 * VACUUM ANALYZE, so the rounds neither set hint bits on the new rows nor plan with empty statistics.
 */
export async function prefill(
  db: Client,
  workspaceId: string,
  people: number,
  outbox: number,
  log: (line: string) => void,
): Promise<void> {
  await db.query(`SET synchronous_commit = off`);
  if (people > 0) {
    const started = Date.now();
    await db.query(
      `INSERT INTO people (workspace_id, id, email, stage, stage_changed_at, purchases, engaged_at, os, fields, first_touch, first_touch_at, created_at, updated_at)
       SELECT $1, 'per_fill' || lpad(i::text, 10, '0'), 'fill' || i || '@prefill.test',
              (ARRAY[NULL, 'account', 'purchaser'])[1 + i % 3], CASE WHEN i % 3 > 0 THEN now() - interval '3 days' END, (i % 3 = 2)::int, now() - interval '1 day',
              (ARRAY['mac', 'windows', 'ios', 'android'])[1 + i % 4], jsonb_build_object('plan', 'pro'),
              jsonb_build_object('path', '/pricing', 'medium', NULL, 'source', (ARRAY['google', 'direct', 'newsletter'])[1 + i % 3],
                'campaign', NULL, 'click_id', NULL, 'referrer', NULL),
              now() - interval '5 days', now() - interval '5 days', now() - interval '1 day'
         FROM generate_series(1, $2::int) AS i`,
      [workspaceId, people],
    );
    // A checkout before migration 1767100000000 (BENCH_BASE_ROOT) has no person_created_at on identities.
    const [{ copy }] = (
      await db.query(
        `SELECT count(*) > 0 AS copy FROM information_schema.columns WHERE table_name = 'identities' AND column_name = 'person_created_at'`,
      )
    ).rows;
    await db.query(
      `INSERT INTO identities (workspace_id, kind, value, person_id, created_at${copy ? ', person_created_at' : ''})
       SELECT $1, 'email', 'fill' || i || '@prefill.test', 'per_fill' || lpad(i::text, 10, '0'), now() - interval '5 days'${
         copy
           ? `, (SELECT p.created_at FROM people p WHERE p.workspace_id = $1 AND p.id = 'per_fill' || lpad(i::text, 10, '0'))`
           : ''
       }
         FROM generate_series(1, $2::int) AS i`,
      [workspaceId, people],
    );
    log(`prefill: ${people} people and identities in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  if (outbox > 0) {
    const started = Date.now();
    const chunk = 1_000_000;
    for (let from = 1; from <= outbox; from += chunk) {
      // One happening a row (as many rows as the old one-row-per-happening outbox kept), written by one
      // transaction that also moves the relay's mark past them: relayed, as a week of traffic leaves them,
      // and made over the last 6 days in the order they were written, as traffic makes them (the retention
      // sweep finds what to delete by the BRIN index on created_at; with times that cycled through the week
      // in each chunk, every sweep read all 50M rows, about 7 s a minute inside the measured rounds).
      await db.query(
        `WITH rows AS (
           INSERT INTO outbox (workspace_id, happenings, created_at)
           SELECT $1, jsonb_build_array(jsonb_build_object('kind', 'event', 'personId', 'per_fill' || lpad((1 + i % 1000000)::text, 10, '0'),
                    'payload', jsonb_build_object('at', t, 'data', jsonb_build_object('event', jsonb_build_object(
                      'event', 'pageview', 'id', 'evt_fill' || lpad(i::text, 10, '0'), 'occurred_at', t,
                      'properties', jsonb_build_object('n', i, 'plan', 'pro')))))),
                  t
             FROM generate_series($2::int, $3::int) AS i,
                  LATERAL (SELECT now() - interval '6 days' + i * (interval '6 days' / $4::int) AS t) AS at
           RETURNING xid, id)
         UPDATE outbox_relay SET xid = m.xid, id = m.id FROM (SELECT xid, id FROM rows ORDER BY xid DESC, id DESC LIMIT 1) m WHERE name = 'main'`,
        [workspaceId, from, Math.min(outbox, from + chunk - 1), outbox],
      );
    }
    log(`prefill: ${outbox} relayed outbox rows in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  if (people > 0 || outbox > 0) {
    const started = Date.now();
    await db.query(`VACUUM (ANALYZE) people, identities, outbox`);
    // The prefill's pages written out now, not by the checkpointer and the kernel during the measured rounds.
    await db.query(`CHECKPOINT`);
    const dirty = await kernelWriteback();
    log(
      `prefill: VACUUM ANALYZE, CHECKPOINT and the kernel's writeback (${dirty} MB dirty left) in ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
  }
}

/**
 * Waits for the kernel to write the prefill's dirty pages to disk (sync, then Dirty in /proc/meminfo
 * under 64 MB, at most 5 minutes), so the rounds do not share the disk and the CPU with that writeback.
 * Answers the MB still dirty.
 */
async function kernelWriteback(): Promise<number> {
  const dirtyMb = () => Number(/^Dirty:\s+(\d+)/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1] ?? 0) / 1024;
  execFileSync('sync');
  const until = Date.now() + 300_000;
  while (dirtyMb() > 64 && Date.now() < until) await new Promise((r) => setTimeout(r, 1000));
  return Math.round(dirtyMb());
}
