// The lists' own reads for the GraphQL admin API: who is on each list, who waits and who left, and how
// (docs/graphql.md#lists).
import { Inject, Injectable } from '@nestjs/common';
import { READ_DATABASE, ReadDatabase } from '@app/platform';
import type { SubscriptionStatus, WithdrawnVia } from './domain';

export interface ListCountRow {
  list_id: string;
  status: SubscriptionStatus;
  via: WithdrawnVia | null;
  n: number;
}

export interface ListWithdrawalRow {
  person_id: string;
  email: string | null;
  name: string | null;
  withdrawn_at: Date | null;
  withdrawn_via: WithdrawnVia | null;
}

@Injectable()
export class ListsReadRepository {
  constructor(@Inject(READ_DATABASE) private readonly reads: ReadDatabase) {}

  /** The subscriptions of each list by status and, for those withdrawn, by how. */
  listCounts(workspaceId: string, listIds: readonly string[]): Promise<ListCountRow[]> {
    return this.reads.query(
      `SELECT list_id, status, withdrawn_via AS via, count(*)::int AS n FROM subscriptions
        WHERE workspace_id = $1 AND list_id = ANY($2::text[]) GROUP BY list_id, status, withdrawn_via`,
      [workspaceId, listIds],
    );
  }

  /** The latest people to leave the list, newest first. */
  withdrawals(workspaceId: string, listId: string, limit: number): Promise<ListWithdrawalRow[]> {
    return this.reads.query(
      `SELECT s.person_id, p.email, p.name, s.withdrawn_at, s.withdrawn_via
         FROM subscriptions s JOIN people p ON p.workspace_id = s.workspace_id AND p.id = s.person_id
        WHERE s.workspace_id = $1 AND s.list_id = $2 AND s.status = 'unsubscribed'
        ORDER BY s.withdrawn_at DESC NULLS LAST, s.person_id LIMIT $3`,
      [workspaceId, listId, limit],
    );
  }
}
