// The only code here that queries webhook_endpoints and webhook_endpoint_health.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { WorkspacesRepository } from '@app/workspaces';
import { EndpointHealthState, HEALTH_BUCKET_MS, HealthTally, nextEndpointHealth } from './domain/endpoint-health';

export interface EndpointRow {
  workspace_id: string;
  id: string;
  url: string;
  triggers: string[];
  secret_sealed: string;
  rate_limit_per_second: number | null;
  disabled_at: Date | null;
  disabled_reason: string | null;
  last_success_at: Date | null;
  created_at: Date;
}

export interface EndpointSuccessRate {
  endpoint_id: string;
  succeeded: number;
  failed: number;
}

const COLUMNS =
  'workspace_id, id, url, triggers, secret_sealed, rate_limit_per_second, disabled_at, disabled_reason, ' +
  'last_success_at, created_at';

@Injectable()
export class EndpointsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly workspaces: WorkspacesRepository,
  ) {}

  /**
   * Adds an endpoint unless the workspace already has `limit`; null when it has. The workspace row is
   * locked for the count (by the workspaces lib), so two simultaneous additions cannot both pass the limit.
   */
  async createWithin(
    limit: number,
    row: Pick<EndpointRow, 'workspace_id' | 'id' | 'url' | 'triggers' | 'secret_sealed' | 'rate_limit_per_second'>,
  ): Promise<EndpointRow | null> {
    return this.dataSource.transaction(async (manager) => {
      await this.workspaces.lockWorkspace(manager, row.workspace_id);
      const [{ n }] = await manager.query(`SELECT count(*)::int AS n FROM webhook_endpoints WHERE workspace_id = $1`, [
        row.workspace_id,
      ]);
      if (n >= limit) return null;
      const [created] = await manager.query(
        `INSERT INTO webhook_endpoints (workspace_id, id, url, triggers, secret_sealed, rate_limit_per_second) ` +
          `VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
        [row.workspace_id, row.id, row.url, row.triggers, row.secret_sealed, row.rate_limit_per_second],
      );
      return created as EndpointRow;
    });
  }

  async list(workspaceId: string): Promise<EndpointRow[]> {
    return this.dataSource.query(
      `SELECT ${COLUMNS} FROM webhook_endpoints WHERE workspace_id = $1 ORDER BY created_at, id`,
      [workspaceId],
    );
  }

  async get(workspaceId: string, id: string): Promise<EndpointRow | null> {
    const [row] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM webhook_endpoints WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, id],
    );
    return row ?? null;
  }

  /** rateLimitPerSecond: undefined keeps it, null removes it. */
  async update(
    workspaceId: string,
    id: string,
    changes: { url?: string; triggers?: string[]; rateLimitPerSecond?: number | null },
  ): Promise<EndpointRow | null> {
    const [rows] = await this.dataSource.query(
      `UPDATE webhook_endpoints SET url = COALESCE($3, url), triggers = COALESCE($4, triggers),
              rate_limit_per_second = CASE WHEN $5 THEN $6::int ELSE rate_limit_per_second END
        WHERE workspace_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [
        workspaceId,
        id,
        changes.url ?? null,
        changes.triggers ?? null,
        changes.rateLimitPerSecond !== undefined,
        changes.rateLimitPerSecond ?? null,
      ],
    );
    return rows?.[0] ?? null;
  }

  /** A new secret; the one it replaces keeps signing until `previousUntil`. */
  async rotateSecret(workspaceId: string, id: string, sealed: string, previousUntil: Date): Promise<boolean> {
    const [, count] = await this.dataSource.query(
      `UPDATE webhook_endpoints
        SET previous_secret_sealed = secret_sealed, previous_secret_until = $4, secret_sealed = $3
        WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, id, sealed, previousUntil],
    );
    return count > 0;
  }

  /** Disables the address unless it already is (the first reason stays); true when this call did. */
  async disable(workspaceId: string, id: string, reason: string): Promise<boolean> {
    const [, count] = await this.dataSource.query(
      `UPDATE webhook_endpoints SET disabled_at = now(), disabled_reason = $3 WHERE workspace_id = $1 AND id = ` +
        `$2 AND disabled_at IS NULL`,
      [workspaceId, id, reason],
    );
    return count > 0;
  }

  /** Enabled again with a clean slate: failures before now no longer count toward disabling it. */
  async enable(workspaceId: string, id: string): Promise<EndpointRow | null> {
    const [rows] = await this.dataSource.query(
      `UPDATE webhook_endpoints SET disabled_at = NULL, disabled_reason = NULL, failing_since = NULL
        WHERE workspace_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [workspaceId, id],
    );
    return rows?.[0] ?? null;
  }

  /** Deletes the address; its deliveries and their attempts go with it (foreign keys, ON DELETE CASCADE). */
  async delete(workspaceId: string, id: string): Promise<boolean> {
    const [, count] = await this.dataSource.query(`DELETE FROM webhook_endpoints WHERE workspace_id = $1 AND id = $2`, [
      workspaceId,
      id,
    ]);
    return count > 0;
  }

  /** Attempts that succeeded and failed per address since `since` (the success rate). */
  async successCounts(
    workspaceId: string,
    endpointIds: readonly string[],
    since: Date,
  ): Promise<EndpointSuccessRate[]> {
    return this.dataSource.query(
      `SELECT endpoint_id, sum(succeeded)::int AS succeeded, sum(failed)::int AS failed FROM webhook_endpoint_health
        WHERE workspace_id = $1 AND endpoint_id = ANY($2::text[]) AND bucket >= $3 GROUP BY endpoint_id`,
      [workspaceId, endpointIds, new Date(Math.floor(since.getTime() / HEALTH_BUCKET_MS) * HEALTH_BUCKET_MS)],
    );
  }

  /**
   * Adds attempt outcomes to the addresses' health and disables those failing for `windowMs`. Rows are
   * locked in key order, so workers flushing at once wait for each other instead of deadlocking.
   * Returns the addresses this flush disabled.
   */
  async recordHealth(
    tallies: HealthTally[],
    now: Date,
    windowMs: number,
    reasonFor: (failingSince: Date) => string,
  ): Promise<Array<{ workspaceId: string; endpointId: string }>> {
    if (tallies.length === 0) return [];
    return this.dataSource.transaction(async (manager) => {
      const current: Array<EndpointHealthState & { workspace_id: string; id: string }> = await manager.query(
        `SELECT e.workspace_id, e.id, e.last_success_at AS "lastSuccessAt", e.failing_since AS "failingSince",
          e.disabled_at IS NOT NULL AS disabled
           FROM webhook_endpoints e JOIN unnest($1::text[], $2::text[]) AS k(w, i) ON e.workspace_id = k.w
             AND e.id = k.i
          ORDER BY e.workspace_id, e.id FOR UPDATE OF e`,
        [tallies.map((t) => t.workspaceId), tallies.map((t) => t.endpointId)],
      );
      const byKey = new Map(current.map((row) => [`${row.workspace_id}/${row.id}`, row]));
      const next = tallies.flatMap((tally) => {
        const state = byKey.get(`${tally.workspaceId}/${tally.endpointId}`);
        // a deleted address has no health
        return state ? [{ tally, ...nextEndpointHealth(state, tally, now, windowMs) }] : [];
      });
      if (next.length === 0) return [];
      await manager.query(
        `UPDATE webhook_endpoints e SET last_success_at = u.ls, failing_since = u.fs,
                disabled_at = CASE WHEN u.disable THEN $6::timestamptz ELSE e.disabled_at END,
                disabled_reason = CASE WHEN u.disable THEN u.reason ELSE e.disabled_reason END
           FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::timestamptz[], $5::bool[], $7::text[]) AS u(w, i,
             ls, fs, disable, reason)
          WHERE e.workspace_id = u.w AND e.id = u.i`,
        [
          next.map((n) => n.tally.workspaceId),
          next.map((n) => n.tally.endpointId),
          next.map((n) => n.lastSuccessAt),
          next.map((n) => n.failingSince),
          next.map((n) => n.disable),
          now,
          next.map((n) => (n.disable ? reasonFor(n.failingSince!) : null)),
        ],
      );
      await addCounts(
        manager,
        next.map((n) => n.tally),
      );
      return next
        .filter((n) => n.disable)
        .map((n) => ({ workspaceId: n.tally.workspaceId, endpointId: n.tally.endpointId }));
    });
  }

  /** Retention of the health counts: only the last day is read. */
  async deleteHealthBefore(before: Date): Promise<number> {
    const [, count] = await this.dataSource.query(`DELETE FROM webhook_endpoint_health WHERE bucket < $1`, [before]);
    return count;
  }
}

/** Adds the tallies' attempt counts to their addresses' 5-minute buckets. */
async function addCounts(manager: EntityManager, tallies: HealthTally[]): Promise<void> {
  const buckets = tallies.flatMap((t) =>
    t.buckets.map((b) => ({ ...b, workspaceId: t.workspaceId, endpointId: t.endpointId })),
  );
  await manager.query(
    `INSERT INTO webhook_endpoint_health (workspace_id, endpoint_id, bucket, succeeded, failed)
     SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::int[], $5::int[])
     ON CONFLICT (workspace_id, endpoint_id, bucket) DO UPDATE
       SET succeeded = webhook_endpoint_health.succeeded + EXCLUDED.succeeded,
         failed = webhook_endpoint_health.failed + EXCLUDED.failed`,
    [
      buckets.map((b) => b.workspaceId),
      buckets.map((b) => b.endpointId),
      buckets.map((b) => new Date(b.bucket)),
      buckets.map((b) => b.succeeded),
      buckets.map((b) => b.failed),
    ],
  );
}
