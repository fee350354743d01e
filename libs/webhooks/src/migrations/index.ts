// The migrations of webhooks's tables, oldest first (platform's migrate merges every lib's by timestamp).
import { WebhooksSchema1763856000007 } from './1763856000007-webhooks-schema';
import { DeliveryEndpointKey1764028800000 } from './1764028800000-delivery-endpoint-key';
import { WebhookEndpointHealth1764800000000 } from './1764800000000-webhook-endpoint-health';
import { DeliveriesCreatedBrin1766900000700 } from './1766900000700-deliveries-created-brin';
import { WebhookReplays1767913846172 } from './1767913846172-webhook-replays';

export const WEBHOOKS_MIGRATIONS = [
  WebhooksSchema1763856000007,
  DeliveryEndpointKey1764028800000,
  WebhookEndpointHealth1764800000000,
  DeliveriesCreatedBrin1766900000700,
  WebhookReplays1767913846172,
];
