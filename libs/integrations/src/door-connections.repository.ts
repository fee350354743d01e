// The only code that queries door_connections: a workspace's connected third-party doors.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { DoorKind } from './domain';

export interface DoorRow {
  workspace_id: string;
  id: string;
  kind: DoorKind;
  secret_sealed: string | null;
  domain: string | null;
  options: { stars?: boolean };
  created_at: Date;
}

const COLUMNS = 'workspace_id, id, kind, secret_sealed, domain, options, created_at';

@Injectable()
export class DoorConnectionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  async insert(row: Omit<DoorRow, 'created_at'> & { token_hash: string }): Promise<DoorRow> {
    const [created] = await this.dataSource.query(
      `INSERT INTO door_connections (workspace_id, id, kind, token_hash, secret_sealed, domain, options)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
      [row.workspace_id, row.id, row.kind, row.token_hash, row.secret_sealed, row.domain, JSON.stringify(row.options)],
    );
    return created;
  }

  /** The door whose path token hashes to this; looked up before its workspace is known. */
  async byTokenHash(tokenHash: string): Promise<DoorRow | null> {
    const [row] = await this.dataSource.query(`SELECT ${COLUMNS} FROM door_connections WHERE token_hash = $1`, [
      tokenHash,
    ]);
    return row ?? null;
  }

  /** One door of the workspace with its token's hash (to check a derived token against). */
  async withTokenHash(workspaceId: string, id: string): Promise<(DoorRow & { token_hash: string }) | null> {
    const [row] = await this.dataSource.query(
      `SELECT ${COLUMNS}, token_hash FROM door_connections WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, id],
    );
    return row ?? null;
  }

  list(workspaceId: string): Promise<DoorRow[]> {
    return this.dataSource.query(
      `SELECT ${COLUMNS} FROM door_connections WHERE workspace_id = $1 ORDER BY created_at, id`,
      [workspaceId],
    );
  }

  async delete(m: EntityManager, workspaceId: string, id: string): Promise<boolean> {
    const [, count]: [unknown, number] = await m.query(
      `DELETE FROM door_connections WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, id],
    );
    return count === 1;
  }
}
