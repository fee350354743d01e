// docs/webhooks.md#triggers-and-bodies and docs/webhooks.md#automation-posts (data by trigger, one
// happening is one delivery, most specific type). How the body is signed, X-Service-Signature and the Standard Webhooks
// webhook-signature: docs/webhooks.md#signatures.
import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import { type HappeningKind, TRIGGER_NAMES } from '@app/events';
import { keptIn, randomBase62 } from '@app/platform';

/** The triggers are the happening kinds: a new kind of happening is a new trigger. */
export const TRIGGERS = TRIGGER_NAMES;
export type Trigger = HappeningKind;

/** Body types beyond the triggers: test (Send a test) and automation (an http_request step). */
export const SPECIAL_TYPES = ['test', 'automation'] as const;
export type WebhookType = Trigger | (typeof SPECIAL_TYPES)[number];

// Most specific first: event is the catch-all (a reply is also an event, so email_in wins over it). A segment's
// entry or exit is a happening of its own, never beside another trigger.
const SPECIFICITY: readonly Trigger[] = [
  'person_erased',
  'stage_entered',
  'segment_entered',
  'segment_left',
  'email_in',
  'subscribed',
  'unsubscribed',
  'field_changed',
  'event',
];

export function isTrigger(value: unknown): value is Trigger {
  return typeof value === 'string' && (TRIGGERS as readonly string[]).includes(value);
}

/**
 * The type of the one delivery an address gets for a happening: the most specific of the
 * happening's triggers, when the address hears any of them; null when it hears none.
 * An address that asked only for event still hears a reply, typed email_in ("The body's type is
 * always the most specific applicable name").
 */
export function mostSpecificTrigger(
  happeningTriggers: readonly Trigger[],
  listenedTriggers: readonly string[],
): Trigger | null {
  if (!happeningTriggers.some((trigger) => listenedTriggers.includes(trigger))) return null;
  return SPECIFICITY.find((trigger) => happeningTriggers.includes(trigger)) ?? null;
}

/**
 * What one address gets of a happening: the type (mostSpecificTrigger) and that trigger's own facts from the
 * happening's data (a segment's entry: `{segment: {id, name}}`); null when it hears none of its triggers.
 */
export function happeningDelivery(
  happeningData: Readonly<Record<string, Record<string, unknown> | undefined>>,
  listenedTriggers: readonly string[],
): { type: Trigger; data: Record<string, unknown> } | null {
  const type = mostSpecificTrigger(Object.keys(happeningData).filter(isTrigger), listenedTriggers);
  return type ? { type, data: happeningData[type] ?? {} } : null;
}

export interface WebhookRecord {
  id: string;
  kind: 'person';
  name: string;
  email?: string | null;
  stage?: string | null;
}

/** The body's record of a person as they are now (a person without a name has name ""). */
export function personRecord(person: {
  id: string;
  name: string | null;
  email: string | null;
  stage: string | null;
}): WebhookRecord {
  return { id: person.id, kind: 'person', name: person.name ?? '', email: person.email, stage: person.stage };
}

export interface WebhookBodyInput {
  deliveryId: string;
  type: WebhookType;
  at: Date;
  workspace: { id: string; slug: string };
  record: WebhookRecord;
  data: Record<string, unknown>;
}

/**
 * The exact JSON text that is signed, stored and resent unchanged. Keys are written in the
 * spec's order and nothing beyond the listed fields leaves the service.
 */
export function buildWebhookBody(input: WebhookBodyInput): string {
  return webhookBodyWithId(input.deliveryId, webhookBodyAfterId(input));
}

/**
 * The body after its id, the same for every delivery of one happening and type (the relay writes it
 * once for all the addresses that hear it): `"type":…}`.
 */
export function webhookBodyAfterId(input: Omit<WebhookBodyInput, 'deliveryId'>): string {
  const record: Record<string, string> = { id: input.record.id, kind: input.record.kind, name: input.record.name };
  if (input.record.email != null) record.email = input.record.email;
  if (input.record.stage != null) record.stage = input.record.stage;
  // JSON.stringify writes an object's members in order, comma separated: the id goes in front of these.
  return JSON.stringify({
    type: input.type,
    at: input.at.toISOString(),
    workspace: { id: input.workspace.id, slug: input.workspace.slug },
    record,
    data: input.data,
  }).slice(1);
}

/** The whole body: `{"id":…,` and the rest (webhookBodyAfterId). */
export function webhookBodyWithId(deliveryId: string, afterId: string): string {
  return `{"id":${JSON.stringify(deliveryId)},${afterId}`;
}

/** Who a stored body named, as it was sent (the delivery log shows the person by email); null when it named nobody. */
export function recordOfBody(body: string): { id: string; email: string | null; name: string | null } | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  const record = (parsed as { record?: unknown } | null)?.record as Record<string, unknown> | undefined;
  if (!record || typeof record !== 'object' || typeof record.id !== 'string') return null;
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  return { id: record.id, email: text(record.email), name: text(record.name) };
}

/** data of an automation http_request body; trigger.event only when the trigger is an event. */
export function automationStepData(
  automation: { number: number; name: string },
  trigger: { kind: string; event?: string | null },
): Record<string, unknown> {
  const triggerData: Record<string, string> = { kind: trigger.kind };
  if (trigger.event != null) triggerData.event = trigger.event;
  return { automation: { number: automation.number, name: automation.name }, trigger: triggerData };
}

// The signature. The HMAC key is the secret exactly as shown at creation (its UTF-8 bytes, whsec_
// prefix included).
export const SIGNATURE_PREFIX = 'sha256=';
export const ENDPOINT_SECRET_PREFIX = 'whsec_';

const SIGNATURE_HEADER_VALUE = /^sha256=([0-9a-f]{64})$/i;

// Keys kept per secret: a string key is encoded into a new key on every HMAC (a burst's profile showed
// it as a third of the signing).
const bodyKeys = new Map<string, KeyObject>();
const bodyKey = (secret: string) => createSecretKey(Buffer.from(secret, 'utf8'));

/** The X-Service-Signature value: sha256= and the hex HMAC-SHA256 of the exact body bytes. */
export function signBody(secret: string, body: string | Buffer): string {
  return (
    SIGNATURE_PREFIX +
    createHmac('sha256', keptIn(bodyKeys, secret, bodyKey))
      .update(body)
      .digest('hex')
  );
}

/** Recompute the HMAC over the exact raw body and compare in constant time. */
export function verifySignature(secret: string, body: string | Buffer, header: string | null | undefined): boolean {
  const match = SIGNATURE_HEADER_VALUE.exec((header ?? '').trim());
  if (!match) return false;
  const given = Buffer.from(match[1], 'hex');
  const expected = createHmac('sha256', secret).update(body).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A new outgoing webhook secret, shown once when the address is added. */
export function generateEndpointSecret(): string {
  return ENDPOINT_SECRET_PREFIX + randomBase62(32);
}

// Standard Webhooks (docs/webhooks.md#signatures): webhook-signature is
// v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">, keyed with the secret after whsec_ decoded
// from base64, as the standardwebhooks package does. Node's decoder also takes base64url, so a
// secret written in either alphabet gives the same key.
const standardKeys = new Map<string, Buffer>();

/** The HMAC key Standard Webhooks derives from a whsec_ secret. */
export function standardWebhookKey(secret: string): Buffer {
  return keptIn(standardKeys, secret, (s) =>
    Buffer.from(s.startsWith(ENDPOINT_SECRET_PREFIX) ? s.slice(ENDPOINT_SECRET_PREFIX.length) : s, 'base64'),
  );
}

/**
 * The webhook-signature value: one v1 signature per secret, space-separated (a rotated secret and
 * the one it replaces both sign during the overlap, newest first).
 */
export function signStandard(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string | Buffer,
): string {
  // The HMAC takes the two parts in turn: the same bytes as their concatenation, without copying the body.
  const prefix = `${id}.${timestampSeconds}.`;
  const sign = (secret: string) =>
    'v1,' + createHmac('sha256', standardWebhookKey(secret)).update(prefix).update(body).digest('base64');
  return secrets.length === 1 ? sign(secrets[0]) : secrets.map(sign).join(' ');
}
