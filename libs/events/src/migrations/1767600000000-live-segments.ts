import { MigrationInterface, QueryRunner } from 'typeorm';

// Live segments (docs/graphql.md#segments): a segment's definition, its members kept on the write, and
// its count kept beside them in slots (one per connection, so concurrent writers never wait on one row;
// the count is the sum; no foreign key to the segment, whose check would lock its row once per membership
// written: the membership statement locks each segment it writes once, and a delete removes its rows).
// segment_revisions holds one number per workspace, raised by every change of its segments: the ingest write
// checks the revision it compiled against (segmentsCheckCte), and
// lifeline_segments_changed fails a write that compiled an older one (LL409, isSegmentsChanged), which then
// runs again with the segments as they are. The fill columns are the backfill's progress: fill_after is the
// last person id it went over, fill_done how many, fill_total how many there were when it began.
const UP = `
CREATE TABLE segments (
  workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  id text NOT NULL,
  name text NOT NULL,
  definition jsonb NOT NULL,
  filling boolean NOT NULL DEFAULT true,
  announce_fill boolean NOT NULL DEFAULT false,
  fill_after text,
  fill_done integer NOT NULL DEFAULT 0,
  fill_total integer,
  fill_started_at timestamptz,
  filled_at timestamptz,
  swept_to timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id),
  UNIQUE (workspace_id, name));
CREATE INDEX segments_id ON segments (id);
CREATE INDEX segments_filling ON segments (created_at) WHERE filling;
CREATE TABLE segment_revisions (
  workspace_id text PRIMARY KEY REFERENCES workspaces(id) ON DELETE CASCADE,
  revision bigint NOT NULL);
CREATE TABLE segment_members (
  workspace_id text NOT NULL,
  segment_id text NOT NULL,
  person_id text NOT NULL,
  entered_at timestamptz NOT NULL,
  PRIMARY KEY (workspace_id, segment_id, person_id));
CREATE INDEX segment_members_person ON segment_members (workspace_id, person_id);
CREATE TABLE segment_counts (
  workspace_id text NOT NULL,
  segment_id text NOT NULL,
  slot smallint NOT NULL,
  members bigint NOT NULL,
  PRIMARY KEY (workspace_id, segment_id, slot));
CREATE FUNCTION lifeline_segments_changed() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the workspace''s segments changed since this write was compiled' USING ERRCODE = 'LL409';
END $$;
`;

export class LiveSegments1767600000000 implements MigrationInterface {
  name = 'LiveSegments1767600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP FUNCTION lifeline_segments_changed();
       DROP TABLE segment_counts, segment_members, segment_revisions, segments;`,
    );
  }
}
