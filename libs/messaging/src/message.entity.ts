import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One email, sent or received; its id is also its row on the person's timeline. */
@Entity('messages')
export class MessageEntity {
  @PrimaryColumn('text', { name: 'workspace_id' }) workspaceId: string;
  @PrimaryColumn('text') id: string;
  @Column('text', { name: 'person_id' }) personId: string;
  @Column('text') direction: 'in' | 'out';
  @Column('timestamptz') at: Date;
  @Column('text') subject: string;
  @Column('text') text: string;
  @Column('text', { nullable: true }) html: string | null;
  @Column('text', { name: 'template_id', nullable: true }) templateId: string | null;
  @Column('text', { name: 'send_state' }) sendState: string;
  @Column('text', { name: 'send_error', nullable: true }) sendError: string | null;
  @Column('text', { name: 'provider_id', nullable: true }) providerId: string | null;
  @Column('text', { nullable: true }) status: string | null;
  @Column('timestamptz', { name: 'status_at', nullable: true }) statusAt: Date | null;
  @Column('text', { nullable: true }) address: string | null;
  @Column('timestamptz', { name: 'sending_since', nullable: true }) sendingSince: Date | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
}

@Entity('templates')
export class TemplateEntity {
  @PrimaryColumn('text', { name: 'workspace_id' }) workspaceId: string;
  @PrimaryColumn('text') id: string;
  @Column('text') name: string;
  @Column('text') subject: string;
  @Column('text') body: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
}
