// People's SQL for live segments (docs/graphql.md#segments): events compiles a segment's conditions over a
// person row `p` of the people table, and these fragments name the people lib's tables for it, so the
// tables stay in their owner's SQL.

/** The rows of the people with these ids (`ids` a text[] parameter), merged ones too: a relation for `FROM (…) p`. */
export const peopleRowsSql = (workspace: string, ids: string): string =>
  `SELECT * FROM people WHERE workspace_id = ${workspace} AND id = ANY(${ids})`;

/** The workspace's people not merged away (their ids), a relation for `FROM (…) p`: a broadcast's audience. */
export const workspacePeopleSql = (workspace: string): string =>
  `SELECT id FROM people WHERE workspace_id = ${workspace} AND merged_into IS NULL`;

/** True when the person `person` (SQL of their id) is subscribed now to the list with the address `address`. */
export const subscribedNowSql = (workspace: string, person: string, address: string): string =>
  `EXISTS (SELECT 1 FROM subscriptions s JOIN lists l ON l.workspace_id = s.workspace_id AND l.id = s.list_id
   WHERE s.workspace_id = ${workspace} AND s.person_id = ${person} AND l.address = ${address}
     AND s.status = 'subscribed')`;

/** Locks these people's rows (FOR UPDATE, in id order) for the rest of the transaction; answers those found. */
export const lockPeopleSql = (workspace: string, ids: string, columns = 'id'): string =>
  `SELECT ${columns} FROM people WHERE workspace_id = ${workspace} AND id = ANY(${ids}) ORDER BY id FOR UPDATE`;
