// Happenings that other contexts react to, written in the same transaction as the row that caused
// them (style guide: cross-context reactions go through the outbox, never in-memory emitters).
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

export type HappeningKind = 'event' | 'stage_entered' | 'subscribed' | 'unsubscribed' | 'email_in' | 'field_changed';

export interface Happening {
  workspaceId: string;
  kind: HappeningKind;
  personId: string | null;
  payload: Record<string, unknown>;
}

export interface OutboxRow extends Happening {
  id: string;
  createdAt: Date;
}

@Injectable()
export class OutboxWriter {
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
