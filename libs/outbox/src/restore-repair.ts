// A backup restored onto another PostgreSQL server (docs/operations.md#restore). The relay
// orders the outbox by its writers' transaction ids (xid8), and a new server's transaction counter can
// start far below the old one's: its writes would then sort behind the relay's mark (never relayed), and
// the restored rows not yet relayed would lie past what a pass may read (until the counter caught up).
// Found where the counter is behind the mark or the rows, and repaired once, holding the mark: rows
// relayed stay relayed, the others are relayed once. Only the rows' xid changes, never their ids, so
// happening ids (row id × 65,536 + place) and the deliveries and runs that name them stay as they were.
import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/**
 * What a restore onto a server whose counter is behind left, from the mark's xid, the highest xid of the
 * outbox and the first xid this server has not yet given out. `mark-ahead`: a new write sorts behind the
 * mark. `rows-ahead`: the mark is behind the counter but some restored rows are not, so they wait.
 */
export type RestoreLag = 'none' | 'mark-ahead' | 'rows-ahead';

export function restoreLagOf(markXid: bigint, topXid: bigint | null, nextXid: bigint): RestoreLag {
  if (markXid >= nextXid) return 'mark-ahead';
  if (topXid !== null && topXid >= nextXid) return 'rows-ahead';
  return 'none';
}

/**
 * Whether outbox row `o` was written on this server: its xid (the column's default, the writer's id)
 * is the transaction that made the row version. A restored row was made by the restore, and keeps the
 * old server's id. (xmin holds the low 32 bits and survives freezing; an erasure's tombstones rewrite it,
 * which is why every process checks before it serves: then no row has been written here yet.)
 */
const WRITTEN_HERE = `(o.xid::text::bigint % 4294967296) = o.xmin::text::bigint`;

/** The mark (locked) and what restoreLagOf compares; the highest xid is one step back along the (xid, id) index. */
const LAG = (lock: string) => `
SELECT r.xid::text AS mark_xid, r.id::text AS mark_id,
       (SELECT o.xid FROM outbox o ORDER BY o.xid DESC, o.id DESC LIMIT 1)::text AS top_xid,
       pg_snapshot_xmax(pg_current_snapshot())::text AS next_xid
  FROM outbox_relay r WHERE r.name = 'main' ${lock}`;

/**
 * The mark is ahead of this server, so no pass has moved it here (a pass moves it only to rows this
 * server's counter had passed): rows of the old server at or below it were relayed there and stay so
 * ('1', as the migration to the mark stamped relayed rows), the old server's rows past it are due
 * ('2'), rows written here since the restore keep their ids and are due after them. No writer is given
 * xid 1 or 2 (PostgreSQL's first normal xid is 3).
 */
const REPAIR_MARK_AHEAD = `
WITH relayed AS (UPDATE outbox o SET xid = '1' WHERE (o.xid, o.id) <= ($1::xid8, $2::bigint) AND NOT ${WRITTEN_HERE}
  RETURNING o.id),
     due AS (UPDATE outbox o SET xid = '2' WHERE (o.xid, o.id) > ($1::xid8, $2::bigint) AND NOT ${WRITTEN_HERE}
       RETURNING o.id),
     mark AS (UPDATE outbox_relay SET xid = '1', id = greatest($2::bigint, (SELECT max(id) FROM relayed))
       WHERE name = 'main')
SELECT (SELECT count(*) FROM relayed)::int AS relayed, (SELECT count(*) FROM due)::int AS due,
       (SELECT count(*) FROM outbox o WHERE (o.xid, o.id) <= ($1::xid8, $2::bigint)
         AND ${WRITTEN_HERE})::int AS written_here`;

/**
 * The mark is behind the counter: the rows still ahead of it (old server's, past the mark) are due now, in this
 * transaction.
 */
const REPAIR_ROWS_AHEAD = `
WITH due AS (UPDATE outbox o SET xid = pg_current_xact_id() WHERE o.xid >= $1::xid8 AND NOT ${WRITTEN_HERE}
  RETURNING o.id)
SELECT 0 AS relayed, (SELECT count(*) FROM due)::int AS due, 0 AS written_here`;

export interface RestoreRepaired {
  lag: Exclude<RestoreLag, 'none'>;
  /** Rows relayed on the old server, kept relayed. */
  relayed: number;
  /** Rows of the old server not yet relayed, now due. */
  due: number;
  /** Rows written here before the repair that sorted behind the mark, now due. */
  writtenHere: number;
}

/**
 * Repairs the outbox in the caller's transaction when this server's counter is behind it; null when it
 * is not, or when the mark is held elsewhere and `wait` is false (a relay pass, or an erasure, that holds
 * it: the relay checks again on its next idle pass).
 */
export async function repairAfterRestore(manager: EntityManager, wait: boolean): Promise<RestoreRepaired | null> {
  const [seen]: Array<{ mark_xid: string; mark_id: string; top_xid: string | null; next_xid: string }> =
    await manager.query(LAG(wait ? 'FOR UPDATE' : 'FOR UPDATE SKIP LOCKED'));
  if (!seen) return null;
  const lag = restoreLagOf(
    BigInt(seen.mark_xid),
    seen.top_xid === null ? null : BigInt(seen.top_xid),
    BigInt(seen.next_xid),
  );
  if (lag === 'none') return null;
  // Once, over the whole outbox (a week of it): not bound by the statement timeout of everyday statements.
  await manager.query('SET LOCAL statement_timeout = 0');
  const [done]: Array<{ relayed: number; due: number; written_here: number }> =
    lag === 'mark-ahead'
      ? await manager.query(REPAIR_MARK_AHEAD, [seen.mark_xid, seen.mark_id])
      : await manager.query(REPAIR_ROWS_AHEAD, [seen.next_xid]);
  return { lag, relayed: done.relayed, due: done.due, writtenHere: done.written_here };
}

/** The one line a repair logs. */
export function restoreRepairedLine(r: RestoreRepaired): string {
  return (
    `The outbox was restored from another PostgreSQL server whose transaction ids ran ahead of this one (${r.lag}); repaired once: ` +
    (`${r.relayed} outbox rows relayed there stay relayed, ${r.due} not yet relayed there and ${r.writtenHere} ` +
      `written here since the restore will be relayed.`)
  );
}

/**
 * Every process that writes the outbox checks once as it starts, before it serves: after a restore that
 * is before any write on the new server. The relay checks again whenever a pass finds nothing to read.
 */
@Injectable()
export class OutboxRestoreCheck implements OnApplicationBootstrap {
  private readonly logger = new Logger('OutboxRelay');

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async onApplicationBootstrap(): Promise<void> {
    try {
      const repaired = await this.dataSource.transaction((manager) => repairAfterRestore(manager, true));
      if (repaired) this.logger.warn(restoreRepairedLine(repaired));
    } catch (error) {
      this.logger.warn(`outbox restore check at start: ${(error as Error).message}; the relay checks again when idle`);
    }
  }
}
