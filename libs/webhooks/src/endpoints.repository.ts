// The only code here that queries webhook_endpoints.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

export interface EndpointRow {
  workspace_id: string;
  id: string;
  url: string;
  triggers: string[];
  secret_sealed: string;
  created_at: Date;
}

const COLUMNS = 'workspace_id, id, url, triggers, secret_sealed, created_at';

@Injectable()
export class EndpointsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Adds an endpoint unless the workspace already has `limit`; null when it has. The workspace row is
   * locked for the count, so two simultaneous additions cannot both pass the limit.
   */
  async createWithin(limit: number, row: Omit<EndpointRow, 'created_at'>): Promise<EndpointRow | null> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT 1 FROM workspaces WHERE id = $1 FOR UPDATE`, [row.workspace_id]);
      const [{ n }] = await manager.query(`SELECT count(*)::int AS n FROM webhook_endpoints WHERE workspace_id = $1`, [row.workspace_id]);
      if (n >= limit) return null;
      const [created] = await manager.query(
        `INSERT INTO webhook_endpoints (workspace_id, id, url, triggers, secret_sealed) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
        [row.workspace_id, row.id, row.url, row.triggers, row.secret_sealed],
      );
      return created as EndpointRow;
    });
  }

  async list(workspaceId: string): Promise<EndpointRow[]> {
    return this.dataSource.query(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE workspace_id = $1 ORDER BY created_at, id`, [workspaceId]);
  }

  async get(workspaceId: string, id: string): Promise<EndpointRow | null> {
    const [row] = await this.dataSource.query(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE workspace_id = $1 AND id = $2`, [workspaceId, id]);
    return row ?? null;
  }

  async update(workspaceId: string, id: string, changes: { url?: string; triggers?: string[] }): Promise<EndpointRow | null> {
    const [rows] = await this.dataSource.query(
      `UPDATE webhook_endpoints SET url = COALESCE($3, url), triggers = COALESCE($4, triggers)
        WHERE workspace_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [workspaceId, id, changes.url ?? null, changes.triggers ?? null],
    );
    return rows?.[0] ?? null;
  }

  /** Removes the endpoint with its delivery log (attempts go with their deliveries). */
  /** Deletes the address; its deliveries and their attempts go with it (foreign keys, ON DELETE CASCADE). */
  async delete(workspaceId: string, id: string): Promise<boolean> {
    const [, count] = await this.dataSource.query(`DELETE FROM webhook_endpoints WHERE workspace_id = $1 AND id = $2`, [workspaceId, id]);
    return count > 0;
  }

  /** The endpoints of these workspaces, read inside the relay's transaction. */
  async ofWorkspaces(manager: EntityManager, workspaceIds: string[]): Promise<Array<Pick<EndpointRow, 'workspace_id' | 'id' | 'triggers'>>> {
    return manager.query(`SELECT workspace_id, id, triggers FROM webhook_endpoints WHERE workspace_id = ANY($1::text[])`, [workspaceIds]);
  }
}
