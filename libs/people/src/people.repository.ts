// People, identities, lists and subscriptions: locks, merges and list work of the ingest transaction.
// (Its bulk reads and writes are in libs/events/src/ingest/ingest.repository.ts, one statement each.)
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { preparedQuery } from '@app/core';

export interface PersonRow {
  workspace_id: string;
  id: string;
  name: string | null;
  email: string | null;
  stage: string | null;
  stage_changed_at: Date | null;
  purchases: number;
  engaged_at: Date | null;
  os: string | null;
  fields: Record<string, string | number>;
  first_touch: Record<string, unknown> | null;
  first_touch_at: Date | null;
  created_at: Date;
}

export interface IdentityRow {
  kind: string;
  value: string;
  person_id: string;
}

export interface ListRow {
  id: string;
  address: string;
  name: string;
}

export interface SubscriptionWrite {
  workspace_id: string;
  list_id: string;
  person_id: string;
  consent: unknown;
  consent_text: string;
  consent_ip: string | null;
  granted_at: string;
  source_label: string | null;
  source: unknown;
}

@Injectable()
export class PeopleRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** Serializes posts that name the same identity keys, so one new key never makes two people. */
  async lockKeys(m: EntityManager, workspaceId: string, keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    await preparedQuery(
      m,
      'ingest_lock',
      `SELECT pg_advisory_xact_lock(h) FROM (
         SELECT DISTINCT hashtextextended($1 || ':' || k, 0) AS h FROM unnest($2::text[]) k ORDER BY h) s`,
      [workspaceId, keys],
    );
  }

  /** Moves everything of the absorbed people onto the survivor (decisions.md section 4). */
  async moveOnto(m: EntityManager, workspaceId: string, survivorId: string, absorbedIds: string[]): Promise<void> {
    const args = [workspaceId, survivorId, absorbedIds];
    await m.query(`UPDATE identities SET person_id = $2 WHERE workspace_id = $1 AND person_id = ANY($3::text[])`, args);
    await m.query(`UPDATE events SET person_id = $2 WHERE workspace_id = $1 AND person_id = ANY($3::text[])`, args);
    await m.query(`UPDATE messages SET person_id = $2 WHERE workspace_id = $1 AND person_id = ANY($3::text[])`, args);
    await m.query(`UPDATE automation_runs SET person_id = $2 WHERE workspace_id = $1 AND person_id = ANY($3::text[])`, args);
    // A list both were on keeps the earliest consent.
    await m.query(
      `DELETE FROM subscriptions s USING subscriptions o
        WHERE s.workspace_id = $1 AND s.person_id = ANY($3::text[]) AND o.workspace_id = $1 AND o.list_id = s.list_id
          AND (o.person_id = $2 OR o.person_id = ANY($3::text[])) AND o.person_id <> s.person_id
          AND (o.granted_at, o.person_id) < (s.granted_at, s.person_id)`,
      args,
    );
    await m.query(
      `DELETE FROM subscriptions s WHERE s.workspace_id = $1 AND s.person_id = $2 AND EXISTS (
         SELECT 1 FROM subscriptions o WHERE o.workspace_id = $1 AND o.list_id = s.list_id AND o.person_id = ANY($3::text[]))`,
      args,
    );
    await m.query(`UPDATE subscriptions SET person_id = $2 WHERE workspace_id = $1 AND person_id = ANY($3::text[])`, args);
    await m.query(`UPDATE people SET merged_into = $2, updated_at = now() WHERE workspace_id = $1 AND id = ANY($3::text[])`, args);
    await m.query(`UPDATE people SET merged_into = $2 WHERE workspace_id = $1 AND merged_into = ANY($3::text[])`, args);
  }

  findLists(m: EntityManager, workspaceId: string, addresses: string[]): Promise<ListRow[]> {
    if (addresses.length === 0) return Promise.resolve([]);
    return m.query(`SELECT id, address, name FROM lists WHERE workspace_id = $1 AND address = ANY($2::text[])`, [workspaceId, addresses]);
  }

  /** Subscribes; answers false when the person was already on the list (nothing is written then). */
  async subscribe(m: EntityManager, row: SubscriptionWrite): Promise<boolean> {
    const written: unknown[] = await m.query(
      `INSERT INTO subscriptions (workspace_id, list_id, person_id, status, consent, consent_text, consent_ip, granted_at, source_label, source)
       VALUES ($1, $2, $3, 'subscribed', $4::jsonb, $5, $6, $7, $8, $9::jsonb)
       ON CONFLICT (workspace_id, list_id, person_id) DO UPDATE
         SET status = 'subscribed', consent = EXCLUDED.consent, consent_text = EXCLUDED.consent_text,
             consent_ip = EXCLUDED.consent_ip, granted_at = EXCLUDED.granted_at, source_label = EXCLUDED.source_label,
             source = EXCLUDED.source, unsubscribed_at = NULL
         WHERE subscriptions.status = 'unsubscribed'
       RETURNING list_id`,
      [
        row.workspace_id,
        row.list_id,
        row.person_id,
        JSON.stringify(row.consent),
        row.consent_text,
        row.consent_ip,
        row.granted_at,
        row.source_label,
        row.source === undefined || row.source === null ? null : JSON.stringify(row.source),
      ],
    );
    return written.length > 0;
  }

  async createList(workspaceId: string, id: string, address: string, name: string): Promise<ListRow | null> {
    const rows: ListRow[] = await this.dataSource.query(
      `INSERT INTO lists (workspace_id, id, address, name) VALUES ($1, $2, $3, $4)
       ON CONFLICT (workspace_id, address) DO NOTHING RETURNING id, address, name`,
      [workspaceId, id, address, name],
    );
    return rows[0] ?? null;
  }

  /** A list's shown name; its address (what forms post) never changes. */
  async renameList(workspaceId: string, listId: string, name: string): Promise<ListRow | null> {
    const [rows]: [ListRow[], number] = await this.dataSource.query(
      `UPDATE lists SET name = $3 WHERE workspace_id = $1 AND id = $2 RETURNING id, address, name`,
      [workspaceId, listId, name],
    );
    return rows[0] ?? null;
  }
}
