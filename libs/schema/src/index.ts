// Every lib's migrations, merged by timestamp: the one list the runner, readiness, the CLI and the
// tests migrate with. Each lib keeps the migrations of the tables it owns (libs/<lib>/src/migrations);
// this file only names them, through each lib's light `migrations` entry.
import { mergeMigrations } from '@app/platform/plain';
import { AUTOMATIONS_MIGRATIONS } from '@app/automations/migrations';
import { INTEGRATIONS_MIGRATIONS } from '@app/integrations/migrations';
import { EDGE_MIGRATIONS } from '@app/edge/migrations';
import { EVENTS_MIGRATIONS } from '@app/events/migrations';
import { MESSAGING_MIGRATIONS } from '@app/messaging/migrations';
import { OUTBOX_MIGRATIONS } from '@app/outbox/migrations';
import { PEOPLE_MIGRATIONS } from '@app/people/migrations';
import { WEBHOOKS_MIGRATIONS } from '@app/webhooks/migrations';
import { WORKSPACES_MIGRATIONS } from '@app/workspaces/migrations';

export const MIGRATIONS = mergeMigrations(
  WORKSPACES_MIGRATIONS,
  EDGE_MIGRATIONS,
  OUTBOX_MIGRATIONS,
  PEOPLE_MIGRATIONS,
  EVENTS_MIGRATIONS,
  MESSAGING_MIGRATIONS,
  WEBHOOKS_MIGRATIONS,
  AUTOMATIONS_MIGRATIONS,
  INTEGRATIONS_MIGRATIONS,
);
