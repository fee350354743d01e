// Mailing lists (a subscribe names a list by its address, docs/rest.md#events; docs/graphql.md#lists).
import { Injectable } from '@nestjs/common';
import { newId, Refusal } from '@app/platform';
import { PeopleReadRepository } from './people-read.repository';
import { ListRow, PeopleRepository } from './people.repository';

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

  /** Subscribed people per list id (absent: 0). */
  async subscriberCounts(workspaceId: string, listIds: readonly string[]): Promise<Map<string, number>> {
    const rows = await this.read.subscriberCounts(workspaceId, listIds);
    return new Map(rows.map((r) => [r.list_id, r.n]));
  }
}
