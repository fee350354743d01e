import { MigrationInterface, QueryRunner } from 'typeorm';

// An authorization code remembers whether its authorize request named redirect_uri (then the token
// request must name the same one, RFC 6749 section 4.1.3) and, once used, the connection it made, so a
// replayed code revokes that connection's tokens (OAuth 2.1 section 4.1.3). Codes live a minute: the
// default only concerns codes in flight during the upgrade, which are then held to the stricter rule.
const UP = `
ALTER TABLE oauth_codes
  ADD COLUMN redirect_uri_named boolean NOT NULL DEFAULT true,
  ADD COLUMN connection_id text;
`;

export class OAuthCodeGrant1767330000000 implements MigrationInterface {
  name = 'OAuthCodeGrant1767330000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE oauth_codes DROP COLUMN redirect_uri_named, DROP COLUMN connection_id`);
  }
}
