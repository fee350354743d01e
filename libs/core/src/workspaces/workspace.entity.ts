import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity('workspaces')
export class WorkspaceEntity {
  @PrimaryColumn('text') id: string;
  @Column('text') slug: string;
  @Column('text') name: string;
  @Column('text', { name: 'public_key' }) publicKey: string;
  @Column('text') kind: 'app' | 'web';
  @Column('text', { name: 'allowed_origins', array: true }) allowedOrigins: string[];
  @Column('boolean', { name: 'trial_stage' }) trialStage: boolean;
  @Column('boolean', { name: 'downloader_stage' }) downloaderStage: boolean;
  @Column('text', { name: 'activation_events', array: true }) activationEvents: string[];
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}

export type MemberRole = 'owner' | 'admin' | 'member';

@Entity('members')
export class MemberEntity {
  @PrimaryColumn('text', { name: 'workspace_id' }) workspaceId: string;
  @PrimaryColumn('text') id: string;
  @Column('text') email: string;
  @Column('text') role: MemberRole;
  @Column('timestamptz', { name: 'removed_at', nullable: true }) removedAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}

@Entity('api_keys')
export class ApiKeyEntity {
  @PrimaryColumn('text', { name: 'workspace_id' }) workspaceId: string;
  @PrimaryColumn('text') id: string;
  @Column('text', { name: 'member_id' }) memberId: string;
  /** SHA-256 of the whole secret key; the key itself is shown once and never stored. */
  @Column('text', { name: 'key_hash' }) keyHash: string;
  /** The last four characters, to tell keys apart in a list. */
  @Column('text') hint: string;
  @Column('timestamptz', { name: 'revoked_at', nullable: true }) revokedAt: Date | null;
  @Column('timestamptz', { name: 'last_used_at', nullable: true }) lastUsedAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
