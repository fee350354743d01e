// The People page's questions and the variables it asks them with, read from the URL. In the first script, not
// the page's: the questions of a People page being opened are asked beside the viewer query, while the page's
// script is still on its way (routes.ts).
import type { Client } from 'urql';
import { graphql } from '../../graphql';
import type { Direction, SortKey } from './people-table';

const PAGE_SIZE = 25;

export const PEOPLE = graphql(`
  query People($filter: PeopleFilter, $segment: ID, $first: Int, $after: String, $sort: String, $direction: String) {
    people(filter: $filter, segment: $segment, first: $first, after: $after, sort: $sort, direction: $direction) {
      totalCount
      totalCountExact
      pageInfo {
        endCursor
        hasNextPage
      }
      edges {
        cursor
        node {
          id
          email
          name
          stage
          engaged
          revenue
          lastSeenAt
          createdAt
          firstTouch
        }
      }
    }
  }
`);

export const LISTS = graphql(`
  query PeopleLists {
    lists {
      id
      address
      name
    }
    segments {
      id
      name
    }
  }
`);

const SORTS: readonly SortKey[] = ['created', 'last_seen', 'revenue', 'stage', 'engaged'];

/** The order in the URL: a known sort (else newest first) and its direction (desc unless asc). */
export function orderOf(params: URLSearchParams): { sort: SortKey; direction: Direction } {
  const sort = SORTS.find((key) => key === params.get('sort')) ?? 'created';
  return { sort, direction: params.get('dir') === 'asc' ? 'asc' : 'desc' };
}

function filterOf(params: URLSearchParams) {
  const engaged = params.get('engaged');
  return {
    search: params.get('q') || undefined,
    stage: params.get('stage') || undefined,
    list: params.get('list') || undefined,
    engaged: engaged === 'yes' ? true : engaged === 'no' ? false : undefined,
  };
}

export function variablesOf(params: URLSearchParams) {
  return {
    filter: filterOf(params),
    segment: params.get('segment') || undefined,
    first: PAGE_SIZE,
    after: params.get('after') || undefined,
    ...orderOf(params),
  };
}

/** The page's questions asked before it is drawn, with the variables it will ask them with. */
export function prefetch(client: Client, params: URLSearchParams): void {
  void client.query(PEOPLE, variablesOf(params)).toPromise();
  void client.query(LISTS, {}).toPromise();
}
