import { MigrationInterface, QueryRunner } from 'typeorm';

// Live segments (docs/decisions.md#live-membership-on-the-write-counted-in-slots-announced-once-filled): a
// membership row no longer checks its segment by a foreign key, which locked the segment's row once per row
// written (a post's hundreds of memberships, each a lock of one of twenty rows). The membership statement locks
// each segment it writes once (FOR KEY SHARE), and a segment's delete removes its members and counts itself.
const UP = `
ALTER TABLE segment_members DROP CONSTRAINT segment_members_segment_id_fkey;
ALTER TABLE segment_counts DROP CONSTRAINT segment_counts_segment_id_fkey;`;

const DOWN = `
DELETE FROM segment_members m WHERE NOT EXISTS (SELECT 1 FROM segments s WHERE s.id = m.segment_id);
DELETE FROM segment_counts c WHERE NOT EXISTS (SELECT 1 FROM segments s WHERE s.id = c.segment_id);
ALTER TABLE segment_members ADD CONSTRAINT segment_members_segment_id_fkey
  FOREIGN KEY (segment_id) REFERENCES segments(id) ON DELETE CASCADE;
ALTER TABLE segment_counts ADD CONSTRAINT segment_counts_segment_id_fkey
  FOREIGN KEY (segment_id) REFERENCES segments(id) ON DELETE CASCADE;`;

export class SegmentMembersUnbound1767600000001 implements MigrationInterface {
  name = 'SegmentMembersUnbound1767600000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(DOWN);
  }
}
