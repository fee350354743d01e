// People, identities, lists and subscriptions: the only code that writes them. Locks, merges and list
// work of the ingest transaction; its bulk write is composed from peopleWriteCtes below (one statement).
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { MergeParticipants } from './merge/merge-participants';

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
  /** Last seen and what they paid, as numeric text (domain/activity.ts); last_seen_at is null only unwritten. */
  last_seen_at: Date | null;
  revenue: string;
}

export interface IdentityRow {
  kind: string;
  value: string;
  person_id: string;
  /** A new person's created_at, carried by a write's new identity of them (peopleWriteCtes); others' read by key. */
  person_created_at?: string;
}

export interface ListRow {
  id: string;
  address: string;
  name: string;
  /** A subscribe waits for the person's confirmation (docs/rest.md#events); absent: not read. */
  double_opt_in?: boolean;
}

const LIST_COLUMNS = 'id, address, name, double_opt_in'; // what a list read answers (ListRow)

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
  /** pending: the list asks for a double opt-in's confirmation first (absent: subscribed). */
  status?: 'subscribed' | 'pending';
}

/** Every column of a person row, as PersonRow (plus merged_into) names them. */
export const PERSON_COLUMNS =
  `workspace_id, id, name, email, stage, stage_changed_at, purchases, engaged_at, os, fields, first_touch, ` +
  `first_touch_at, created_at, last_seen_at, revenue, merged_into`;

/** The person columns but the workspace as jsonb_to_recordset reads them from a leanRecord, in the table's order. */
const PERSON_LEAN_RECORD = `id text, name text, email text, stage text, stage_changed_at timestamptz, purchases int,
  engaged_at timestamptz, os text, fields jsonb, first_touch jsonb, first_touch_at timestamptz, created_at timestamptz,
  last_seen_at timestamptz, revenue numeric`;
const PERSON_RECORD = `workspace_id text, ${PERSON_LEAN_RECORD}`;

/**
 * The ingest's writes of people and identities, as data-modifying CTEs (new_people, changed_people,
 * new_identities) reading `doc -> 'newPeople' | 'changedPeople' | 'identities'`, so a caller composes
 * them with its own into one statement: one round trip for a whole post. `workspace` is the SQL
 * parameter of the workspace id (e.g. `$2`). A new identity carries its person's created_at (people
 * search orders by it): a new person's from the document, as the identity's `person_created_at` (the
 * statement's own insert is not visible to it), anyone else's read by key. A changed person's `first_seen`
 * (an earlier event than their created_at: docs/decisions.md#history-starts-no-automation) moves their
 * created_at back, and their identities' with it. A new identity that another
 * transaction added meanwhile fails the statement (identities_pkey, isKeyRace): the caller runs its
 * unit again, and then finds it.
 */
export function peopleWriteCtes(doc: string, workspace: string): string {
  return `new_people AS (
  INSERT INTO people (workspace_id, id, name, email, stage, stage_changed_at, purchases, engaged_at, os, fields,
                      first_touch, first_touch_at, created_at, last_seen_at, revenue, updated_at)
  SELECT ${workspace}, x.*, x.created_at FROM jsonb_to_recordset(${doc} -> 'newPeople') AS x(${PERSON_LEAN_RECORD})
  RETURNING 1),
changed_people AS (
  UPDATE people p SET name = x.name, email = x.email, stage = x.stage, stage_changed_at = x.stage_changed_at,
         purchases = x.purchases, engaged_at = x.engaged_at, os = x.os, fields = x.fields,
         first_touch = x.first_touch, first_touch_at = x.first_touch_at,
         created_at = least(p.created_at, x.first_seen), last_seen_at = greatest(p.last_seen_at, x.last_seen_at),
         revenue = x.revenue, updated_at = now()
    FROM jsonb_to_recordset(${doc} -> 'changedPeople') AS x(${PERSON_RECORD}, first_seen timestamptz)
   WHERE p.workspace_id = x.workspace_id AND p.id = x.id
  RETURNING 1),
redated_identities AS (
  UPDATE identities i SET person_created_at = x.first_seen
    FROM jsonb_to_recordset(${doc} -> 'changedPeople') AS x(id text, first_seen timestamptz)
   WHERE x.first_seen IS NOT NULL AND i.workspace_id = ${workspace} AND i.person_id = x.id
     AND i.person_created_at > x.first_seen
  RETURNING 1),
new_identities AS (
  INSERT INTO identities (workspace_id, kind, value, person_id, person_created_at)
  SELECT ${workspace}, x.kind, x.value, x.person_id,
         coalesce(x.person_created_at, (SELECT p.created_at FROM people p WHERE p.workspace_id = ${workspace}
           AND p.id = x.person_id))
    FROM jsonb_to_recordset(${doc} -> 'identities') AS x(kind text, value text, person_id text,
      person_created_at timestamptz)
   ORDER BY x.kind, x.value
  RETURNING 1)`;
}

/**
 * The people these identity keys name, each row locked (FOR UPDATE, in id order), as CTEs for the
 * ingest's load (decisions.md: a post locks the keys it names, then the people they name): `found`
 * (kind, value, person_id) and `locked` (PERSON_COLUMNS). `workspace` is the SQL of the workspace id,
 * `kinds` and `values` of two text arrays of one length (e.g. `$2::text[]`). Every lookup is a probe by
 * a full key in a LATERAL subquery the planner cannot flatten into a join (OFFSET 0).
 */
export function peopleKeysNameCtes(workspace: string, kinds: string, values: string): string {
  return `found AS MATERIALIZED (
  SELECT k.kind, k.value, i.person_id
    FROM unnest(${kinds}, ${values}) AS k(kind, value)
    CROSS JOIN LATERAL (SELECT i.person_id FROM identities i
                         WHERE i.workspace_id = ${workspace} AND i.kind = k.kind AND i.value = k.value OFFSET 0) i),
locked AS MATERIALIZED (
  SELECT p.* FROM (SELECT DISTINCT person_id FROM found ORDER BY person_id) d
    CROSS JOIN LATERAL (SELECT ${PERSON_COLUMNS} FROM people p WHERE p.workspace_id = ${workspace}
      AND p.id = d.person_id FOR UPDATE) p)`;
}

/**
 * True when a write failed because another transaction added one of its new identity keys first (or the two deadlocked
 * on them).
 */
export function isKeyRace(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string };
  return (e.code === '23505' && e.constraint === 'identities_pkey') || e.code === '40P01';
}

/** What peopleWriteCtes reads from its document: rows as leanRecord makes them (new people without their workspace). */
export interface PeopleWrite {
  newPeople: Array<Partial<PersonRow>>;
  /** first_seen: an earlier created_at (ISO text), for a person an earlier event moved back. */
  changedPeople: Array<Partial<PersonRow> & { first_seen?: string }>;
  identities: IdentityRow[];
}

@Injectable()
export class PeopleRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly participants: MergeParticipants,
  ) {}

  /**
   * Moves everything of the absorbed people onto the survivor (docs/architecture.md#merge-participants): identities,
   * subscriptions and the people rows here, then every other context's rows through its registered
   * merge participant, all in the caller's transaction.
   */
  async moveOnto(m: EntityManager, workspaceId: string, survivorId: string, absorbedIds: string[]): Promise<void> {
    const args = [workspaceId, survivorId, absorbedIds];
    await m.query(
      `UPDATE identities SET person_id = $2, person_created_at = (SELECT created_at FROM people WHERE workspace_id = $1
        AND id = $2)
        WHERE workspace_id = $1 AND person_id = ANY($3::text[])`,
      args,
    );
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
         SELECT 1 FROM subscriptions o WHERE o.workspace_id = $1 AND o.list_id = s.list_id
           AND o.person_id = ANY($3::text[]))`,
      args,
    );
    await m.query(
      `UPDATE subscriptions SET person_id = $2 WHERE workspace_id = $1 AND person_id = ANY($3::text[])`,
      args,
    );
    await m.query(
      `UPDATE people SET merged_into = $2, updated_at = now() WHERE workspace_id = $1 AND id = ANY($3::text[])`,
      args,
    );
    await m.query(`UPDATE people SET merged_into = $2 WHERE workspace_id = $1 AND merged_into = ANY($3::text[])`, args);
    await this.participants.moveAll(m, { workspaceId, survivorId, absorbedIds });
  }

  /**
   * Locks the person's row (as the ingest does, so no post merges or rewrites them meanwhile) and reads
   * the person as they now are, following merges.
   */
  async lockPerson(m: EntityManager, workspaceId: string, personId: string): Promise<PersonRow | null> {
    let current = personId;
    for (let hop = 0; hop < 10; hop++) {
      const [row] = await m.query(
        `SELECT ${PERSON_COLUMNS} FROM people WHERE workspace_id = $1 AND id = $2 FOR UPDATE`,
        [workspaceId, current],
      );
      if (!row) return null;
      if (!row.merged_into) return row;
      current = row.merged_into;
    }
    return null;
  }

  /** A reply makes the person engaged (the earliest engagement stays) and seen. */
  async markEngaged(m: EntityManager, workspaceId: string, personId: string, at: Date): Promise<void> {
    await m.query(
      `UPDATE people SET engaged_at = least(coalesce(engaged_at, $3), $3), last_seen_at = greatest(last_seen_at, $3),
         updated_at = now() WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, personId, at.toISOString()],
    );
  }

  findLists(m: EntityManager, workspaceId: string, addresses: string[]): Promise<ListRow[]> {
    if (addresses.length === 0) return Promise.resolve([]);
    return m.query(`SELECT ${LIST_COLUMNS} FROM lists WHERE workspace_id = $1 AND address = ANY($2::text[])`, [
      workspaceId,
      addresses,
    ]);
  }

  /**
   * Subscribes; answers false when the person was already on the list (nothing is written then). Subscribing again
   * after a withdrawal starts a new consent; the one it replaces is kept, with its withdrawal, in earlier_consents
   * (docs/decisions.md#withdrawal-beside-the-consent). A pending one is written again (words, 30 days from now), so
   * subscribing again sends a new confirmation (docs/decisions.md#double-opt-in-confirms-by-a-post).
   */
  async subscribe(m: EntityManager, row: SubscriptionWrite): Promise<boolean> {
    const written: unknown[] = await m.query(
      `WITH earlier AS (
         INSERT INTO earlier_consents (workspace_id, list_id, person_id, consent, consent_text, consent_ip, granted_at,
           source_label, source, created_at, withdrawn_at, withdrawn_via, withdrawn_ip, confirmed_at, confirmed_ip)
         SELECT workspace_id, list_id, person_id, consent, consent_text, consent_ip, granted_at, source_label, source,
                created_at, withdrawn_at, withdrawn_via, withdrawn_ip, confirmed_at, confirmed_ip
           FROM subscriptions WHERE workspace_id = $1 AND list_id = $2 AND person_id = $3 AND status = 'unsubscribed'
         RETURNING 1)
       INSERT INTO subscriptions (workspace_id, list_id, person_id, status, consent, consent_text, consent_ip,
        granted_at, source_label, source)
       VALUES ($1, $2, $3, $10, $4::jsonb, $5, $6, $7, $8, $9::jsonb)
       ON CONFLICT (workspace_id, list_id, person_id) DO UPDATE
         SET status = EXCLUDED.status, consent = EXCLUDED.consent, consent_text = EXCLUDED.consent_text,
             consent_ip = EXCLUDED.consent_ip, granted_at = EXCLUDED.granted_at, source_label = EXCLUDED.source_label,
             source = EXCLUDED.source, created_at = now(), withdrawn_at = NULL, withdrawn_via = NULL,
             withdrawn_ip = NULL, confirmed_at = NULL, confirmed_ip = NULL
         WHERE subscriptions.status IN ('unsubscribed', 'pending')
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
        row.status ?? 'subscribed',
      ],
    );
    return written.length > 0;
  }

  async createList(
    workspaceId: string,
    id: string,
    address: string,
    name: string,
    doubleOptIn = false,
  ): Promise<ListRow | null> {
    const rows: ListRow[] = await this.dataSource.query(
      `INSERT INTO lists (workspace_id, id, address, name, double_opt_in) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (workspace_id, address) DO NOTHING RETURNING ${LIST_COLUMNS}`,
      [workspaceId, id, address, name, doubleOptIn],
    );
    return rows[0] ?? null;
  }

  /** A list's shown name and its double opt-in (each left as it is when absent); its address never changes. */
  async updateList(
    workspaceId: string,
    listId: string,
    changes: { name?: string; doubleOptIn?: boolean },
  ): Promise<ListRow | null> {
    const [rows]: [ListRow[], number] = await this.dataSource.query(
      `UPDATE lists SET name = coalesce($3, name), double_opt_in = coalesce($4, double_opt_in)
        WHERE workspace_id = $1 AND id = $2 RETURNING ${LIST_COLUMNS}`,
      [workspaceId, listId, changes.name ?? null, changes.doubleOptIn ?? null],
    );
    return rows[0] ?? null;
  }
}
