// A workspace's people a chunk at a time, in id order, for work that goes over all of them in
// transactions of its own (events' fill of a segment, docs/graphql.md#segments). Merged people are left out.
import type { EntityManager } from 'typeorm';

/**
 * Locks FOR SHARE, in id order, up to `limit` people of the workspace whose id comes after `after` (from the
 * first when null), and answers their ids: no write to them commits while the caller's transaction runs.
 */
export async function lockPeopleAfter(
  m: EntityManager,
  workspaceId: string,
  after: string | null,
  limit: number,
): Promise<string[]> {
  const rows: Array<{ id: string }> = await m.query(
    `SELECT id FROM people WHERE workspace_id = $1 AND id > coalesce($2::text, '') AND merged_into IS NULL
      ORDER BY id LIMIT $3 FOR SHARE`,
    [workspaceId, after, limit],
  );
  return rows.map((row) => row.id);
}

/** How many people the workspace has now. */
export async function countPeople(m: EntityManager, workspaceId: string): Promise<number> {
  const [row] = await m.query(`SELECT count(*)::int AS n FROM people WHERE workspace_id = $1 AND merged_into IS NULL`, [
    workspaceId,
  ]);
  return row.n;
}
