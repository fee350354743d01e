// The migrations of automations's tables, oldest first (platform's migrate merges every lib's by timestamp).
import { AutomationsSchema1763856000008 } from './1763856000008-automations-schema';
import { AutomationRuns1764500000000 } from './1764500000000-automation-runs';
import { PassedOverHistory1767310000001 } from './1767310000001-passed-over-history';

export const AUTOMATIONS_MIGRATIONS = [
  AutomationsSchema1763856000008,
  AutomationRuns1764500000000,
  PassedOverHistory1767310000001,
];
