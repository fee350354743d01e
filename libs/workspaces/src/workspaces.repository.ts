// The only code that reads and writes workspaces, members and api_keys. Plain SQL over `SqlDatabase`,
// so the apps run it on TypeORM's pool and the operator CLI on one pg client.
import type { Sql, SqlDatabase } from '@app/platform/plain';
import type { ApiKeyEntity, MemberEntity, MemberRole, WorkspaceEntity } from './workspaces.types';

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

/** A new workspace; its history window starts at the column's default (24 hours). */
export type NewWorkspace = Omit<WorkspaceEntity, 'createdAt' | 'historyWindowHours' | 'postalAddress'>;
export type NewMember = Pick<MemberEntity, 'workspaceId' | 'id' | 'email' | 'role'>;
export type NewKey = Pick<ApiKeyEntity, 'workspaceId' | 'id' | 'memberId' | 'keyHash' | 'hint'>;
export type WorkspaceSettings = Partial<
  Pick<
    WorkspaceEntity,
    'allowedOrigins' | 'trialStage' | 'downloaderStage' | 'activationEvents' | 'historyWindowHours' | 'postalAddress'
  >
>;

const WORKSPACE = `id, slug, name, public_key AS "publicKey", kind, allowed_origins AS "allowedOrigins", trial_stage AS "trialStage",
  downloader_stage AS "downloaderStage", activation_events AS "activationEvents",
  history_window_hours AS "historyWindowHours", postal_address AS "postalAddress", created_at AS "createdAt"`;
const MEMBER = `workspace_id AS "workspaceId", id, email, role, removed_at AS "removedAt", created_at AS "createdAt"`;
const SETTING_COLUMNS: Record<keyof WorkspaceSettings, string> = {
  allowedOrigins: 'allowed_origins',
  trialStage: 'trial_stage',
  downloaderStage: 'downloader_stage',
  activationEvents: 'activation_events',
  historyWindowHours: 'history_window_hours',
  postalAddress: 'postal_address',
};

// Prepared once per connection: planning this join took longer than running it. The workspace and the
// member are probed by their keys in LATERAL subqueries the planner cannot flatten: the
// generic plan otherwise scanned workspaces and read members by workspace alone, filtering for the
// key's member, a read that grows with a workspace's members (bench:ingest's 250 keys in turn).
const KEY_OWNERS = `SELECT k.key_hash, k.id AS key_id, k.revoked_at, k.last_used_at, w.id AS workspace_id,
  w.slug AS workspace_slug,
       m.id AS member_id, m.email AS member_email, m.role, m.removed_at
  FROM api_keys k
  CROSS JOIN LATERAL (SELECT w.id, w.slug FROM workspaces w WHERE w.id = k.workspace_id OFFSET 0) w
  CROSS JOIN LATERAL (SELECT m.id, m.email, m.role, m.removed_at FROM members m
                       WHERE m.workspace_id = k.workspace_id AND m.id = k.member_id OFFSET 0) m
 WHERE k.key_hash = ANY($1::text[])`;

/**
 * The key check of a statement that writes what a request with a remembered key sent: the
 * keys listed at \`keys\` in the statement's document must still be live (not revoked, their member not
 * removed), or the statement fails with LL401 (isKeyRefused) and nothing of it is written. The
 * statement must read the CTE (\`SELECT count(*) FROM key_recheck\`), or PostgreSQL never runs it.
 */
export function keyRecheckCte(doc: string, workspace: string): string {
  // Probes by full keys (api_keys, then members) in LATERAL subqueries the planner cannot flatten: no
  // plan reads a workspace's keys or members to find one.
  return `key_recheck AS (
  SELECT lifeline_key_refused(x.id) FROM jsonb_array_elements_text(${doc} -> 'keys') AS x(id)
    LEFT JOIN LATERAL (SELECT k.member_id FROM api_keys k WHERE k.workspace_id = ${workspace} AND k.id = x.id
      AND k.revoked_at IS NULL OFFSET 0) k ON true
    LEFT JOIN LATERAL (SELECT true AS live FROM members m WHERE m.workspace_id = ${workspace} AND m.id = k.member_id
      AND m.removed_at IS NULL OFFSET 0) m ON true
   WHERE m.live IS NULL)`;
}

/** The failure of a keyRecheckCte: a key went out of use after this process last looked it up. */
export function isKeyRefused(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'LL401';
}

const first = <T>(rows: T[]): T | null => rows[0] ?? null;

/** Provided by CoreModule from TypeORM's data source; the CLI makes one on its own connection. */
export class WorkspacesRepository {
  constructor(private readonly db: SqlDatabase) {}

  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async findBySlug(slug: string): Promise<WorkspaceEntity | null> {
    return first(await this.db.query(`SELECT ${WORKSPACE} FROM workspaces WHERE slug = $1`, [slug]));
  }

  async findById(id: string): Promise<WorkspaceEntity | null> {
    return first(await this.db.query(`SELECT ${WORKSPACE} FROM workspaces WHERE id = $1`, [id]));
  }

  async findByPublicKey(publicKey: string): Promise<WorkspaceEntity | null> {
    return first(await this.db.query(`SELECT ${WORKSPACE} FROM workspaces WHERE public_key = $1`, [publicKey]));
  }

  /** Each of these workspaces' slug by id (an unknown id has none), read with `tx` when given. */
  async slugsOf(ids: readonly string[], tx: Sql = this.db): Promise<Map<string, string>> {
    const rows = await tx.query<{ id: string; slug: string }>(
      `SELECT id, slug FROM workspaces WHERE id = ANY($1::text[])`,
      [ids],
    );
    return new Map(rows.map((w) => [w.id, w.slug]));
  }

  /**
   * Locks the workspace's row until `tx` ends, so another context counting what the workspace has
   * against a limit (e.g. its webhook addresses) is not passed by two simultaneous additions.
   */
  async lockWorkspace(tx: Sql, id: string): Promise<void> {
    await tx.query(`SELECT 1 FROM workspaces WHERE id = $1 FOR UPDATE`, [id]);
  }

  listWorkspaces(): Promise<WorkspaceEntity[]> {
    return this.db.query(`SELECT ${WORKSPACE} FROM workspaces ORDER BY created_at, id`);
  }

  async countWorkspaces(): Promise<number> {
    const [{ count }] = await this.db.query<{ count: number }>('SELECT count(*)::int AS count FROM workspaces');
    return count;
  }

  async findMember(workspaceId: string, email: string, tx: Sql = this.db): Promise<MemberEntity | null> {
    return first(
      await tx.query(`SELECT ${MEMBER} FROM members WHERE workspace_id = $1 AND email = $2`, [workspaceId, email]),
    );
  }

  /**
   * Each key's workspace and member in one statement, revoked keys and removed members included
   * (the guard tells those apart). Read on every request: nothing caches a key.
   */
  findKeyOwners(keyHashes: readonly string[]): Promise<KeyOwnerRow[]> {
    return this.db.prepared('key_owners', KEY_OWNERS, [keyHashes]);
  }

  /** A key's last use, by its primary key (a join from a document read every key of the table). */
  async touchKey(workspaceId: string, keyId: string): Promise<void> {
    await this.db.query(`UPDATE api_keys SET last_used_at = now() WHERE workspace_id = $1 AND id = $2`, [
      workspaceId,
      keyId,
    ]);
  }

  listMembers(workspaceId: string): Promise<MemberEntity[]> {
    return this.db.query(`SELECT ${MEMBER} FROM members WHERE workspace_id = $1 ORDER BY created_at, id`, [
      workspaceId,
    ]);
  }

  /** Keys with their member's email, newest first; never the hash. */
  listKeys(workspaceId: string): Promise<KeyListRow[]> {
    return this.db.query(
      `SELECT k.id, k.hint, k.created_at, k.last_used_at, k.revoked_at, m.id AS member_id, m.email AS member_email
         FROM api_keys k JOIN members m ON m.workspace_id = k.workspace_id AND m.id = k.member_id
        WHERE k.workspace_id = $1 ORDER BY k.created_at DESC, k.id DESC`,
      [workspaceId],
    );
  }

  /** The active owners' ids, locked until the transaction ends, so two demotions cannot both pass. */
  async lockActiveOwners(tx: Sql, workspaceId: string): Promise<string[]> {
    const rows = await tx.query<{ id: string }>(
      `SELECT id FROM members WHERE workspace_id = $1 AND role = 'owner' AND removed_at IS NULL ORDER BY id FOR UPDATE`,
      [workspaceId],
    );
    return rows.map((r) => r.id);
  }

  async setRole(tx: Sql, workspaceId: string, memberId: string, role: MemberRole): Promise<void> {
    await tx.query('UPDATE members SET role = $3 WHERE workspace_id = $1 AND id = $2', [workspaceId, memberId, role]);
  }

  /** Back in the workspace with a role; keys revoked at removal stay revoked. */
  async restoreMember(tx: Sql, workspaceId: string, memberId: string, role: MemberRole): Promise<void> {
    await tx.query('UPDATE members SET role = $3, removed_at = NULL WHERE workspace_id = $1 AND id = $2', [
      workspaceId,
      memberId,
      role,
    ]);
  }

  /** Removed, with every key of theirs revoked in the same transaction. */
  async markMemberRemoved(tx: Sql, workspaceId: string, memberId: string): Promise<void> {
    await tx.query('UPDATE members SET removed_at = now() WHERE workspace_id = $1 AND id = $2', [
      workspaceId,
      memberId,
    ]);
    await tx.query(
      `UPDATE api_keys SET revoked_at = now() WHERE workspace_id = $1 AND member_id = $2 AND revoked_at IS NULL`,
      [workspaceId, memberId],
    );
  }

  /** True when the key was live and is now revoked. */
  async revokeKey(workspaceId: string, keyId: string): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE api_keys SET revoked_at = now() WHERE workspace_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING id`,
      [workspaceId, keyId],
    );
    return rows.length > 0;
  }

  async keyExists(workspaceId: string, keyId: string): Promise<boolean> {
    return (
      (await this.db.query('SELECT 1 FROM api_keys WHERE workspace_id = $1 AND id = $2', [workspaceId, keyId])).length >
      0
    );
  }

  /** False when the slug is taken: another process may make the same slug after a look-up found none. */
  async insertWorkspace(tx: Sql, w: NewWorkspace): Promise<boolean> {
    const rows = await tx.query(
      `INSERT INTO workspaces (id, slug, name, public_key, kind, allowed_origins, trial_stage, downloader_stage,
        activation_events)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (slug) DO NOTHING RETURNING id`,
      [
        w.id,
        w.slug,
        w.name,
        w.publicKey,
        w.kind,
        w.allowedOrigins,
        w.trialStage,
        w.downloaderStage,
        w.activationEvents,
      ],
    );
    return rows.length === 1;
  }

  async insertMember(tx: Sql, m: NewMember): Promise<void> {
    await tx.query('INSERT INTO members (workspace_id, id, email, role) VALUES ($1, $2, $3, $4)', [
      m.workspaceId,
      m.id,
      m.email,
      m.role,
    ]);
  }

  async insertKey(tx: Sql, k: NewKey): Promise<void> {
    await tx.query('INSERT INTO api_keys (workspace_id, id, member_id, key_hash, hint) VALUES ($1, $2, $3, $4, $5)', [
      k.workspaceId,
      k.id,
      k.memberId,
      k.keyHash,
      k.hint,
    ]);
  }

  async updateSettings(id: string, settings: WorkspaceSettings): Promise<WorkspaceEntity> {
    const changed = (Object.keys(SETTING_COLUMNS) as Array<keyof WorkspaceSettings>).filter(
      (name) => settings[name] !== undefined,
    );
    const sets = changed.map((name, i) => `${SETTING_COLUMNS[name]} = $${i + 2}`);
    const rows = await this.db.query<WorkspaceEntity>(
      sets.length
        ? `UPDATE workspaces SET ${sets.join(', ')} WHERE id = $1 RETURNING ${WORKSPACE}`
        : `SELECT ${WORKSPACE} FROM workspaces WHERE id = $1`,
      [id, ...changed.map((name) => settings[name])],
    );
    if (!rows[0]) throw new Error(`No workspace has id ${id}.`);
    return rows[0];
  }
}
