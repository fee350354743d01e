import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { preparedPoolQuery } from '../database/prepared';
import { ApiKeyEntity, MemberEntity, MemberRole, WorkspaceEntity } from './workspace.entity';

export interface KeyOwnerRow {
  key_hash: string;
  key_id: string;
  revoked_at: Date | null;
  last_used_at: Date | null;
  workspace_id: string;
  workspace_slug: string;
  member_id: string;
  member_email: string;
  role: MemberRole;
  removed_at: Date | null;
}

export interface KeyListRow {
  id: string;
  hint: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  member_id: string;
  member_email: string;
}

// Prepared once per connection: planning this join took longer than running it.
const KEY_OWNERS = `SELECT k.key_hash, k.id AS key_id, k.revoked_at, k.last_used_at, w.id AS workspace_id, w.slug AS workspace_slug,
       m.id AS member_id, m.email AS member_email, m.role, m.removed_at
  FROM api_keys k
  JOIN workspaces w ON w.id = k.workspace_id
  JOIN members m ON m.workspace_id = k.workspace_id AND m.id = k.member_id
 WHERE k.key_hash = ANY($1::text[])`;

@Injectable()
export class WorkspacesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  findBySlug(slug: string): Promise<WorkspaceEntity | null> {
    return this.dataSource.getRepository(WorkspaceEntity).findOneBy({ slug });
  }

  findById(id: string): Promise<WorkspaceEntity | null> {
    return this.dataSource.getRepository(WorkspaceEntity).findOneBy({ id });
  }

  findByPublicKey(publicKey: string): Promise<WorkspaceEntity | null> {
    return this.dataSource.getRepository(WorkspaceEntity).findOneBy({ publicKey });
  }

  listWorkspaces(): Promise<WorkspaceEntity[]> {
    return this.dataSource.getRepository(WorkspaceEntity).find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async countWorkspaces(): Promise<number> {
    return this.dataSource.getRepository(WorkspaceEntity).count();
  }

  findMember(workspaceId: string, email: string, manager?: EntityManager): Promise<MemberEntity | null> {
    return (manager ?? this.dataSource.manager).getRepository(MemberEntity).findOneBy({ workspaceId, email });
  }

  /**
   * Each key's workspace and member in one statement, revoked keys and removed members included
   * (the guard tells those apart). Read on every request: nothing caches a key.
   */
  findKeyOwners(keyHashes: readonly string[]): Promise<KeyOwnerRow[]> {
    return preparedPoolQuery(this.dataSource, 'key_owners', KEY_OWNERS, [keyHashes]);
  }

  async touchKeys(keys: Array<{ workspaceId: string; keyId: string }>): Promise<void> {
    if (keys.length === 0) return;
    await this.dataSource.query(
      `UPDATE api_keys k SET last_used_at = now() FROM jsonb_to_recordset($1::jsonb) AS x(workspace_id text, id text)
        WHERE k.workspace_id = x.workspace_id AND k.id = x.id`,
      [JSON.stringify(keys.map((k) => ({ workspace_id: k.workspaceId, id: k.keyId })))],
    );
  }

  listMembers(workspaceId: string): Promise<MemberEntity[]> {
    return this.dataSource.getRepository(MemberEntity).find({ where: { workspaceId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Keys with their member's email, newest first; never the hash. */
  listKeys(workspaceId: string): Promise<KeyListRow[]> {
    return this.dataSource.query(
      `SELECT k.id, k.hint, k.created_at, k.last_used_at, k.revoked_at, m.id AS member_id, m.email AS member_email
         FROM api_keys k JOIN members m ON m.workspace_id = k.workspace_id AND m.id = k.member_id
        WHERE k.workspace_id = $1 ORDER BY k.created_at DESC, k.id DESC`,
      [workspaceId],
    );
  }

  /** The active owners' ids, locked until the transaction ends, so two demotions cannot both pass. */
  async lockActiveOwners(manager: EntityManager, workspaceId: string): Promise<string[]> {
    const rows: Array<{ id: string }> = await manager.query(
      `SELECT id FROM members WHERE workspace_id = $1 AND role = 'owner' AND removed_at IS NULL ORDER BY id FOR UPDATE`,
      [workspaceId],
    );
    return rows.map((r) => r.id);
  }

  async setRole(manager: EntityManager, workspaceId: string, memberId: string, role: MemberRole): Promise<void> {
    await manager.getRepository(MemberEntity).update({ workspaceId, id: memberId }, { role });
  }

  /** Back in the workspace with a role; keys revoked at removal stay revoked. */
  async restoreMember(manager: EntityManager, workspaceId: string, memberId: string, role: MemberRole): Promise<void> {
    await manager.getRepository(MemberEntity).update({ workspaceId, id: memberId }, { role, removedAt: null });
  }

  /** Removed, with every key of theirs revoked in the same transaction. */
  async markMemberRemoved(manager: EntityManager, workspaceId: string, memberId: string): Promise<void> {
    await manager.getRepository(MemberEntity).update({ workspaceId, id: memberId }, { removedAt: new Date() });
    await manager.query(`UPDATE api_keys SET revoked_at = now() WHERE workspace_id = $1 AND member_id = $2 AND revoked_at IS NULL`, [workspaceId, memberId]);
  }

  /** True when the key was live and is now revoked. */
  async revokeKey(workspaceId: string, keyId: string): Promise<boolean> {
    const result: [unknown[], number] = await this.dataSource.query(
      `UPDATE api_keys SET revoked_at = now() WHERE workspace_id = $1 AND id = $2 AND revoked_at IS NULL`,
      [workspaceId, keyId],
    );
    return result[1] > 0;
  }

  async keyExists(workspaceId: string, keyId: string): Promise<boolean> {
    return (await this.dataSource.getRepository(ApiKeyEntity).countBy({ workspaceId, id: keyId })) > 0;
  }

  insertWorkspace(manager: EntityManager, row: Partial<WorkspaceEntity>): Promise<unknown> {
    return manager.getRepository(WorkspaceEntity).insert(row);
  }

  insertMember(manager: EntityManager, row: Partial<MemberEntity>): Promise<unknown> {
    return manager.getRepository(MemberEntity).insert(row);
  }

  insertKey(manager: EntityManager, row: Partial<ApiKeyEntity>): Promise<unknown> {
    return manager.getRepository(ApiKeyEntity).insert(row);
  }

  async updateSettings(id: string, settings: Partial<WorkspaceEntity>): Promise<WorkspaceEntity> {
    await this.dataSource.getRepository(WorkspaceEntity).update({ id }, settings);
    return this.dataSource.getRepository(WorkspaceEntity).findOneByOrFail({ id });
  }
}
