// The migrations of integrations's tables, oldest first (platform's migrate merges every lib's by timestamp).
import { IntegrationsSchema1763856000009 } from './1763856000009-integrations-schema';

export const INTEGRATIONS_MIGRATIONS = [IntegrationsSchema1763856000009];
