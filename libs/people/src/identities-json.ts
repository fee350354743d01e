// SQL for other libs' reads that put a person's identities beside their rows (the events export,
// docs/rest.md#every-event-out-as-a-stream): the identities table stays the people lib's own.

// The identities come in order (person, created_at, value), so each list is in that order without a sort of its own.
const list = (kind: string) => `coalesce((json_agg(value) FILTER (WHERE kind = '${kind}'))::text, '[]')`;

/**
 * A query of (person_id, identities) for the people `persons` (a subquery of person ids) of workspace `workspace`
 * (a parameter), identities as the JSON text `{"email":[…],"anon_id":[…],"account_id":[…]}`.
 */
export function identitiesJsonOf(workspace: string, persons: string): string {
  return `SELECT person_id,
         '{"email":' || ${list('email')} || ',"anon_id":' || ${list('anon_id')} ||
         ',"account_id":' || ${list('account_id')} || '}' AS identities
    FROM (SELECT person_id, kind, value FROM identities
           WHERE workspace_id = ${workspace} AND person_id IN (${persons})
           ORDER BY person_id, created_at, value) AS i
   GROUP BY person_id`;
}
