import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity('people')
export class PersonEntity {
  @PrimaryColumn('text', { name: 'workspace_id' }) workspaceId: string;
  @PrimaryColumn('text') id: string;
  @Column('text', { nullable: true }) name: string | null;
  @Column('text', { nullable: true }) email: string | null;
  @Column('text', { nullable: true }) stage: string | null;
  @Column('timestamptz', { name: 'stage_changed_at', nullable: true }) stageChangedAt: Date | null;
  @Column('integer') purchases: number;
  @Column('timestamptz', { name: 'engaged_at', nullable: true }) engagedAt: Date | null;
  @Column('text', { nullable: true }) os: string | null;
  @Column('jsonb') fields: Record<string, string | number>;
  @Column('jsonb', { name: 'first_touch', nullable: true }) firstTouch: Record<string, unknown> | null;
  @Column('timestamptz', { name: 'first_touch_at', nullable: true }) firstTouchAt: Date | null;
  @Column('text', { name: 'merged_into', nullable: true }) mergedInto: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt: Date;
}

@Entity('identities')
export class IdentityEntity {
  @PrimaryColumn('text', { name: 'workspace_id' }) workspaceId: string;
  @PrimaryColumn('text') kind: 'email' | 'anon_id' | 'account_id';
  @PrimaryColumn('text') value: string;
  @Column('text', { name: 'person_id' }) personId: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}

@Entity('lists')
export class ListEntity {
  @PrimaryColumn('text', { name: 'workspace_id' }) workspaceId: string;
  @PrimaryColumn('text') id: string;
  @Column('text') address: string;
  @Column('text') name: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}

@Entity('subscriptions')
export class SubscriptionEntity {
  @PrimaryColumn('text', { name: 'workspace_id' }) workspaceId: string;
  @PrimaryColumn('text', { name: 'list_id' }) listId: string;
  @PrimaryColumn('text', { name: 'person_id' }) personId: string;
  @Column('text') status: 'subscribed' | 'unsubscribed';
  /** The consent exactly as posted: a string or {text, ip?, granted_at?}. */
  @Column('jsonb') consent: unknown;
  @Column('text', { name: 'consent_text' }) consentText: string;
  @Column('text', { name: 'consent_ip', nullable: true }) consentIp: string | null;
  @Column('timestamptz', { name: 'granted_at' }) grantedAt: Date;
  @Column('text', { name: 'source_label', nullable: true }) sourceLabel: string | null;
  @Column('jsonb', { nullable: true }) source: Record<string, unknown> | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column('timestamptz', { name: 'unsubscribed_at', nullable: true }) unsubscribedAt: Date | null;
}
