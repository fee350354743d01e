// The only code that reads and writes workspace_limits and limit_peaks (docs/operations.md#limits).
import type { LimitPeak, SqlDatabase } from '@app/platform';

export interface LimitOverrideRow {
  limit_name: string;
  per_ten_minutes: number;
}

/** A key's fullest window of the day: what it spent of the figure it had then, and the posts refused all day. */
export interface LimitPeakRow {
  limit_name: string;
  key: string;
  used: number;
  bound: number;
  refused: number;
  window_start: Date;
}

export class WorkspaceLimitsRepository {
  constructor(private readonly db: SqlDatabase) {}

  overrides(workspaceId: string): Promise<LimitOverrideRow[]> {
    return this.db.query(`SELECT limit_name, per_ten_minutes FROM workspace_limits WHERE workspace_id = $1`, [
      workspaceId,
    ]);
  }

  async set(workspaceId: string, limit: string, perTenMinutes: number): Promise<void> {
    await this.db.query(
      `INSERT INTO workspace_limits (workspace_id, limit_name, per_ten_minutes) VALUES ($1, $2, $3)
       ON CONFLICT (workspace_id, limit_name) DO UPDATE SET per_ten_minutes = EXCLUDED.per_ten_minutes, set_at = now()`,
      [workspaceId, limit, perTenMinutes],
    );
  }

  async reset(workspaceId: string, limit: string): Promise<void> {
    await this.db.query(`DELETE FROM workspace_limits WHERE workspace_id = $1 AND limit_name = $2`, [
      workspaceId,
      limit,
    ]);
  }

  async addPeaks(peaks: LimitPeak[]): Promise<void> {
    if (peaks.length === 0) return;
    const rows = peaks.map((p) => [p.workspaceId, p.limit, p.key, p.window, p.used, p.bound, p.refused]);
    await this.db.query(
      `INSERT INTO limit_peaks (workspace_id, limit_name, key, window_start, used, bound, refused)
       SELECT x->>0, x->>1, x->>2, (x->>3)::timestamptz, (x->>4)::int, (x->>5)::int, (x->>6)::int
         FROM jsonb_array_elements($1::jsonb) AS x
       ON CONFLICT (workspace_id, limit_name, key, window_start) DO UPDATE
         SET used = GREATEST(limit_peaks.used, EXCLUDED.used), bound = EXCLUDED.bound,
             refused = limit_peaks.refused + EXCLUDED.refused`,
      [JSON.stringify(rows)],
    );
  }

  /** Each key's fullest window since `since` (the most spent of its figure), with its refusals since then. */
  peaks(workspaceId: string, since: Date): Promise<LimitPeakRow[]> {
    return this.db.query(
      `SELECT DISTINCT ON (limit_name, key) limit_name, key, used, bound, window_start,
              (SUM(refused) OVER (PARTITION BY limit_name, key))::int AS refused
         FROM limit_peaks WHERE workspace_id = $1 AND window_start >= $2
        ORDER BY limit_name, key, used::float / bound DESC, window_start DESC`,
      [workspaceId, since.toISOString()],
    );
  }

  async deletePeaksBefore(before: Date): Promise<number> {
    const rows = await this.db.query<{ n: number }>(
      `WITH gone AS (DELETE FROM limit_peaks WHERE window_start < $1 RETURNING 1) SELECT count(*)::int AS n FROM gone`,
      [before.toISOString()],
    );
    return rows[0]?.n ?? 0;
  }
}
