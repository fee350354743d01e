import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { ApiKeyEntity, MemberEntity, WorkspaceEntity } from './workspace.entity';

export interface KeyOwner {
  workspace: WorkspaceEntity;
  member: MemberEntity;
  keyId: string;
}

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

  /** Keys of a workspace with their member's email; only the hint of each, never a hash. */
  async listKeys(workspaceId: string): Promise<Array<{ id: string; hint: string; email: string; role: string; revokedAt: Date | null; createdAt: Date }>> {
    const rows: Array<{ id: string; hint: string; email: string; role: string; revoked_at: Date | null; created_at: Date }> = await this.dataSource.query(
      `SELECT k.id, k.hint, m.email, m.role, k.revoked_at, k.created_at
         FROM api_keys k JOIN members m ON m.workspace_id = k.workspace_id AND m.id = k.member_id
        WHERE k.workspace_id = $1 ORDER BY k.created_at, k.id`,
      [workspaceId],
    );
    return rows.map((r) => ({ id: r.id, hint: r.hint, email: r.email, role: r.role, revokedAt: r.revoked_at, createdAt: r.created_at }));
  }

  async countWorkspaces(): Promise<number> {
    return this.dataSource.getRepository(WorkspaceEntity).count();
  }

  findMember(workspaceId: string, email: string, manager?: EntityManager): Promise<MemberEntity | null> {
    return (manager ?? this.dataSource.manager).getRepository(MemberEntity).findOneBy({ workspaceId, email });
  }

  /** The key's workspace and member, or null for an unknown or revoked key. */
  async findKeyOwner(keyHash: string): Promise<KeyOwner | null> {
    const key = await this.dataSource.getRepository(ApiKeyEntity).findOneBy({ keyHash, revokedAt: IsNull() });
    if (!key) return null;
    const [workspace, member] = await Promise.all([
      this.dataSource.getRepository(WorkspaceEntity).findOneBy({ id: key.workspaceId }),
      this.dataSource.getRepository(MemberEntity).findOneBy({ workspaceId: key.workspaceId, id: key.memberId }),
    ]);
    if (!workspace || !member) return null;
    return { workspace, member, keyId: key.id };
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

  async markMemberRemoved(workspaceId: string, memberId: string): Promise<void> {
    await this.dataSource.getRepository(MemberEntity).update({ workspaceId, id: memberId }, { removedAt: new Date() });
  }

  async keyHashesOfMember(workspaceId: string, memberId: string): Promise<string[]> {
    const keys = await this.dataSource.getRepository(ApiKeyEntity).findBy({ workspaceId, memberId });
    return keys.map((k) => k.keyHash);
  }

  async updateSettings(id: string, settings: Partial<WorkspaceEntity>): Promise<WorkspaceEntity> {
    await this.dataSource.getRepository(WorkspaceEntity).update({ id }, settings);
    return this.dataSource.getRepository(WorkspaceEntity).findOneByOrFail({ id });
  }
}
