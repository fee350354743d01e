// Double opt-in (docs/decisions.md#double-opt-in-confirms-by-a-post): the only code that turns a pending subscription
// into a subscribed one, reads it for its confirmation email and page, and removes it when left unconfirmed.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { ListRow } from './people.repository';

/** How long a pending subscription waits for its confirmation before the sweep removes it. */
export const PENDING_KEPT_DAYS = 30;

/**
 * The workspaces among $1 (text[]) with a double opt-in list, a row each: what a relay handler that sends
 * confirmations hears (OutboxHandler.hearing).
 */
export const DOUBLE_OPT_IN_WORKSPACES = `SELECT DISTINCT workspace_id FROM lists
  WHERE workspace_id = ANY($1::text[]) AND double_opt_in`;

/** A subscription as its confirmation email and page show it. */
export interface ConfirmationRead {
  status: string;
  email: string | null;
  name: string | null;
  fields: Record<string, unknown> | null;
  list: ListRow;
}

@Injectable()
export class ConfirmationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** The person's subscription to the list (the person as they now are), or null when there is none. */
  async read(
    workspaceId: string,
    personId: string,
    listId: string,
    m: Pick<EntityManager, 'query'> = this.dataSource,
  ): Promise<ConfirmationRead | null> {
    const [row] = await m.query(
      `SELECT s.status, p.email, p.name AS person_name, p.fields, l.id, l.address, l.name, l.double_opt_in
         FROM subscriptions s
         JOIN people p ON p.workspace_id = s.workspace_id AND p.id = s.person_id
         JOIN lists l ON l.workspace_id = s.workspace_id AND l.id = s.list_id
        WHERE s.workspace_id = $1 AND s.person_id = $2 AND s.list_id = $3`,
      [workspaceId, personId, listId],
    );
    if (!row) return null;
    const { status, email, person_name: name, fields, ...list } = row;
    return { status, email, name, fields, list };
  }

  /**
   * Confirms the person's pending subscription to the list in the caller's transaction, recording when and from which
   * address; answers its list, or null when it was not pending (confirmed already, withdrawn, removed or never made).
   */
  async confirm(
    m: EntityManager,
    c: { workspaceId: string; personId: string; listId: string; at: Date; ip: string | null },
  ): Promise<ListRow | null> {
    const [rows]: [ListRow[], number] = await m.query(
      `UPDATE subscriptions s SET status = 'subscribed', confirmed_at = $4, confirmed_ip = $5
         FROM lists l
        WHERE s.workspace_id = $1 AND s.person_id = $2 AND s.list_id = $3 AND s.status = 'pending'
          AND l.workspace_id = $1 AND l.id = s.list_id
       RETURNING l.id, l.address, l.name, l.double_opt_in`,
      [c.workspaceId, c.personId, c.listId, c.at.toISOString(), c.ip],
    );
    return rows[0] ?? null;
  }

  /** Removes the pending subscriptions made before `before` (left unconfirmed); answers how many. */
  async removeUnconfirmed(before: Date): Promise<number> {
    const [, count]: [unknown, number] = await this.dataSource.query(
      `DELETE FROM subscriptions WHERE status = 'pending' AND created_at < $1`,
      [before.toISOString()],
    );
    return count;
  }
}
