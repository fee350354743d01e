import { MigrationInterface, QueryRunner } from 'typeorm';

// A person's data on request. suppressions keeps each erased identity as a keyed hash (HMAC
// under APP_SECRET, domain/suppression.ts), so a later post naming it writes nothing; erasures is the
// proof that an erasure happened, with no personal data: a hash of the record id, the time, who asked
// and how many rows went from each table.
const UP = `
CREATE TABLE suppressions (
  workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  hash text NOT NULL,
  erasure_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, hash)
);

CREATE TABLE erasures (
  workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  id text NOT NULL,
  person_hash text NOT NULL,
  asked_by text NOT NULL,
  counts jsonb NOT NULL,
  erased_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id)
);
CREATE INDEX erasures_erased ON erasures (workspace_id, erased_at DESC);

-- The ingest's write checks the keys it is about to add against the list (suppressionCheckCte): a key
-- erased since the post's load fails the statement with LL410 (isSuppressedRace) and the post runs again.
CREATE FUNCTION lifeline_key_suppressed(hash text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'an identity key of this post was erased (%)', hash USING ERRCODE = 'LL410';
END $$;
`;

export class PersonErasure1766200000000 implements MigrationInterface {
  name = 'PersonErasure1766200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP FUNCTION IF EXISTS lifeline_key_suppressed(text); DROP TABLE IF EXISTS erasures, suppressions;`,
    );
  }
}
