import { MigrationInterface, QueryRunner } from 'typeorm';

// A post whose key this process already knows is not looked up again before it is applied;
// the statement that writes it checks the key instead (keyRecheckCte in workspaces.repository.ts), and
// this function fails that statement, and so the whole transaction, when the key has been revoked or
// its member removed since. LL401 is Lifeline's own SQLSTATE for it (isKeyRefused).
const UP = `
CREATE FUNCTION lifeline_key_refused(key_id text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the key % was revoked or its member removed', key_id USING ERRCODE = 'LL401';
END $$;
`;

export class KeyRecheck1765200000000 implements MigrationInterface {
  name = 'KeyRecheck1765200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION lifeline_key_refused(text)`);
  }
}
