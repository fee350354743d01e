import { InitialSchema1763856000000 } from './1763856000000-initial-schema';
import { MessageSending1763942400000 } from './1763942400000-message-sending';
import { DeliveryEndpointKey1764028800000 } from './1764028800000-delivery-endpoint-key';
import { OutboxRetention1764115200000 } from './1764115200000-outbox-retention';
import { AutomationRuns1764500000000 } from './1764500000000-automation-runs';
import { KeyLastUse1764300000000 } from './1764300000000-key-last-use';
import { ChartIndex1764300100000 } from './1764300100000-chart-index';
import { DoorReceiptAnswers1764400000000 } from './1764400000000-door-receipt-answers';
import { WebhookEndpointHealth1764800000000 } from './1764800000000-webhook-endpoint-health';
import { ChartBucketStatistics1765000000000 } from './1765000000000-chart-bucket-statistics';
import { OutboxHighWaterMark1765100000000 } from './1765100000000-outbox-high-water-mark';
import { KeyRecheck1765200000000 } from './1765200000000-key-recheck';
import { EventsPersonKey1765300000000 } from './1765300000000-events-person-key';

/** Every migration, oldest first. Later issues append here, in timestamp order. */
export const MIGRATIONS = [
  InitialSchema1763856000000,
  MessageSending1763942400000,
  DeliveryEndpointKey1764028800000,
  OutboxRetention1764115200000,
  KeyLastUse1764300000000,
  ChartIndex1764300100000,
  DoorReceiptAnswers1764400000000,
  AutomationRuns1764500000000,
  WebhookEndpointHealth1764800000000,
  ChartBucketStatistics1765000000000,
  OutboxHighWaterMark1765100000000,
  KeyRecheck1765200000000,
  EventsPersonKey1765300000000,
];
