// The SQL of people search (docs/decisions.md#people-search), for PeopleReadRepository:
// the trigram indexes' candidates and the person-by-person match of the ordered read.

/** The window: the newest people a page reads in order before it turns to the trigram indexes. */
export const SEARCH_RECENT = 2_000;
/** The window's first part: at its rate of matches, would the whole window fill the page? */
const SEARCH_FIRST = 250;

/** A LIKE pattern matching `text` anywhere, its wildcards taken literally. */
export const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** pg_trgm finds a fragment by its trigrams: it needs three letters or digits in a row to have any. */
export const indexable = (fragment: string) => /[\p{L}\p{N}]{3}/u.test(fragment);

/**
 * An identity's value matching the pattern at `$n` (made by identityPattern): by ASCII case under
 * COLLATE "C", as its trigram index is built (migration 1767150000000). The fragment is lower-cased
 * whole first, and emails are kept lower-cased, so any case of an email still matches; ILIKE under the
 * database's C.UTF-8 folded each candidate's every character through the locale, three times the cost.
 */
const identityMatch = (value: string, n: number) => `${value} COLLATE "C" ILIKE $${n}`;
const identityPattern = (fragment: string) => likeText(fragment.toLowerCase());

/**
 * WITH … hits (id, named): the people matching by name (with `where`) and the people of matching
 * identities, up to `cap` of each, for a count. Each index read is its own CTE, planned for every match
 * (so on its trigram index, or in order without one) and read lazily, so the cap stops it. When the
 * names alone reach the cap the identities are not read: `cap` distinct people already answer "more
 * than the bound".
 */
export function searchCandidates(where: string[], args: unknown[], fragment: string, cap: number | null): string {
  const n = args.push(likeText(fragment));
  const k = args.push(identityPattern(fragment));
  const c = args.push(cap);
  const keyedWanted =
    cap === null ? '' : `WHERE (SELECT count(*) FROM (SELECT 1 FROM named LIMIT $${c}) full_named) < $${c}`;
  // Without a trigram the index would be read whole (every entry of its posting lists): `|| ''` keeps the
  // planner off it, so the side is read in order and stops at the cap.
  const [name, value] = indexable(fragment) ? ['name', 'value'] : [`(name || '')`, `(value || '')`];
  return `WITH named AS MATERIALIZED (SELECT id FROM people WHERE ${where.join(' AND ')} AND ${name} ILIKE $${n}),
       keyed AS MATERIALIZED (SELECT person_id AS id FROM identities WHERE workspace_id = $1
         AND ${identityMatch(value, k)}),
       hits AS ((SELECT id, true AS named FROM named LIMIT $${c}) UNION ALL (SELECT id, false FROM keyed ${keyedWanted}
         LIMIT $${c}))`;
}

/**
 * (id, at) of every candidate of a page, from the trigram indexes (a fragment with trigrams): the
 * people matching by name (with `where`) and the people of matching identities (from the position on,
 * `position` a condition on (at, id)), each with its person's created_at: a name's row has it, and an
 * identity carries a copy (migration 1767100000000), so the page orders them without reading people.
 */
export function pageCandidates(
  where: string[],
  args: unknown[],
  fragment: string,
  position?: (at: string, id: string) => string,
): string {
  const n = args.push(likeText(fragment));
  const k = args.push(identityPattern(fragment));
  return `SELECT id, created_at AS at FROM people WHERE ${where.join(' AND ')} AND name ILIKE $${n}
          UNION ALL
          SELECT person_id, person_created_at FROM identities
           WHERE workspace_id = $1
             AND ${identityMatch('value', k)}${position ? ` AND ${position('person_created_at', 'person_id')}` : ''}`;
}

/**
 * The search condition read person by person, for the ordered read: the name, or any identity. OFFSET 0
 * keeps the EXISTS a probe per person: without it the planner may hash every matching identity first,
 * a whole-table read when the fragment has no trigram.
 */
export function searchMatch(args: unknown[], fragment: string): string {
  const n = args.push(likeText(fragment));
  const k = args.push(identityPattern(fragment));
  return (
    `(name ILIKE $${n} OR EXISTS (SELECT 1 FROM identities i WHERE i.workspace_id = $1 AND i.person_id = ` +
    `people.id AND ${identityMatch('i.value', k)} OFFSET 0))`
  );
}

/**
 * The window's page, in one statement: the matches (`match`, searchMatch's) among the newest SEARCH_RECENT
 * people from the position on (`where`), in two parts. The rest of the window is read only when the first
 * SEARCH_FIRST people did not fill the page but matched at a rate that would fill it over the whole window
 * (a condition on the first part alone, which PostgreSQL checks once before reading the rest): a fragment
 * whose matches are old or rare turns to the candidates after 250 probes, not 2,000. Each part keeps the name `people`,
 * so the match's correlated identity read names its rows alike. `limit` is SQL (a parameter).
 */
export function windowRead(q: {
  select: string;
  where: string[];
  order: string;
  limit: string;
  match: string;
}): string {
  const part = (skip: number, size: number) =>
    `${q.select} FROM (SELECT * FROM people WHERE ${q.where.join(' AND ')} ${q.order} OFFSET ${skip} LIMIT ` +
    `${size}) AS people WHERE ${q.match}`;
  const rate = SEARCH_RECENT / SEARCH_FIRST;
  return `WITH first AS MATERIALIZED (${part(0, SEARCH_FIRST)} ${q.order} LIMIT ${q.limit})
    SELECT * FROM (SELECT * FROM first
      UNION ALL (${part(SEARCH_FIRST, SEARCH_RECENT - SEARCH_FIRST)} AND (SELECT count(*) * ${rate} >= ${q.limit}
        AND count(*) < ${q.limit} FROM first) ${q.order} LIMIT ${q.limit})) AS w
    ${q.order} LIMIT ${q.limit}`;
}
