import { MigrationInterface, QueryRunner } from 'typeorm';

// Automations (docs/rest.md#an-automations-start-address, docs/graphql.md#automations).
// A run keeps its state in PostgreSQL: the next step, when it is due, and who holds it, so a wait of a
// day survives a restart of the worker and of Redis. A run started by a happening is unique per
// automation and outbox row, so a replayed row starts nothing twice. A run keeps the trigger and the
// steps it started with, so editing an automation never changes what a run in flight does next.
const UP = `
-- Global: the start address names only the automation, before its workspace is known.
CREATE UNIQUE INDEX automations_id ON automations (id);
ALTER TABLE automations ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();

ALTER TABLE automation_runs
  ADD COLUMN outbox_id bigint,
  ADD COLUMN trigger jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN steps jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN properties jsonb,
  ADD COLUMN happened_at timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN step integer NOT NULL DEFAULT 0,
  ADD COLUMN due_at timestamptz,
  ADD COLUMN claim text,
  ADD COLUMN claimed_until timestamptz,
  ADD CONSTRAINT automation_runs_state CHECK (state IN ('running', 'waiting', 'finished', 'failed'));
CREATE UNIQUE INDEX automation_runs_happening ON automation_runs (workspace_id, automation_id, outbox_id)
  WHERE outbox_id IS NOT NULL;
CREATE INDEX automation_runs_due ON automation_runs (due_at) WHERE state IN ('running', 'waiting');
CREATE INDEX automation_runs_ended ON automation_runs (finished_at) WHERE finished_at IS NOT NULL;
`;

const DOWN = `
DROP INDEX IF EXISTS automation_runs_ended, automation_runs_due, automation_runs_happening, automations_id;
ALTER TABLE automation_runs DROP CONSTRAINT IF EXISTS automation_runs_state,
  DROP COLUMN IF EXISTS outbox_id, DROP COLUMN IF EXISTS trigger, DROP COLUMN IF EXISTS steps,
    DROP COLUMN IF EXISTS properties,
  DROP COLUMN IF EXISTS happened_at, DROP COLUMN IF EXISTS step, DROP COLUMN IF EXISTS due_at,
  DROP COLUMN IF EXISTS claim, DROP COLUMN IF EXISTS claimed_until;
ALTER TABLE automations DROP COLUMN IF EXISTS updated_at;
`;

export class AutomationRuns1764500000000 implements MigrationInterface {
  name = 'AutomationRuns1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(DOWN);
  }
}
