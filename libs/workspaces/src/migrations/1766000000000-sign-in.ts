import { MigrationInterface, QueryRunner } from 'typeorm';

// People sign in (sessions, one-time email links) and connectors sign in through OAuth 2.1
// (registered clients, authorization codes, connections and their tokens). Every secret is stored as
// its SHA-256 hash; the tokens themselves are shown once and never kept.
const UP = `
CREATE TABLE sessions (
  id text PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  via text NOT NULL CHECK (via IN ('key', 'email', 'operator')),
  email text,
  workspace_id text REFERENCES workspaces(id) ON DELETE CASCADE,
  member_id text,
  key_id text,
  operator_hash text,
  created_at timestamptz NOT NULL,
  seen_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL,
  ended_at timestamptz
);
CREATE INDEX sessions_member ON sessions (workspace_id, member_id) WHERE ended_at IS NULL;

CREATE TABLE sign_in_links (
  token_hash text PRIMARY KEY,
  email text NOT NULL,
  next text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

CREATE TABLE oauth_clients (
  id text PRIMARY KEY,
  name text NOT NULL,
  redirect_uris text[] NOT NULL,
  info jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE oauth_codes (
  code_hash text PRIMARY KEY,
  client_id text NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  workspace_id text NOT NULL,
  member_id text NOT NULL,
  challenge text NOT NULL,
  redirect_uri text NOT NULL,
  resource text NOT NULL,
  scopes text[] NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  FOREIGN KEY (workspace_id, member_id) REFERENCES members(workspace_id, id) ON DELETE CASCADE
);

CREATE TABLE connections (
  workspace_id text NOT NULL,
  id text NOT NULL,
  client_id text NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  member_id text NOT NULL,
  resource text NOT NULL,
  scopes text[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz,
  PRIMARY KEY (workspace_id, id),
  FOREIGN KEY (workspace_id, member_id) REFERENCES members(workspace_id, id) ON DELETE CASCADE
);

CREATE TABLE connection_tokens (
  token_hash text PRIMARY KEY,
  workspace_id text NOT NULL,
  connection_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('access', 'refresh')),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (workspace_id, connection_id) REFERENCES connections(workspace_id, id) ON DELETE CASCADE
);
CREATE INDEX connection_tokens_connection ON connection_tokens (workspace_id, connection_id);
`;

export class SignIn1766000000000 implements MigrationInterface {
  name = 'SignIn1766000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP TABLE connection_tokens, connections, oauth_codes, oauth_clients, sign_in_links, sessions`,
    );
  }
}
