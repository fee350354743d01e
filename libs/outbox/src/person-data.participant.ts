// The outbox's part of an erasure: every happening that names the person (by record id, or
// an email, id or name anywhere in its payload), relayed or not, becomes a tombstone in its place. A
// happening not yet relayed then reaches no webhook or automation; one relayed keeps no copy. In place,
// not removed, so the ids of the row's other happenings (row id × 65,536 + place) never change.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type ErasedCounts, jsonNamesAny, type PersonDataParticipant, type PersonErasure } from '@app/platform';

/** What an erased happening becomes: a kind no handler hears. */
const ERASED_HAPPENING = { kind: 'erased', personId: null, payload: {} };

@Injectable()
export class OutboxDataParticipant implements PersonDataParticipant {
  readonly name = 'outbox';
  readonly tables = ['outbox'] as const;

  /**
   * Holds the relay's mark until the erasure commits: a relay pass that started first is waited for (and
   * the deliveries and runs it made are then erased too); one that starts meanwhile skips its pass (its
   * mark is taken with SKIP LOCKED), so no pass copies the person from rows read before the erasure.
   */
  async beforeErase(m: EntityManager): Promise<void> {
    await m.query(`SELECT 1 FROM outbox_relay WHERE name = 'main' FOR UPDATE`);
  }

  async erase(m: EntityManager, { workspaceId, personIds, values }: PersonErasure): Promise<ErasedCounts> {
    const names = [...personIds, ...values];
    const naming = `(h.v ->> 'personId' = ANY($2::text[]) OR ${jsonNamesAny(`h.v -> 'payload'`, '$3::text[]')})`;
    const [{ n }]: Array<{ n: number }> = await m.query(
      `WITH hit AS (
         SELECT o.id, count(*) AS n FROM outbox o CROSS JOIN LATERAL jsonb_array_elements(o.happenings) AS h(v)
          WHERE o.workspace_id = $1 AND ${naming} GROUP BY o.id),
       tombstoned AS (
         UPDATE outbox o SET happenings = (
                SELECT jsonb_agg(CASE WHEN ${naming} THEN $4::jsonb ELSE h.v END ORDER BY h.n)
                  FROM jsonb_array_elements(o.happenings) WITH ORDINALITY AS h(v, n))
           FROM hit WHERE o.workspace_id = $1 AND o.id = hit.id
         RETURNING hit.n)
       SELECT coalesce(sum(n), 0)::int AS n FROM tombstoned`,
      [workspaceId, personIds, names, JSON.stringify(ERASED_HAPPENING)],
    );
    return { outbox: n };
  }
}
