// The outbox as tests read it: one happening per row (the table keeps one row per transaction, see
// libs/outbox/src/outbox.ts), whether the relay has passed a happening, and moving the relay's
// mark back so a happening is relayed again.
import type { DataSource } from 'typeorm';
import { HAPPENINGS_FROM, outboxRowOf, RELAY_MARK } from '@app/outbox';

export interface StoredHappening {
  id: string;
  kind: string;
  person_id: string | null;
  payload: any;
}

/** The workspace's happenings, oldest first. */
export function happeningsOf(db: DataSource, workspaceId: string): Promise<StoredHappening[]> {
  return db.query(
    `SELECT id::text, kind, person_id, payload FROM (${HAPPENINGS_FROM('outbox')}) h WHERE h.workspace_id = $1 ORDER BY h.id`,
    [workspaceId],
  );
}

/** Whether the relay has passed the outbox row of this happening. */
export async function isRelayed(db: DataSource, happeningId: string): Promise<boolean> {
  const [row] = await db.query(`SELECT (o.xid, o.id) <= ${RELAY_MARK} AS relayed FROM outbox o WHERE o.id = $1`, [
    outboxRowOf(happeningId),
  ]);
  return row.relayed;
}

/** Whether the relay has passed every outbox row written so far. */
export async function allRelayed(db: DataSource): Promise<boolean> {
  const [row] = await db.query(
    `SELECT NOT EXISTS (SELECT 1 FROM outbox o WHERE (o.xid, o.id) > ${RELAY_MARK}) AS done`,
  );
  return row.done;
}

/** Moves the relay's mark to just before this happening's outbox row: it (and what follows) is relayed again. */
export async function relayAgainFrom(db: DataSource, happeningId: string): Promise<void> {
  await db.query(
    `UPDATE outbox_relay r SET xid = o.xid, id = o.id - 1 FROM outbox o WHERE r.name = 'main' AND o.id = $1`,
    [outboxRowOf(happeningId)],
  );
}
