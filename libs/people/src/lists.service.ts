// Mailing lists (a subscribe names a list by its address, docs/rest.md#events; docs/graphql.md#lists).
import { Injectable } from '@nestjs/common';
import { newId, Refusal } from '@app/platform';
import type { SubscriptionStatus, WithdrawnVia } from './domain';
import { type ListWithdrawalRow, ListsReadRepository } from './lists-read.repository';
import { PeopleReadRepository } from './people-read.repository';
import { ListRow, PeopleRepository } from './people.repository';

/** A list's subscriptions by status, and those withdrawn by how. */
export type ListCounts = { listId: string; withdrawnBy: Partial<Record<WithdrawnVia, number>> } & Record<
  SubscriptionStatus,
  number
>;

const ADDRESS = /^[a-z0-9][a-z0-9_.-]{0,62}$/;

function parseName(raw: string): string {
  const name = raw.trim();
  if (!name || name.length > 200) throw new Refusal('invalid_field', 'name must be 1 to 200 characters.');
  return name;
}

@Injectable()
export class ListsService {
  constructor(
    private readonly people: PeopleRepository,
    private readonly read: PeopleReadRepository,
    private readonly listReads: ListsReadRepository,
  ) {}

  list(workspaceId: string): Promise<ListRow[]> {
    return this.read.lists(workspaceId);
  }

  async create(
    workspaceId: string,
    input: { address: string; name: string; doubleOptIn?: boolean | null },
  ): Promise<ListRow> {
    const address = input.address.trim().toLowerCase();
    if (!ADDRESS.test(address))
      throw new Refusal('invalid_field', 'address must be 1 to 63 of a-z, 0-9, _ . - (for example newsletter).');
    const name = parseName(input.name);
    const list = await this.people.createList(workspaceId, newId('list'), address, name, input.doubleOptIn ?? false);
    if (!list)
      throw new Refusal('conflict', `A list with address "${address}" already exists: choose another address.`);
    return list;
  }

  /** The name and the double opt-in, never the address: forms keep posting to the same one. */
  async update(
    workspaceId: string,
    listId: string,
    changes: { name?: string | null; doubleOptIn?: boolean | null },
  ): Promise<ListRow> {
    const list = await this.people.updateList(workspaceId, listId, {
      name: changes.name == null ? undefined : parseName(changes.name),
      doubleOptIn: changes.doubleOptIn ?? undefined,
    });
    if (!list) throw new Refusal('not_found', `No list has id "${listId}": list them with lists.`);
    return list;
  }

  /** Each list's subscriptions by status, and those withdrawn by how (absent: 0). */
  async counts(workspaceId: string, listIds: readonly string[]): Promise<ListCounts[]> {
    const byList = new Map<string, ListCounts>();
    for (const row of await this.listReads.listCounts(workspaceId, listIds)) {
      let counts = byList.get(row.list_id);
      if (!counts)
        byList.set(
          row.list_id,
          (counts = { listId: row.list_id, subscribed: 0, pending: 0, unsubscribed: 0, withdrawnBy: {} }),
        );
      counts[row.status] += row.n;
      if (row.status === 'unsubscribed' && row.via)
        counts.withdrawnBy[row.via] = (counts.withdrawnBy[row.via] ?? 0) + row.n;
    }
    return [...byList.values()];
  }

  /** The latest people to leave the list, newest first: first 1 to 100, default 20. */
  withdrawals(workspaceId: string, listId: string, first?: number | null): Promise<ListWithdrawalRow[]> {
    const limit = first ?? 20;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw new Refusal('invalid_field', 'first must be 1 to 100.');
    return this.listReads.withdrawals(workspaceId, listId, limit);
  }
}
