// Reads for the GraphQL admin API and other contexts (messaging, webhooks).
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PERSON_COLUMNS as COLUMNS, type PersonRow } from './people.repository';

export interface PersonFilter {
  stage?: string;
  email?: string;
  engaged?: boolean;
  first: number;
}

export interface SubscriptionRead {
  person_id: string;
  list_id: string;
  address: string;
  name: string;
  status: string;
  consent: unknown;
  consent_text: string;
  consent_ip: string | null;
  granted_at: Date;
  source_label: string | null;
}

@Injectable()
export class PeopleReadRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A person by record id; an id that was merged away leads to the person it became. */
  async byId(workspaceId: string, id: string): Promise<PersonRow | null> {
    let current = id;
    for (let hop = 0; hop < 10; hop++) {
      const [row] = await this.dataSource.query(`SELECT ${COLUMNS} FROM people WHERE workspace_id = $1 AND id = $2`, [workspaceId, current]);
      if (!row) return null;
      if (!row.merged_into) return row;
      current = row.merged_into;
    }
    return null;
  }

  async byEmail(workspaceId: string, email: string): Promise<PersonRow | null> {
    const [row] = await this.dataSource.query(
      `SELECT p.${COLUMNS.split(', ').join(', p.')} FROM identities i JOIN people p ON p.workspace_id = i.workspace_id AND p.id = i.person_id
        WHERE i.workspace_id = $1 AND i.kind = 'email' AND i.value = $2`,
      [workspaceId, email.trim().toLowerCase()],
    );
    return row ?? null;
  }

  list(workspaceId: string, filter: PersonFilter): Promise<PersonRow[]> {
    const where = ['workspace_id = $1', 'merged_into IS NULL'];
    const args: unknown[] = [workspaceId];
    if (filter.stage) where.push(`stage = $${args.push(filter.stage)}`);
    if (filter.email) where.push(`email = $${args.push(filter.email.trim().toLowerCase())}`);
    if (filter.engaged !== undefined) where.push(filter.engaged ? 'engaged_at IS NOT NULL' : 'engaged_at IS NULL');
    args.push(Math.min(Math.max(filter.first, 1), 200));
    return this.dataSource.query(`SELECT ${COLUMNS} FROM people WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT $${args.length}`, args);
  }

  identitiesOf(workspaceId: string, personIds: readonly string[]): Promise<Array<{ person_id: string; kind: string; value: string }>> {
    return this.dataSource.query(
      `SELECT person_id, kind, value FROM identities WHERE workspace_id = $1 AND person_id = ANY($2::text[]) ORDER BY created_at, kind, value`,
      [workspaceId, personIds],
    );
  }

  subscriptionsOf(workspaceId: string, personIds: readonly string[]): Promise<SubscriptionRead[]> {
    return this.dataSource.query(
      `SELECT s.person_id, s.list_id, l.address, l.name, s.status, s.consent, s.consent_text, s.consent_ip, s.granted_at, s.source_label
         FROM subscriptions s JOIN lists l ON l.workspace_id = s.workspace_id AND l.id = s.list_id
        WHERE s.workspace_id = $1 AND s.person_id = ANY($2::text[]) ORDER BY s.granted_at`,
      [workspaceId, personIds],
    );
  }

  lists(workspaceId: string): Promise<Array<{ id: string; address: string; name: string }>> {
    return this.dataSource.query(`SELECT id, address, name FROM lists WHERE workspace_id = $1 ORDER BY created_at`, [workspaceId]);
  }
}
