// The parts of a chart's read of the rollups (chart-rollup.statement.ts, chart-rollup-people.statement.ts)
// that both measures share; $1 workspace, $2 type, $3 from, $4 to, $7 folded_to, $8 expired_to.

/** The mark as the database spells it (text keeps its microseconds and '-infinity'). */
export interface RollupMark {
  folded_to: string;
  expired_to: string;
}

export const ROLLUP_MARK_SQL = `SELECT folded_to::text AS folded_to, expired_to::text AS expired_to FROM events_rollup_mark`;

/** A row of events `e` the rollups hold (rollup.sql.ts). */
export const FOLDED = `e.received_at < $7::timestamptz AND (e.expires_at IS NULL OR e.expires_at > $8::timestamptz)`;
export const ROW = `SELECT e.occurred_at, e.person_id, e.value`;
export const OF_CHART = `e.workspace_id = $1 AND e.type = $2`;
/** A row a chart counts now: not past its expires_at (interface.md events rule 5). */
export const LIVE = `(e.expires_at IS NULL OR e.expires_at > now())`;
