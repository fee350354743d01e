// The SQL of people search (issue 32 item 3, docs/decisions.md "People search"), for PeopleReadRepository:
// the trigram indexes' candidates and the person-by-person match of the ordered read.

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
  const keyedWanted = cap === null ? '' : `WHERE (SELECT count(*) FROM (SELECT 1 FROM named LIMIT $${c}) full_named) < $${c}`;
  // Without a trigram the index would be read whole (every entry of its posting lists): `|| ''` keeps the
  // planner off it, so the side is read in order and stops at the cap.
  const [name, value] = indexable(fragment) ? ['name', 'value'] : [`(name || '')`, `(value || '')`];
  return `WITH named AS MATERIALIZED (SELECT id FROM people WHERE ${where.join(' AND ')} AND ${name} ILIKE $${n}),
       keyed AS MATERIALIZED (SELECT person_id AS id FROM identities WHERE workspace_id = $1 AND ${identityMatch(value, k)}),
       hits AS ((SELECT id, true AS named FROM named LIMIT $${c}) UNION ALL (SELECT id, false FROM keyed ${keyedWanted} LIMIT $${c}))`;
}

/**
 * (id, at) of every candidate of a page, from the trigram indexes (a fragment with trigrams): the
 * people matching by name (with `where`) and the people of matching identities (from the position on,
 * `position` a condition on (at, id)), each with its person's created_at: a name's row has it, and an
 * identity carries a copy (migration 1767100000000), so the page orders them without reading people.
 */
export function pageCandidates(where: string[], args: unknown[], fragment: string, position?: (at: string, id: string) => string): string {
  const n = args.push(likeText(fragment));
  const k = args.push(identityPattern(fragment));
  return `SELECT id, created_at AS at FROM people WHERE ${where.join(' AND ')} AND name ILIKE $${n}
          UNION ALL
          SELECT person_id, person_created_at FROM identities
           WHERE workspace_id = $1 AND ${identityMatch('value', k)}${position ? ` AND ${position('person_created_at', 'person_id')}` : ''}`;
}

/**
 * The search condition read person by person, for the ordered read: the name, or any identity. OFFSET 0
 * keeps the EXISTS a probe per person: without it the planner may hash every matching identity first,
 * a whole-table read when the fragment has no trigram.
 */
export function searchMatch(args: unknown[], fragment: string): string {
  const n = args.push(likeText(fragment));
  const k = args.push(identityPattern(fragment));
  return `(name ILIKE $${n} OR EXISTS (SELECT 1 FROM identities i WHERE i.workspace_id = $1 AND i.person_id = people.id AND ${identityMatch('i.value', k)} OFFSET 0))`;
}
