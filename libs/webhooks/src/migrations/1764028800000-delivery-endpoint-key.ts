import { MigrationInterface, QueryRunner } from 'typeorm';

// Outgoing webhooks: a delivery belongs to its address. The key makes deleting an address
// delete its delivery log, and makes the relay's insert fail (and retry without that address) when
// the address is deleted while the relay runs, so no delivery can be left without an address.
const UP = `
DELETE FROM deliveries d WHERE NOT EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.workspace_id = d.workspace_id
  AND e.id = d.endpoint_id);
ALTER TABLE deliveries ADD CONSTRAINT deliveries_endpoint_fkey
  FOREIGN KEY (workspace_id, endpoint_id) REFERENCES webhook_endpoints (workspace_id, id) ON DELETE CASCADE;
`;

const DOWN = `
ALTER TABLE deliveries DROP CONSTRAINT IF EXISTS deliveries_endpoint_fkey;
`;

export class DeliveryEndpointKey1764028800000 implements MigrationInterface {
  name = 'DeliveryEndpointKey1764028800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(DOWN);
  }
}
