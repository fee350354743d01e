// The only code that reads and writes sessions and sign_in_links. A session is read with
// its member, key and workspace on every request, so a removed member or a revoked key ends it at the
// very next request in every api process: nothing about a session is remembered in memory.
import type { Sql, SqlDatabase } from '@app/platform/plain';
import type { MemberRole } from '../workspaces.types';
import type { SessionState } from './sign-in-rules';

export interface NewSession {
  id: string;
  tokenHash: string;
  via: SessionState['via'];
  email: string | null;
  workspaceId: string | null;
  memberId: string | null;
  keyId: string | null;
  operatorHash: string | null;
  now: Date;
  endsAt: Date;
}

export interface SessionRow extends SessionState {
  id: string;
  email: string | null;
  workspace_id: string | null;
  workspace_slug: string | null;
  member_id: string | null;
  member_email: string | null;
  role: MemberRole | null;
  key_id: string | null;
}

export interface Membership {
  workspace_id: string;
  workspace_name: string;
  workspace_slug: string;
  member_id: string;
  role: MemberRole;
}

const SESSION = `
SELECT s.id, s.via, s.email, s.workspace_id, w.slug AS workspace_slug, s.member_id, m.email AS member_email, m.role,
       s.key_id, s.operator_hash, s.seen_at, s.ends_at,
       CASE WHEN s.member_id IS NULL THEN NULL ELSE (m.id IS NULL OR m.removed_at IS NOT NULL) END AS member_removed,
       CASE WHEN s.key_id IS NULL THEN NULL ELSE (k.id IS NULL OR k.revoked_at IS NOT NULL) END AS key_revoked
  FROM sessions s
  LEFT JOIN workspaces w ON w.id = s.workspace_id
  LEFT JOIN members m ON m.workspace_id = s.workspace_id AND m.id = s.member_id
  LEFT JOIN api_keys k ON k.workspace_id = s.workspace_id AND k.id = s.key_id
 WHERE s.token_hash = $1 AND s.ended_at IS NULL`;

export class SessionsRepository {
  constructor(private readonly db: SqlDatabase) {}

  async insert(s: NewSession): Promise<void> {
    await this.db.query(
      `INSERT INTO sessions (id, token_hash, via, email, workspace_id, member_id, key_id, operator_hash, created_at,
        seen_at, ends_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $10)`,
      [s.id, s.tokenHash, s.via, s.email, s.workspaceId, s.memberId, s.keyId, s.operatorHash, s.now, s.endsAt],
    );
  }

  async byTokenHash(hash: string): Promise<SessionRow | null> {
    const [row] = await this.db.prepared<SessionRow>('session_by_token', SESSION, [hash]);
    return row ?? null;
  }

  async seen(id: string, now: Date): Promise<void> {
    await this.db.query(`UPDATE sessions SET seen_at = $2 WHERE id = $1 AND seen_at < $2`, [id, now]);
  }

  async end(id: string, now: Date): Promise<void> {
    await this.db.query(`UPDATE sessions SET ended_at = $2 WHERE id = $1 AND ended_at IS NULL`, [id, now]);
  }

  async pick(id: string, workspaceId: string, memberId: string): Promise<void> {
    await this.db.query(`UPDATE sessions SET workspace_id = $2, member_id = $3 WHERE id = $1`, [
      id,
      workspaceId,
      memberId,
    ]);
  }

  /** The workspaces where this address is a member (not removed), by name. */
  memberships(email: string): Promise<Membership[]> {
    return this.db.query(
      `SELECT w.id AS workspace_id, w.name AS workspace_name, w.slug AS workspace_slug, m.id AS member_id, m.role
         FROM members m JOIN workspaces w ON w.id = m.workspace_id
        WHERE m.email = $1 AND m.removed_at IS NULL
        ORDER BY w.name, w.id`,
      [email],
    );
  }

  async insertLink(link: {
    tokenHash: string;
    email: string;
    next: string;
    now: Date;
    expiresAt: Date;
  }): Promise<void> {
    await this.db.query(
      `INSERT INTO sign_in_links (token_hash, email, next, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)`,
      [link.tokenHash, link.email, link.next, link.now, link.expiresAt],
    );
  }

  /** Uses a link once: its address and where it leads, or null when unknown, used or run out. */
  async useLink(tokenHash: string, now: Date, tx: Sql = this.db): Promise<{ email: string; next: string } | null> {
    const [row] = await tx.query<{ email: string; next: string }>(
      `UPDATE sign_in_links SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 ` +
        `RETURNING email, next`,
      [tokenHash, now],
    );
    return row ?? null;
  }

  /** Retention: sessions ended or run out, and links used or run out, before `before`. */
  async deleteBefore(before: Date): Promise<number> {
    const sessions = await this.db.query(`DELETE FROM sessions WHERE coalesce(ended_at, ends_at) < $1 RETURNING 1`, [
      before,
    ]);
    const links = await this.db.query(`DELETE FROM sign_in_links WHERE expires_at < $1 RETURNING 1`, [before]);
    return sessions.length + links.length;
  }
}
