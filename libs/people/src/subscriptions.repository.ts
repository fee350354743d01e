// Withdrawals from lists (docs/rest.md#coming-off-a-list): the only code that takes a subscription off its
// list. Subscribing is PeopleRepository.subscribe (it keeps a replaced consent in earlier_consents).
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { WITHDRAWABLE, type WithdrawnVia } from './domain/consent';
import { type MergeParticipant, personColumnMover } from './merge/merge-participants';
import type { ListRow } from './people.repository';

export interface WithdrawalWrite {
  workspaceId: string;
  personId: string;
  /** The lists' ids; null: every list the person is on. */
  listIds: string[] | null;
  via: WithdrawnVia;
  ip: string | null;
  at: Date;
}

/** A list the person came off, and the status the subscription had (subscribed or pending). */
export interface Withdrawn extends ListRow {
  was: string;
}

@Injectable()
export class SubscriptionsRepository implements MergeParticipant {
  readonly name = 'earlier_consents';
  /** A merge's part here: the absorbed people's earlier consents become the survivor's. */
  readonly movePeople = personColumnMover('UPDATE earlier_consents');

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /**
   * Takes the person off the lists (or all of theirs) in the caller's transaction, keeping the consent and recording
   * the withdrawal beside it; answers the subscriptions it changed (none already withdrawn).
   */
  async withdraw(m: EntityManager, w: WithdrawalWrite): Promise<Withdrawn[]> {
    const [rows]: [Withdrawn[], number] = await m.query(
      `WITH before AS (
         SELECT s.list_id, s.status FROM subscriptions s
          WHERE s.workspace_id = $1 AND s.person_id = $2 AND s.status = ANY($3::text[])
            AND ($4::text[] IS NULL OR s.list_id = ANY($4::text[]))
          FOR UPDATE)
       UPDATE subscriptions s SET status = 'unsubscribed', withdrawn_at = $5, withdrawn_via = $6, withdrawn_ip = $7
         FROM before b, lists l
        WHERE s.workspace_id = $1 AND s.person_id = $2 AND s.list_id = b.list_id
          AND l.workspace_id = $1 AND l.id = s.list_id
       RETURNING l.id, l.address, l.name, l.double_opt_in, b.status AS was`,
      [w.workspaceId, w.personId, [...WITHDRAWABLE], w.listIds, w.at.toISOString(), w.via, w.ip],
    );
    return rows;
  }

  /** A list of the workspace by id. */
  async list(m: EntityManager, workspaceId: string, listId: string): Promise<ListRow | null> {
    const [row] = await m.query(
      `SELECT id, address, name, double_opt_in FROM lists WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, listId],
    );
    return row ?? null;
  }
}
