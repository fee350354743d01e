// The only code here that stores and reads webhook replays (docs/webhooks.md#replaying-a-window): a replay is created
// by the api, taken by one worker at a time under a lease, moved on a page at a time (its cursor written in the
// transaction that stores the page's deliveries, so a happening is made into a delivery once per replay) and counted
// as its deliveries are sent. Leases are the injected clock's, passed as parameters.
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock, CLOCK, SYSTEM_CLOCK } from '@app/platform';
import { previousSecretSql } from './delivery-claims.repository';
import type { RelayEndpoint } from './happening-deliveries';

type ReplayState = 'queued' | 'running' | 'done';

export interface ReplayRow {
  workspace_id: string;
  id: string;
  endpoint_id: string;
  since: Date;
  until: Date;
  state: ReplayState;
  /** The deliveries the window makes for the address, as counted when the replay was asked for. */
  total: number;
  /** Deliveries made so far; `done` of them sent (or handed to the delivery queue). */
  made: number;
  done: number;
  /** The last happening made into deliveries; null before the first page. */
  after_id: string | null;
  created_at: Date;
  finished_at: Date | null;
}

const COLUMNS =
  'r.workspace_id, r.id, r.endpoint_id, r.since, r.until, r.state, r.total, r.made, r.done, r.after_id::text, ' +
  'r.created_at, r.finished_at';

@Injectable()
export class ReplaysRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(CLOCK) private readonly clock: Clock = SYSTEM_CLOCK,
  ) {}

  private now(): Date {
    return new Date(this.clock.now());
  }

  async create(
    row: Pick<ReplayRow, 'workspace_id' | 'id' | 'endpoint_id' | 'since' | 'until' | 'total'>,
  ): Promise<ReplayRow> {
    const [created] = await this.dataSource.query(
      `INSERT INTO webhook_replays AS r (workspace_id, id, endpoint_id, since, until, total, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
      [row.workspace_id, row.id, row.endpoint_id, row.since, row.until, row.total, this.now()],
    );
    return created;
  }

  /** The last `limit` replays of each of these addresses, newest first. */
  latestOf(workspaceId: string, endpointIds: readonly string[], limit: number): Promise<ReplayRow[]> {
    return this.dataSource.query(
      `SELECT ${COLUMNS} FROM unnest($2::text[]) AS e(id)
         CROSS JOIN LATERAL (SELECT * FROM webhook_replays x WHERE x.workspace_id = $1 AND x.endpoint_id = e.id
                              ORDER BY x.created_at DESC, x.id DESC LIMIT $3) r
        ORDER BY r.created_at DESC, r.id DESC`,
      [workspaceId, endpointIds, limit],
    );
  }

  /**
   * Takes the oldest unfinished replay of an enabled address that no worker holds, for `leaseMs`. What an earlier
   * holder made is counted sent: its first attempts are its claims' to finish, or the delivery poll's once they lapse.
   */
  async take(leaseMs: number): Promise<ReplayRow | null> {
    const [rows] = await this.dataSource.query(
      `UPDATE webhook_replays r SET state = 'running', done = r.made,
              runner_until = $1::timestamptz + $2::int * interval '1 millisecond'
        WHERE (r.workspace_id, r.id) = (
          SELECT x.workspace_id, x.id FROM webhook_replays x
            JOIN webhook_endpoints e ON e.workspace_id = x.workspace_id AND e.id = x.endpoint_id
           WHERE x.state <> 'done' AND (x.runner_until IS NULL OR x.runner_until < $1::timestamptz)
             AND e.disabled_at IS NULL
           ORDER BY x.created_at LIMIT 1 FOR UPDATE OF x SKIP LOCKED)
       RETURNING ${COLUMNS}`,
      [this.now(), leaseMs],
    );
    return (rows as ReplayRow[])[0] ?? null;
  }

  /** What a replay's first attempts send to its address, read again at each page; null once it is deleted. */
  async endpointOf(workspaceId: string, endpointId: string): Promise<RelayEndpoint | null> {
    const [row] = await this.dataSource.query(
      `SELECT e.workspace_id, e.id, e.triggers, e.disabled_at, e.url, e.secret_sealed, e.rate_limit_per_second,
              ${previousSecretSql('e')}
         FROM webhook_endpoints e WHERE e.workspace_id = $1 AND e.id = $2`,
      [workspaceId, endpointId],
    );
    return row ?? null;
  }

  /**
   * Moves the cursor past a page whose `made` deliveries the same transaction stores, and renews the lease; false when
   * the replay is no longer where this worker left it (another took it over), and the page must not be stored.
   */
  async advance(
    manager: EntityManager,
    replay: Pick<ReplayRow, 'workspace_id' | 'id' | 'after_id'>,
    afterId: string,
    made: number,
    leaseMs: number,
  ): Promise<boolean> {
    const [, count] = await manager.query(
      `UPDATE webhook_replays SET after_id = $4::bigint, made = made + $5,
              runner_until = $6::timestamptz + $7::int * interval '1 millisecond'
        WHERE workspace_id = $1 AND id = $2 AND state = 'running' AND after_id IS NOT DISTINCT FROM $3::bigint`,
      [replay.workspace_id, replay.id, replay.after_id, afterId, made, this.now(), leaseMs],
    );
    return count > 0;
  }

  /** Counts deliveries sent (never past those made). */
  async addDone(workspaceId: string, id: string, sent: number): Promise<void> {
    if (sent === 0) return;
    await this.dataSource.query(
      `UPDATE webhook_replays SET done = least(made, done + $3) WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, id, sent],
    );
  }

  /** The window is read to its end and every delivery sent: done, its total what it made. */
  async finish(workspaceId: string, id: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE webhook_replays SET state = 'done', total = made, done = made, runner_until = NULL, finished_at = $3
        WHERE workspace_id = $1 AND id = $2 AND state = 'running'`,
      [workspaceId, id, this.now()],
    );
  }

  /** Gives the lease back (shutdown, or the address was disabled): another worker, or a later take, goes on. */
  async release(workspaceId: string, id: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE webhook_replays SET runner_until = NULL WHERE workspace_id = $1 AND id = $2 AND state = 'running'`,
      [workspaceId, id],
    );
  }
}
