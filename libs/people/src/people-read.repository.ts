// Reads for the GraphQL admin API and other contexts (messaging, webhooks).
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PERSON_COLUMNS as COLUMNS, type PersonRow } from './people.repository';

/** The people filter of the admin API and the find_people tool (issue 11). */
export interface PersonFilter {
  email?: string;
  /** Part of the name, any case. */
  name?: string;
  anonId?: string;
  accountId?: string;
  stage?: string;
  /** A list's address: people subscribed to it now. */
  list?: string;
  engaged?: boolean;
  /** Part of the name, an email, an account id or an anon id, any case. */
  search?: string;
}

export interface PersonPageQuery {
  filter: PersonFilter;
  /** Rows to read (the page size plus one, to tell whether more remain). */
  limit: number;
  /** Read people created before this position. */
  after?: { atMicros: string; id: string };
}

export type PersonListRow = PersonRow & { at_micros: string };

/** Counting stops here: totalCount is exact below it. */
export const COUNT_BOUND = 10_000;

const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

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

  /** Newest first, by (created_at, id), from a position on. */
  page(workspaceId: string, query: PersonPageQuery): Promise<PersonListRow[]> {
    const { where, args } = this.where(workspaceId, query.filter);
    if (query.after) {
      args.push(query.after.atMicros, query.after.id);
      where.push(`(created_at, id) < (timestamptz 'epoch' + $${args.length - 1}::bigint * interval '1 microsecond', $${args.length})`);
    }
    args.push(query.limit);
    return this.dataSource.query(
      `SELECT ${COLUMNS}, (extract(epoch FROM created_at) * 1000000)::bigint::text AS at_micros FROM people
        WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT $${args.length}`,
      args,
    );
  }

  /** How many match, counted up to COUNT_BOUND + 1 so a large workspace costs no more than that. */
  async count(workspaceId: string, filter: PersonFilter): Promise<number> {
    const { where, args } = this.where(workspaceId, filter);
    const [row] = await this.dataSource.query(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM people WHERE ${where.join(' AND ')} LIMIT ${COUNT_BOUND + 1}) AS matched`,
      args,
    );
    return row.n;
  }

  private where(workspaceId: string, filter: PersonFilter): { where: string[]; args: unknown[] } {
    const where = ['workspace_id = $1', 'merged_into IS NULL'];
    const args: unknown[] = [workspaceId];
    const identity = (kind: string, value: string) =>
      where.push(
        `id IN (SELECT person_id FROM identities WHERE workspace_id = $1 AND kind = '${kind}' AND value = $${args.push(value)})`,
      );
    if (filter.email) identity('email', filter.email.trim().toLowerCase());
    if (filter.anonId) identity('anon_id', filter.anonId);
    if (filter.accountId) identity('account_id', filter.accountId);
    if (filter.name) where.push(`name ILIKE $${args.push(likeText(filter.name.trim()))}`);
    if (filter.stage) where.push(`stage = $${args.push(filter.stage)}`);
    if (filter.engaged !== undefined && filter.engaged !== null) where.push(filter.engaged ? 'engaged_at IS NOT NULL' : 'engaged_at IS NULL');
    if (filter.list) {
      where.push(
        `id IN (SELECT s.person_id FROM subscriptions s JOIN lists l ON l.workspace_id = s.workspace_id AND l.id = s.list_id
                 WHERE s.workspace_id = $1 AND l.address = $${args.push(filter.list.trim().toLowerCase())} AND s.status = 'subscribed')`,
      );
    }
    if (filter.search) {
      const n = args.push(likeText(filter.search.trim()));
      where.push(`(name ILIKE $${n} OR id IN (SELECT person_id FROM identities WHERE workspace_id = $1 AND value ILIKE $${n}))`);
    }
    return { where, args };
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

  /** Subscribers (status subscribed) of each list. */
  subscriberCounts(workspaceId: string, listIds: readonly string[]): Promise<Array<{ list_id: string; n: number }>> {
    return this.dataSource.query(
      `SELECT list_id, count(*)::int AS n FROM subscriptions
        WHERE workspace_id = $1 AND list_id = ANY($2::text[]) AND status = 'subscribed' GROUP BY list_id`,
      [workspaceId, listIds],
    );
  }
}
