// People's SQL of first touches for the chart rollups of events (docs/decisions.md#charts-from-rollups),
// loading nothing else: events' migrations may import it. People own the table; these name it for them.

/**
 * The chart key of a first touch `ft` (SQL of type jsonb, NULL for none), as touchKey computes it in the
 * api: 64 bits of the MD5 of source, medium and campaign, 0 when there is no first touch.
 */
export function touchKeySql(ft: string): string {
  const part = (name: string) => `coalesce(${ft}->>'${name}', '')`;
  const joined = `${part('source')} || E'\\x1f' || ${part('medium')} || E'\\x1f' || ${part('campaign')}`;
  return (
    `(CASE WHEN ${joined} = E'\\x1f\\x1f' THEN 0::bigint ELSE ('x' || left(md5(${joined}), 16))::bit(64)::bigint ` +
    `END)`
  );
}

/**
 * The chart key of the person `personId` of `workspace` (SQL of the caller's statement), NULL when there is no such
 * person. Locked, the row is share-locked: a post setting their first touch (which rewrites their rows) is waited for.
 */
export function personTouchSql(workspace: string, personId: string, lock = true): string {
  return (
    `(SELECT ${touchKeySql('tp.first_touch')} FROM people tp WHERE tp.workspace_id = ${workspace} AND tp.id = ` +
    `${personId}${lock ? ' FOR SHARE' : ''})`
  );
}

/** Every first touch of the people, as (workspace_id, touch, source, medium, campaign): what event_touches names. */
export const PEOPLE_TOUCHES_SQL = `SELECT DISTINCT workspace_id, ${touchKeySql('first_touch')} AS touch,
  coalesce(first_touch->>'source', '') AS source,
       coalesce(first_touch->>'medium', '') AS medium, coalesce(first_touch->>'campaign', '') AS campaign FROM people
         WHERE first_touch IS NOT NULL`;
