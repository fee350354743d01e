// The SQL of people search (issue 32 item 3, docs/decisions.md "People search"), for PeopleReadRepository:
// the trigram indexes' candidates and the person-by-person match of the ordered read.

/** A LIKE pattern matching `text` anywhere, its wildcards taken literally. */
export const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** pg_trgm finds a fragment by its trigrams: it needs three letters or digits in a row to have any. */
export const indexable = (fragment: string) => /[\p{L}\p{N}]{3}/u.test(fragment);

/**
 * An identity's person's created_at: the copy the identity carries (migration 1767100000000), or for a
 * row written without it, the person's own.
 */
const KEYED_AT = `coalesce(person_created_at, (SELECT p.created_at FROM people p WHERE p.workspace_id = identities.workspace_id AND p.id = identities.person_id))`;

/**
 * WITH … hits (id, at, named): the people matching by name (with `where`) and the people of matching
 * identities (with `keyedWhere`, a condition on `(at, id)`: a page's position), up to `cap` of each,
 * each with its person's created_at, so a page orders them without reading people. Each index read is its own CTE, planned for every match (so on its
 * trigram index, or in order without one) and read lazily, so the cap stops it. When the names alone
 * reach the cap the identities are not read: `cap` distinct people already answer "more than the bound"
 * for a count, and a page cannot take capped candidates anyway.
 */
export function searchCandidates(where: string[], args: unknown[], fragment: string, cap: number | null, keyedWhere?: (at: string, id: string) => string): string {
  const n = args.push(likeText(fragment));
  const c = args.push(cap);
  const keyedWanted = cap === null ? '' : `WHERE (SELECT count(*) FROM (SELECT 1 FROM named LIMIT $${c}) full_named) < $${c}`;
  // Without a trigram the index would be read whole (every entry of its posting lists): `|| ''` keeps the
  // planner off it, so the side is read in order and stops at the cap.
  const [name, value] = indexable(fragment) ? ['name', 'value'] : [`(name || '')`, `(value || '')`];
  const position = keyedWhere ? ` AND ${keyedWhere(KEYED_AT, 'person_id')}` : '';
  return `WITH named AS MATERIALIZED (SELECT id, created_at AS at FROM people WHERE ${where.join(' AND ')} AND ${name} ILIKE $${n}),
       keyed AS MATERIALIZED (SELECT person_id AS id, ${KEYED_AT} AS at FROM identities WHERE workspace_id = $1 AND ${value} ILIKE $${n}${position}),
       hits AS ((SELECT id, at, true AS named FROM named LIMIT $${c}) UNION ALL (SELECT id, at, false FROM keyed ${keyedWanted} LIMIT $${c}))`;
}

/** SQL true when neither side of the candidates reached the cap (always, uncapped): a page is read only from all of them. */
export function candidatesComplete(cap: number | null): string {
  return cap === null ? 'true' : `s.named < ${cap} AND s.keyed < ${cap}`;
}

/**
 * The search condition read person by person, for the ordered read: the name, or any identity. OFFSET 0
 * keeps the EXISTS a probe per person: without it the planner may hash every matching identity first,
 * a whole-table read when the fragment has no trigram.
 */
export function searchMatch(args: unknown[], fragment: string): string {
  const n = args.push(likeText(fragment));
  return `(name ILIKE $${n} OR EXISTS (SELECT 1 FROM identities i WHERE i.workspace_id = $1 AND i.person_id = people.id AND i.value ILIKE $${n} OFFSET 0))`;
}
