// The only code that queries automations. Numbers count 1, 2, 3 per workspace: a transaction-scoped
// advisory lock per workspace makes concurrent creations take consecutive numbers.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { AutomationStep, AutomationTrigger } from './domain';

export type AutomationStatus = 'draft' | 'paused' | 'running';
export const AUTOMATION_STATUSES: readonly AutomationStatus[] = ['draft', 'paused', 'running'];

export interface AutomationRow {
  workspace_id: string;
  id: string;
  number: number;
  name: string;
  trigger: AutomationTrigger;
  steps: AutomationStep[];
  status: AutomationStatus;
  /**
   * Happenings of history that matched the trigger and started no run
   * (docs/decisions.md#history-starts-no-automation).
   */
  passed_over_history: number;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'workspace_id, id, number, name, trigger, steps, status, passed_over_history, created_at, updated_at';

@Injectable()
export class AutomationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  create(row: {
    workspaceId: string;
    id: string;
    name: string;
    trigger: AutomationTrigger;
    steps: AutomationStep[];
  }): Promise<AutomationRow> {
    return this.dataSource.transaction(async (m) => {
      await m.query(`SELECT pg_advisory_xact_lock(hashtextextended('automation-number:' || $1, 0))`, [row.workspaceId]);
      const [created] = await m.query(
        `INSERT INTO automations (workspace_id, id, number, name, trigger, steps)
         SELECT $1, $2, coalesce(max(number), 0) + 1, $3, $4::jsonb, $5::jsonb FROM automations WHERE workspace_id = $1
         RETURNING ${COLUMNS}`,
        [row.workspaceId, row.id, row.name, JSON.stringify(row.trigger), JSON.stringify(row.steps)],
      );
      return created;
    });
  }

  async update(
    workspaceId: string,
    id: string,
    changes: { name?: string; trigger?: AutomationTrigger; steps?: AutomationStep[]; status?: AutomationStatus },
  ): Promise<AutomationRow | null> {
    const [rows] = await this.dataSource.query(
      `UPDATE automations SET name = coalesce($3, name), trigger = coalesce($4::jsonb, trigger), steps = coalesce($5::jsonb, steps),
              status = coalesce($6, status), updated_at = now()
        WHERE workspace_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [
        workspaceId,
        id,
        changes.name ?? null,
        changes.trigger ? JSON.stringify(changes.trigger) : null,
        changes.steps ? JSON.stringify(changes.steps) : null,
        changes.status ?? null,
      ],
    );
    return rows[0] ?? null;
  }

  async get(workspaceId: string, id: string): Promise<AutomationRow | null> {
    const [row] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM automations WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, id],
    );
    return row ?? null;
  }

  /** By id alone: the start address names the automation before its workspace is known. */
  async byId(id: string): Promise<AutomationRow | null> {
    const [row] = await this.dataSource.query(`SELECT ${COLUMNS} FROM automations WHERE id = $1`, [id]);
    return row ?? null;
  }

  /** Adds to each automation's count of history passed over, in the relay's transaction (so once per happening). */
  async passOver(m: EntityManager, counts: Array<{ workspaceId: string; id: string; n: number }>): Promise<void> {
    if (counts.length === 0) return;
    await m.query(
      `UPDATE automations a SET passed_over_history = a.passed_over_history + x.n
         FROM unnest($1::text[], $2::text[], $3::int[]) AS x(workspace_id, id, n)
        WHERE a.workspace_id = x.workspace_id AND a.id = x.id`,
      [counts.map((c) => c.workspaceId), counts.map((c) => c.id), counts.map((c) => c.n)],
    );
  }

  list(workspaceId: string): Promise<AutomationRow[]> {
    return this.dataSource.query(`SELECT ${COLUMNS} FROM automations WHERE workspace_id = $1 ORDER BY number`, [
      workspaceId,
    ]);
  }
}
