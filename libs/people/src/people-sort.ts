// The orders of the people list (docs/graphql.md#sorting-people): each a key read from its own index
// (migration 1767800052731) in (key, id) order, either way, and a cursor that carries the order it was read in.
import { Refusal } from '@app/platform';
import { STAGES } from './domain';

export const PEOPLE_SORTS = ['created', 'last_seen', 'revenue', 'stage', 'engaged'] as const;
type PeopleSortKey = (typeof PEOPLE_SORTS)[number];
type SortDirection = 'asc' | 'desc';

export interface PeopleSort {
  by: PeopleSortKey;
  direction: SortDirection;
}

/** Newest first: the order the list had before it could be sorted, and the one search is tuned for. */
export const NEWEST_FIRST: PeopleSort = { by: 'created', direction: 'desc' };

/** A time key as microseconds since the epoch, in text: exact, unlike a Date. */
const micros = (sql: string) => `(extract(epoch FROM ${sql}) * 1000000)::bigint::text`;
const fromMicros = (param: string) => `(timestamptz 'epoch' + ${param}::bigint * interval '1 microsecond')`;
const time = (sql: string) => ({ sql, text: micros(sql), param: fromMicros, pattern: /^-?\d{1,20}$/ });

/** The stage's place on the ladder (0: none yet), the expression the people_stage_rank index holds. */
const STAGE_RANK = `(CASE stage ${STAGES.map((s, i) => `WHEN '${s}' THEN ${i + 1}`).join(' ')} ELSE 0 END)`;

/** Each order's key: its SQL (as its index holds it), the key as cursor text, and the cursor text back as SQL. */
const KEYS: Record<PeopleSortKey, { sql: string; text: string; param: (p: string) => string; pattern: RegExp }> = {
  created: time('created_at'),
  last_seen: time('last_seen_at'),
  // Not engaged yet sorts as the epoch: after everyone engaged, newest first, before them oldest first.
  engaged: time(`(coalesce(engaged_at, timestamptz 'epoch'))`),
  revenue: {
    sql: 'revenue',
    text: 'revenue::text',
    param: (p) => `${p}::numeric`,
    pattern: /^-?\d{1,30}(\.\d{1,20})?$/,
  },
  stage: { sql: STAGE_RANK, text: `${STAGE_RANK}::text`, param: (p) => `${p}::int`, pattern: /^\d{1,2}$/ },
};

/** The order asked for: sort one of PEOPLE_SORTS (default created), direction desc (default) or asc. */
export function peopleSort(sort?: string | null, direction?: string | null): PeopleSort {
  const by = sort ?? 'created';
  if (!(PEOPLE_SORTS as readonly string[]).includes(by))
    throw new Refusal('invalid_field', `sort must be one of ${PEOPLE_SORTS.join(', ')}: "${by}" is not an order.`, {
      field: 'sort',
    });
  const dir = direction ?? 'desc';
  if (dir !== 'asc' && dir !== 'desc')
    throw new Refusal('invalid_field', `direction must be asc or desc: "${dir}" is not a direction.`, {
      field: 'direction',
    });
  return { by: by as PeopleSortKey, direction: dir };
}

export interface SortPosition {
  key: string;
  id: string;
}

const PREFIX = 'sorted';

/** A sorted page's cursor: the order, the row's key and id (base64url, never the newest-first cursor's shape). */
export function encodeSortCursor(sort: PeopleSort, position: SortPosition): string {
  return Buffer.from(`${PREFIX}:${sort.by}:${sort.direction}:${position.key}:${position.id}`).toString('base64url');
}

/**
 * The position in a sorted cursor; refused when it is not one, or was read in another order. Newest first takes
 * the connection's own cursors: for it, anything but a sorted cursor is left to that reader (undefined).
 */
export function decodeSortCursor(sort: PeopleSort, cursor: string | null | undefined): SortPosition | undefined {
  if (!cursor) return undefined;
  const [prefix, by, direction, key, id, ...rest] = Buffer.from(cursor, 'base64url').toString().split(':');
  const shaped = prefix === PREFIX && rest.length === 0 && !!id && /^[A-Za-z0-9_]{1,80}$/.test(id);
  const newest = sort.by === NEWEST_FIRST.by && sort.direction === NEWEST_FIRST.direction;
  if (newest && prefix !== PREFIX) return undefined;
  if (shaped && (by !== sort.by || direction !== sort.direction))
    throw new Refusal(
      'invalid_field',
      `after was read sorted by ${by} ${direction}: ask with that sort and direction, or start again without after.`,
      { field: 'after' },
    );
  if (!shaped || !KEYS[sort.by].pattern.test(key))
    throw new Refusal(
      'invalid_field',
      'after is not a cursor this API gave: pass an endCursor or edge cursor back unchanged.',
      { field: 'after' },
    );
  return { key, id };
}

/**
 * A sorted page's statement: the people matching `where` (its values in `args`, to which it adds its own) after the
 * position, in the order's terms so PostgreSQL reads the order's index in order, with each row's key as sort_key.
 */
export function sortedRead(q: {
  columns: string;
  where: string[];
  args: unknown[];
  sort: PeopleSort;
  after?: SortPosition;
  limit: number;
}): string {
  const key = KEYS[q.sort.by];
  const bind = (value: unknown) => `$${q.args.push(value)}`;
  const [way, past] = q.sort.direction === 'desc' ? ['DESC', '<'] : ['ASC', '>'];
  const where = q.after
    ? [...q.where, `(${key.sql}, id) ${past} (${key.param(bind(q.after.key))}, ${bind(q.after.id)})`]
    : q.where;
  return `SELECT ${q.columns}, ${key.text} AS sort_key FROM people WHERE ${where.join(' AND ')}
    ORDER BY ${key.sql} ${way}, id ${way} LIMIT ${bind(q.limit)}`;
}
