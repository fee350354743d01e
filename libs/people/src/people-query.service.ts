// Finding and reading people, for the GraphQL admin API and the MCP tools find_people / get_person:
// plain inputs in, plain rows out, pages of at most 100.
import { Injectable } from '@nestjs/common';
import { decodeCursor, pageOf, pageSize } from '@app/edge';
import { Refusal } from '@app/platform';
import { COUNT_BOUND, PeopleReadRepository, PersonFilter, SubscriptionRead } from './people-read.repository';
import type { PersonRow } from './people.repository';
import { decodeSortCursor, encodeSortCursor, NEWEST_FIRST, type PeopleSort } from './people-sort';

export interface PeoplePage {
  edges: Array<{ cursor: string; node: PersonRow }>;
  pageInfo: { hasNextPage: boolean; endCursor?: string };
}

export interface PeopleCount {
  /** Exact up to COUNT_BOUND; past it, COUNT_BOUND and exact false. */
  count: number;
  exact: boolean;
}

@Injectable()
export class PeopleQueryService {
  constructor(private readonly read: PeopleReadRepository) {}

  /**
   * Newest first, or in the order asked (peopleSort's). first: 1 to 100 (default 50); after: an endCursor of the page
   * before, read in the same order.
   */
  async find(
    workspaceId: string,
    input: { filter?: PersonFilter; first?: number | null; after?: string | null; sort?: PeopleSort },
  ): Promise<PeoplePage> {
    const first = pageSize(input.first);
    const sort = input.sort ?? NEWEST_FIRST;
    const position = decodeSortCursor(sort, input.after);
    if (sort.by !== NEWEST_FIRST.by || sort.direction !== NEWEST_FIRST.direction) {
      const sorted = await this.read.sortedPage(workspaceId, {
        filter: input.filter ?? {},
        limit: first + 1,
        sort,
        after: position,
      });
      const edges = sorted.slice(0, first).map(({ sort_key, ...node }) => ({
        cursor: encodeSortCursor(sort, { key: sort_key, id: node.id }),
        node,
      }));
      return { edges, pageInfo: { hasNextPage: sorted.length > first, endCursor: edges.at(-1)?.cursor } };
    }
    const rows = await this.read.page(workspaceId, {
      filter: input.filter ?? {},
      limit: first + 1,
      after: decodeCursor(input.after),
    });
    return pageOf(rows, first, (row) => ({ atMicros: row.at_micros, id: row.id }));
  }

  async count(workspaceId: string, filter: PersonFilter = {}): Promise<PeopleCount> {
    const n = await this.read.count(workspaceId, filter);
    return n > COUNT_BOUND ? { count: COUNT_BOUND, exact: false } : { count: n, exact: true };
  }

  /** By record id (an absorbed id leads to the person it became) or by any of their emails. */
  async get(workspaceId: string, who: { id?: string | null; email?: string | null }): Promise<PersonRow | null> {
    if (who.id) return this.read.byId(workspaceId, who.id);
    if (who.email) return this.read.byEmail(workspaceId, who.email);
    throw new Refusal('invalid_field', 'Name the person with id or email.');
  }

  /** By email when `who` holds an @, else by record id (an absorbed id leads to the person it became). */
  byWho(workspaceId: string, who: string): Promise<PersonRow | null> {
    return this.read.byWho(workspaceId, who);
  }

  /** These people by record id (none merged away), in no order. */
  byIds(workspaceId: string, ids: readonly string[]): Promise<PersonRow[]> {
    return ids.length ? this.read.byIds(workspaceId, ids) : Promise.resolve([]);
  }

  identitiesOf(workspaceId: string, personIds: readonly string[]) {
    return this.read.identitiesOf(workspaceId, personIds);
  }

  subscriptionsOf(workspaceId: string, personIds: readonly string[]): Promise<SubscriptionRead[]> {
    return this.read.subscriptionsOf(workspaceId, personIds);
  }
}
