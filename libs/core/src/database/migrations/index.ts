import { InitialSchema1763856000000 } from './1763856000000-initial-schema';
import { MessageSending1763942400000 } from './1763942400000-message-sending';
import { DeliveryEndpointKey1764028800000 } from './1764028800000-delivery-endpoint-key';
import { OutboxRetention1764115200000 } from './1764115200000-outbox-retention';
import { KeyLastUse1764300000000 } from './1764300000000-key-last-use';
import { ChartIndex1764300100000 } from './1764300100000-chart-index';
import { WebhookEndpointHealth1764800000000 } from './1764800000000-webhook-endpoint-health';

/** Every migration, oldest first. Later issues append here, in timestamp order. */
export const MIGRATIONS = [
  InitialSchema1763856000000,
  MessageSending1763942400000,
  DeliveryEndpointKey1764028800000,
  OutboxRetention1764115200000,
  KeyLastUse1764300000000,
  ChartIndex1764300100000,
  WebhookEndpointHealth1764800000000,
];
