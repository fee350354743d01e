// Happenings that other contexts react to, written in the same transaction as the row that caused
// them (style guide: cross-context reactions go through the outbox, never in-memory emitters).
import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import type { EntityManager } from 'typeorm';
import type { AppConfig } from '../config/config';
import { CONFIG } from '../config/config.token';
import { REDIS } from '../redis/redis';

export const outboxChannel = (config: Pick<AppConfig, 'redisPrefix'>) => `${config.redisPrefix}:outbox`;

/** What can happen to a person; each kind is also an outgoing webhook trigger of the same name. */
export const HAPPENING_KINDS = ['stage_entered', 'subscribed', 'unsubscribed', 'event', 'email_in', 'field_changed'] as const;
export type HappeningKind = (typeof HAPPENING_KINDS)[number];

export interface Happening {
  workspaceId: string;
  kind: HappeningKind;
  personId: string | null;
  payload: Record<string, unknown>;
}

/** The data of a happening per trigger that applies, most specific first (decisions.md section 6). */
export type TriggerData = Partial<Record<HappeningKind, Record<string, unknown>>>;

/**
 * The one builder of a happening: its kind is the most specific trigger (the first key of `data`), and
 * its payload carries the moment and the data per trigger, so each webhook address gets the most
 * specific trigger it listens to.
 */
export function happening(workspaceId: string, personId: string | null, at: Date, data: TriggerData): Happening {
  const kind = Object.keys(data)[0] as HappeningKind;
  return { workspaceId, kind, personId, payload: { at: at.toISOString(), data } };
}

export interface OutboxRow extends Happening {
  id: string;
  createdAt: Date;
}

/**
 * Happenings as a data-modifying CTE (`happenings`) reading `doc -> 'happenings'` (Happening objects),
 * for a caller that writes its rows and their happenings with one statement (the ingest write).
 */
export function outboxWriteCte(doc: string): string {
  return `happenings AS (
  INSERT INTO outbox (workspace_id, kind, person_id, payload)
  SELECT x."workspaceId", x.kind, x."personId", x.payload FROM jsonb_to_recordset(${doc} -> 'happenings')
    AS x("workspaceId" text, kind text, "personId" text, payload jsonb)
  RETURNING 1)`;
}

@Injectable()
export class OutboxWriter {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Tells the worker's relay there is work, after the transaction that wrote the rows committed.
   * Best effort: while Redis is down the relay's poll finds the rows anyway.
   */
  kick(): void {
    this.redis.publish(outboxChannel(this.config), '1').catch(() => undefined);
  }

  /** Must be called with the manager of the transaction that wrote the cause. */
  async write(manager: EntityManager, happenings: Happening[]): Promise<void> {
    if (happenings.length === 0) return;
    const values: unknown[] = [];
    const rows = happenings.map((h, i) => {
      values.push(h.workspaceId, h.kind, h.personId, JSON.stringify(h.payload));
      const n = i * 4;
      return `($${n + 1}, $${n + 2}, $${n + 3}, $${n + 4}::jsonb)`;
    });
    await manager.query(`INSERT INTO outbox (workspace_id, kind, person_id, payload) VALUES ${rows.join(', ')}`, values);
  }
}
