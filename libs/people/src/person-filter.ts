// The people filter of the admin API and the find_people tool, as the SQL conditions of PeopleReadRepository's
// page and count (search's own conditions are people-search.ts's).
import { likeText } from './people-search';

/** The people filter of the admin API and the find_people tool. */
export interface PersonFilter {
  email?: string;
  /** Part of the name, any case. */
  name?: string;
  anonId?: string;
  accountId?: string;
  stage?: string;
  /** A list's address: people subscribed to it now. */
  list?: string;
  engaged?: boolean;
  /** Part of the name, an email, an account id or an anon id, any case. */
  search?: string;
  /** A condition another lib adds on the person's id (its own tables), e.g. the members of a segment. */
  among?: PersonCondition;
}

/**
 * A condition on the people table's `id` written by the lib that owns the tables it reads: `key` tells
 * two conditions apart (counts are shared by filter), `sql` binds its values through `bind` ($n).
 */
export interface PersonCondition {
  key: string;
  sql: (bind: (value: unknown) => string) => string;
}

export interface PersonPageQuery {
  filter: PersonFilter;
  /** Rows to read (the page size plus one, to tell whether more remain). */
  limit: number;
  /** Read people created before this position. */
  after?: { atMicros: string; id: string };
}

/** The filter without search, and search trimmed (undefined when blank). */
export function withoutSearch(filter: PersonFilter): { filter: PersonFilter; search?: string } {
  const { search, ...rest } = filter;
  return { filter: rest, search: search?.trim() || undefined };
}

/** The filter's conditions but search's (page and count add it), and the position when paging. */
export function filterConditions(
  workspaceId: string,
  filter: PersonFilter,
  after?: PersonPageQuery['after'],
): { where: string[]; args: unknown[]; position?: (at: string, id: string) => string } {
  const where = ['workspace_id = $1', 'merged_into IS NULL'];
  const args: unknown[] = [workspaceId];
  let position: ((at: string, id: string) => string) | undefined;
  if (after) {
    args.push(after.atMicros, after.id);
    const [at, id] = [args.length - 1, args.length];
    position = (atSql, idSql) =>
      `(${atSql}, ${idSql}) < (timestamptz 'epoch' + $${at}::bigint * interval '1 microsecond', $${id})`;
    where.push(position('created_at', 'id'));
  }
  const identity = (kind: string, value: string) =>
    where.push(
      `id IN (SELECT person_id FROM identities WHERE workspace_id = $1 AND kind = '${kind}' AND value = $${args.push(value)})`,
    );
  if (filter.email) identity('email', filter.email.trim().toLowerCase());
  if (filter.anonId) identity('anon_id', filter.anonId);
  if (filter.accountId) identity('account_id', filter.accountId);
  if (filter.name) where.push(`name ILIKE $${args.push(likeText(filter.name.trim()))}`);
  if (filter.stage) where.push(`stage = $${args.push(filter.stage)}`);
  if (filter.engaged !== undefined && filter.engaged !== null)
    where.push(filter.engaged ? 'engaged_at IS NOT NULL' : 'engaged_at IS NULL');
  if (filter.list) {
    where.push(
      `id IN (SELECT s.person_id FROM subscriptions s JOIN lists l ON l.workspace_id = s.workspace_id
          AND l.id = s.list_id
                 WHERE s.workspace_id = $1 AND l.address = $${args.push(filter.list.trim().toLowerCase())}
                   AND s.status = 'subscribed')`,
    );
  }
  if (filter.among) where.push(filter.among.sql((value) => `$${args.push(value)}`));
  return { where, args, position };
}
