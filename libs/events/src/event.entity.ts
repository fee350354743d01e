import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A row of a person's timeline: a posted event or one of the service's own kinds. */
@Entity('events')
export class EventEntity {
  @PrimaryColumn('text', { name: 'workspace_id' }) workspaceId: string;
  @PrimaryColumn('text') id: string;
  @PrimaryColumn('timestamptz', { name: 'occurred_at' }) occurredAt: Date;
  @Column('text', { name: 'person_id' }) personId: string;
  @Column('text') type: string;
  @Column('numeric', { nullable: true }) value: string | null;
  @Column('jsonb', { nullable: true }) properties: Record<string, unknown> | null;
  @Column('text', { nullable: true }) detail: string | null;
  @Column('jsonb', { nullable: true }) source: Record<string, unknown> | null;
  @Column('timestamptz', { name: 'expires_at', nullable: true }) expiresAt: Date | null;
  @Column('timestamptz', { name: 'received_at' }) receivedAt: Date;
}

@Entity('event_names')
export class EventNameEntity {
  @PrimaryColumn('text', { name: 'workspace_id' }) workspaceId: string;
  @PrimaryColumn('text') name: string;
  @Column('timestamptz', { name: 'first_seen_at' }) firstSeenAt: Date;
}

@Entity('heartbeat')
export class HeartbeatEntity {
  @PrimaryColumn('text', { name: 'workspace_id' }) workspaceId: string;
  @PrimaryColumn('timestamptz') minute: Date;
  @PrimaryColumn('text') action: string;
  @PrimaryColumn('text') answer: string;
  @PrimaryColumn('text') origin: string;
  @Column('integer') count: number;
}
