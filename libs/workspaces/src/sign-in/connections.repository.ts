// The only code that reads and writes oauth_clients, oauth_codes, connections and connection_tokens:
// connectors registered by dynamic registration, the codes a member's consent makes,
// and the connection (one grant: a client acting as a member) with its access and refresh tokens.
import type { Sql, SqlDatabase } from '@app/platform/plain';
import type { MemberRole } from '../workspaces.types';

export interface ClientRow {
  id: string;
  name: string;
  redirect_uris: string[];
  info: Record<string, unknown>;
  created_at: Date;
}

export interface CodeRow {
  client_id: string;
  workspace_id: string;
  member_id: string;
  challenge: string;
  redirect_uri: string;
  /** The authorize request named redirect_uri itself (else the client's one registered address was taken). */
  redirect_uri_named: boolean;
  resource: string;
  scopes: string[];
  expires_at: Date;
  used_at: Date | null;
  /** The connection the code made, once used: a replay revokes it. */
  connection_id: string | null;
}

/** A token with what it rests on: its connection, member and workspace. */
export interface TokenRow {
  token_hash: string;
  kind: 'access' | 'refresh';
  expires_at: Date;
  used_at: Date | null;
  workspace_id: string;
  connection_id: string;
  client_id: string;
  resource: string;
  scopes: string[];
  revoked_at: Date | null;
  last_used_at: Date | null;
  member_id: string;
  member_email: string;
  role: MemberRole;
  member_removed: boolean;
  workspace_slug: string;
}

export interface ConnectionRow {
  id: string;
  client_id: string;
  client_name: string;
  member_id: string;
  member_email: string;
  created_at: Date;
  last_used_at: Date | null;
}

export interface NewToken {
  tokenHash: string;
  kind: 'access' | 'refresh';
  expiresAt: Date;
}

const TOKEN = `
SELECT t.token_hash, t.kind, t.expires_at, t.used_at, t.workspace_id, t.connection_id, c.client_id, c.resource,
  c.scopes, c.revoked_at, c.last_used_at,
       c.member_id, m.email AS member_email, m.role, m.removed_at IS NOT NULL AS member_removed,
         w.slug AS workspace_slug
  FROM connection_tokens t
  JOIN connections c ON c.workspace_id = t.workspace_id AND c.id = t.connection_id
  JOIN members m ON m.workspace_id = c.workspace_id AND m.id = c.member_id
  JOIN workspaces w ON w.id = c.workspace_id
 WHERE t.token_hash = $1`;

export class ConnectionsRepository {
  constructor(private readonly db: SqlDatabase) {}

  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async insertClient(row: Omit<ClientRow, 'created_at'>): Promise<void> {
    await this.db.query(`INSERT INTO oauth_clients (id, name, redirect_uris, info) VALUES ($1, $2, $3, $4)`, [
      row.id,
      row.name,
      row.redirect_uris,
      JSON.stringify(row.info),
    ]);
  }

  async client(id: string): Promise<ClientRow | null> {
    const [row] = await this.db.query<ClientRow>(
      `SELECT id, name, redirect_uris, info, created_at FROM oauth_clients WHERE id = $1`,
      [id],
    );
    return row ?? null;
  }

  async insertCode(codeHash: string, code: Omit<CodeRow, 'used_at' | 'connection_id'>): Promise<void> {
    await this.db.query(
      `INSERT INTO oauth_codes (code_hash, client_id, workspace_id, member_id, challenge, redirect_uri, resource,
        scopes, expires_at, redirect_uri_named)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        codeHash,
        code.client_id,
        code.workspace_id,
        code.member_id,
        code.challenge,
        code.redirect_uri,
        code.resource,
        code.scopes,
        code.expires_at,
        code.redirect_uri_named,
      ],
    );
  }

  async code(codeHash: string, tx: Sql = this.db, lock = false): Promise<CodeRow | null> {
    const [row] = await tx.query<CodeRow>(
      `SELECT client_id, workspace_id, member_id, challenge, redirect_uri, redirect_uri_named, resource, scopes, ` +
        `expires_at, used_at, connection_id FROM oauth_codes WHERE code_hash = $1${lock ? ' FOR UPDATE' : ''}`,
      [codeHash],
    );
    return row ?? null;
  }

  async useCode(tx: Sql, codeHash: string, now: Date, connectionId: string): Promise<void> {
    await tx.query(`UPDATE oauth_codes SET used_at = $2, connection_id = $3 WHERE code_hash = $1`, [
      codeHash,
      now,
      connectionId,
    ]);
  }

  async insertConnection(
    tx: Sql,
    c: { workspaceId: string; id: string; clientId: string; memberId: string; resource: string; scopes: string[] },
  ): Promise<void> {
    await tx.query(
      `INSERT INTO connections (workspace_id, id, client_id, member_id, resource, scopes) VALUES ($1, $2, $3, ` +
        `$4, $5, $6)`,
      [c.workspaceId, c.id, c.clientId, c.memberId, c.resource, c.scopes],
    );
  }

  async insertTokens(tx: Sql, workspaceId: string, connectionId: string, tokens: NewToken[]): Promise<void> {
    await tx.query(
      `INSERT INTO connection_tokens (token_hash, workspace_id, connection_id, kind, expires_at)
       SELECT unnest($3::text[]), $1, $2, unnest($4::text[]), unnest($5::timestamptz[])`,
      [
        workspaceId,
        connectionId,
        tokens.map((t) => t.tokenHash),
        tokens.map((t) => t.kind),
        tokens.map((t) => t.expiresAt),
      ],
    );
  }

  async token(tokenHash: string, tx: Sql = this.db, lock = false): Promise<TokenRow | null> {
    const [row] = lock
      ? await tx.query<TokenRow>(`${TOKEN} FOR UPDATE OF t`, [tokenHash])
      : await this.db.prepared<TokenRow>('connection_token', TOKEN, [tokenHash]);
    return row ?? null;
  }

  async useToken(tx: Sql, tokenHash: string, now: Date): Promise<void> {
    await tx.query(`UPDATE connection_tokens SET used_at = $2 WHERE token_hash = $1`, [tokenHash, now]);
  }

  async touch(workspaceId: string, connectionId: string, now: Date): Promise<void> {
    await this.db.query(`UPDATE connections SET last_used_at = $3 WHERE workspace_id = $1 AND id = $2`, [
      workspaceId,
      connectionId,
      now,
    ]);
  }

  /**
   * Revokes a connection (every token of it stops); false when it was not a live one of the workspace (and member, when
   * given).
   */
  async revoke(
    workspaceId: string,
    connectionId: string,
    now: Date,
    memberId?: string,
    tx: Sql = this.db,
  ): Promise<boolean> {
    const rows = await tx.query(
      `UPDATE connections SET revoked_at = $3 WHERE workspace_id = $1 AND id = $2 AND revoked_at IS NULL AND ` +
        `($4::text IS NULL OR member_id = $4) RETURNING 1`,
      [workspaceId, connectionId, now, memberId ?? null],
    );
    return rows.length > 0;
  }

  /** The live connections of a workspace (of one member, when given), newest first. */
  list(workspaceId: string, memberId?: string): Promise<ConnectionRow[]> {
    return this.db.query(
      `SELECT c.id, c.client_id, cl.name AS client_name, c.member_id, m.email AS member_email, c.created_at,
        c.last_used_at
         FROM connections c JOIN oauth_clients cl ON cl.id = c.client_id JOIN members m
           ON m.workspace_id = c.workspace_id AND m.id = c.member_id
        WHERE c.workspace_id = $1 AND c.revoked_at IS NULL AND ($2::text IS NULL OR c.member_id = $2)
        ORDER BY c.created_at DESC, c.id DESC`,
      [workspaceId, memberId ?? null],
    );
  }

  /** Retention: codes and tokens run out before `before`, and revoked connections' rows. */
  async deleteBefore(before: Date): Promise<number> {
    const codes = await this.db.query(`DELETE FROM oauth_codes WHERE expires_at < $1 RETURNING 1`, [before]);
    const tokens = await this.db.query(`DELETE FROM connection_tokens WHERE expires_at < $1 RETURNING 1`, [before]);
    const revoked = await this.db.query(`DELETE FROM connections WHERE revoked_at < $1 RETURNING 1`, [before]);
    return codes.length + tokens.length + revoked.length;
  }
}
