// docs/rest.md#events: the typed commands a posted item becomes.
import type { IdentityKey, SourceInput } from '@app/people';
import type { WireSupport } from '@app/wire';

export interface EventCommand {
  kind: 'event';
  type: string;
  custom: boolean;
  keys: IdentityKey[];
  value?: number;
  properties?: Record<string, unknown>;
  occurredAt: Date;
  /** May already have passed: that is not a refusal, the caller answers status expired. */
  expiresAt?: Date;
  idempotencyKey?: string;
  detail?: string;
  source?: SourceInput;
}

export interface IdentifyCommand {
  kind: 'identify';
  keys: IdentityKey[];
  name?: string;
  fields?: Record<string, string | number | null>;
  source?: SourceInput;
}

export interface Consent {
  /** The consent exactly as posted, string or object, kept as proof. */
  raw: unknown;
  text: string;
  ip?: string;
  grantedAt?: Date;
}

export interface SubscribeCommand {
  kind: 'subscribe';
  keys: IdentityKey[];
  email: string;
  list: string;
  consent: Consent;
  anonId?: string;
  sourceLabel?: string;
  source?: SourceInput;
}

export interface UnsubscribeCommand {
  kind: 'unsubscribe';
  keys: IdentityKey[];
  email: string;
  list: string;
}

/** The support item's own fields (message, from, who, topic, version) as the wire names them. */
export interface SupportCommand extends Pick<WireSupport, 'message' | 'from' | 'who' | 'topic' | 'version'> {
  kind: 'support';
  keys: IdentityKey[];
  anonId?: string;
  source?: SourceInput;
}

export type Command = EventCommand | IdentifyCommand | SubscribeCommand | UnsubscribeCommand | SupportCommand;
