// Segment's HTTP Tracking API onto Lifeline's own rules (docs/rest.md#segments-http-tracking-api). Each
// Segment call (track, identify, page, screen, group, alias) becomes one events-endpoint item, which
// IngestService then takes like any other (identity, stages, consent, idempotency, outgoing webhooks);
// segment-call.spec.ts tests the mapping row by row.
import { Refusal } from '@app/platform';
import { invalidField, isAbsent, isObject, isPlainObject, Obj } from '@app/edge/posted-input';
import { type BuiltInEvent, CUSTOM_NAME_PATTERN } from './catalogue';
import { occurredAt, type SegmentArrival } from './segment-arrival';

export const SEGMENT_CALL_TYPES = ['track', 'identify', 'page', 'screen', 'group', 'alias'] as const;
export type SegmentCallType = (typeof SEGMENT_CALL_TYPES)[number];

/**
 * What each path under /v1 takes: one call (by name, or by the letter Segment's browser library posts to) or a batch.
 */
export const SEGMENT_PATHS: Readonly<Record<string, SegmentCallType | 'batch'>> = {
  track: 'track',
  t: 'track',
  identify: 'identify',
  i: 'identify',
  page: 'page',
  p: 'page',
  screen: 'screen',
  s: 'screen',
  group: 'group',
  g: 'group',
  alias: 'alias',
  a: 'alias',
  batch: 'batch',
  b: 'batch',
  import: 'batch',
};

/** Segment's own limits: one message, and one batch call. */
export const SEGMENT_MESSAGE_LIMIT = 32 * 1024;
export const SEGMENT_BATCH_LIMIT = 500 * 1024;

/** Segment's spec event names that are events of the catalogue, by Segment's spelling. */
export const SEGMENT_SPEC_EVENTS: Readonly<Record<string, BuiltInEvent>> = {
  'Order Completed': 'purchase',
  'Signed Up': 'signup',
  'Signed In': 'sign_in',
  'Trial Started': 'trial_started',
  'Subscription Cancelled': 'subscription_cancelled',
  'Order Refunded': 'refund',
  'Account Deleted': 'account_deleted',
};

/** "Order Completed", "order_completed" and "orderCompleted" all read order_completed. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

const SPEC_BY_SNAKE: ReadonlyMap<string, BuiltInEvent> = new Map(
  Object.entries(SEGMENT_SPEC_EVENTS).map(([name, event]) => [snakeCase(name), event]),
);

/** Names a workspace's calls repeat, mapped once (a process keeps up to NAMES_KEPT; then it starts again). */
const NAMES_KEPT = 1_000;
const named = new Map<string, string>();

/**
 * A track's event: a spec name onto the catalogue, else snake_cased (a catalogue name stays itself; any other is a
 * custom name).
 */
export function segmentEventName(name: unknown): string | Refusal {
  if (typeof name !== 'string' || name.trim() === '')
    return new Refusal('unknown_event', 'Name the event in event, like "Order Completed".');
  const known = named.get(name);
  if (known) return known;
  const snake = snakeCase(name);
  const event = SPEC_BY_SNAKE.get(snake) ?? snake;
  if (!CUSTOM_NAME_PATTERN.test(event)) {
    return new Refusal(
      'unknown_event',
      `"${name.slice(0, 60)}" makes no event name: once snake_cased it must be 2 to 40 letters, digits and ` +
        `underscores.`,
    );
  }
  if (named.size >= NAMES_KEPT) named.clear();
  named.set(name, event);
  return event;
}

/** The operating system of a user agent, as the website tag reads it: win, mac, linux or other. */
export function osOfUserAgent(userAgent: string): 'win' | 'mac' | 'linux' | 'other' {
  if (/android|iphone|ipad|ipod|cros/i.test(userAgent)) return 'other';
  if (/windows/i.test(userAgent)) return 'win';
  if (/macintosh|mac os x/i.test(userAgent)) return 'mac';
  return /linux|x11/i.test(userAgent) ? 'linux' : 'other';
}

const objectAt = (value: unknown): Obj => (isObject(value) ? value : {});
const textAt = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;
/** Segment allows a number for userId and anonymousId. */
const idAt = (value: unknown): string | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? String(value) : textAt(value);
const numberAt = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** The item of `type` with its keys: userId, anonymousId and traits.email (else context.traits.email). */
function itemWithKeys(type: string, message: Obj, context: Obj, traits: Obj): Obj | Refusal {
  for (const field of ['userId', 'anonymousId']) {
    if (!isAbsent(message[field]) && idAt(message[field]) === undefined && message[field] !== '')
      return invalidField(field, 'a string or a number');
  }
  const email = textAt(traits.email) ?? textAt(objectAt(context.traits).email);
  return { type, account_id: idAt(message.userId), anon_id: idAt(message.anonymousId), email };
}

/** context.page (path, referrer), context.campaign (utm keys) and context.userAgent (os) as the item's source. */
function sourceOf(context: Obj, page: { path?: string; referrer?: string } = {}): Obj | undefined {
  // as a server's calls come
  if (!page.path && !page.referrer && !context.page && !context.campaign && !context.userAgent) return undefined;
  const onPage = objectAt(context.page);
  const campaign = objectAt(context.campaign);
  const utm = {
    source: textAt(campaign.source),
    medium: textAt(campaign.medium),
    campaign: textAt(campaign.name),
    term: textAt(campaign.term),
    content: textAt(campaign.content),
  };
  const userAgent = textAt(context.userAgent);
  const source = {
    path: page.path ?? textAt(onPage.path),
    referrer: page.referrer ?? textAt(onPage.referrer),
    os: userAgent && osOfUserAgent(userAgent),
    utm: Object.values(utm).some((v) => v !== undefined) ? utm : undefined,
  };
  return Object.values(source).some((v) => v !== undefined) ? source : undefined;
}

/** properties.revenue, else total, else value: the first that is a number. */
function valueOf(properties: Obj): number | undefined {
  return numberAt(properties.revenue) ?? numberAt(properties.total) ?? numberAt(properties.value);
}

/** Scalar traits as fields, keys made of what a field key may hold; nested objects and arrays stay out. */
function fieldsOf(
  traits: Obj,
  leave: readonly string[],
  prefix = '',
): Record<string, string | number | null> | undefined {
  const fields: Record<string, string | number | null> = {};
  for (const [key, value] of Object.entries(traits)) {
    if (leave.includes(key)) continue;
    const name = `${prefix}${key}`.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 64);
    if (name === '' || name === '_') continue;
    if (typeof value === 'boolean') fields[name] = String(value);
    else if (value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)))
      fields[name] = value;
  }
  return Object.keys(fields).length ? fields : undefined;
}

/** traits.name, else first and last name joined; which traits it used. */
function nameOf(traits: Obj): { name?: string; used: string[] } {
  const name = textAt(traits.name);
  if (name) return { name, used: ['name'] };
  const parts = (['firstName', 'first_name', 'lastName', 'last_name'] as const).filter((key) => textAt(traits[key]));
  const joined = parts.map((key) => (traits[key] as string).trim()).join(' ');
  return joined ? { name: joined, used: parts } : { used: [] };
}

/**
 * One Segment message as an events-endpoint item, or the refusal of its own fields. `call` is the route's
 * (a batch names it in each message's type). What the item itself may be refused for (no identity, a
 * custom name on the public key) IngestService says, as for any item.
 */
export function segmentItem(raw: unknown, call: SegmentCallType | undefined, arrival: SegmentArrival): Obj | Refusal {
  if (!isObject(raw))
    return new Refusal(
      'invalid_json',
      'Each call must be a JSON object, like {"type": "track", "event": "Signed Up", "userId": "u-1"}.',
    );
  const type = call ?? raw.type;
  if (!(SEGMENT_CALL_TYPES as readonly unknown[]).includes(type)) {
    return new Refusal(
      'unknown_event',
      `"${String(type).slice(0, 40)}" is not a Segment call: each call's type is track, identify, page, ` +
        `screen, group or alias.`,
    );
  }
  const context = arrival.context ? { ...arrival.context, ...objectAt(raw.context) } : objectAt(raw.context);
  const traits = objectAt(raw.traits);
  const item = itemWithKeys(
    type === 'track' || type === 'page' || type === 'screen' ? 'pageview' : 'identify',
    raw,
    context,
    traits,
  );
  if (item instanceof Refusal) return item;
  const refused = addIdentity(item, type as SegmentCallType, raw, traits);
  if (refused) return refused;
  if (item.type === 'identify') {
    item.source = sourceOf(context);
    return item;
  }
  return addEvent(item, type as SegmentCallType, raw, context, arrival);
}

/** What identify (name and fields), group (its id and traits) and alias (the previous id) add to the item. */
function addIdentity(item: Obj, type: SegmentCallType, raw: Obj, traits: Obj): Refusal | undefined {
  if (type === 'identify') {
    const { name, used } = nameOf(traits);
    item.name = name;
    item.fields = fieldsOf(traits, ['email', ...used]);
  } else if (type === 'group') {
    const groupId = idAt(raw.groupId);
    if (!groupId) return invalidField('groupId', "the group's id, a string or a number");
    item.fields = { group_id: groupId, ...fieldsOf(traits, ['id'], 'group_') };
  } else if (type === 'alias') {
    const previousId = idAt(raw.previousId);
    if (!previousId) return invalidField('previousId', 'the id the person had before userId, a string or a number');
    item.anon_id = previousId;
  }
  return undefined;
}

/** What track (an event), page and screen (a pageview) add to the item: when, properties, value and source. */
function addEvent(item: Obj, type: SegmentCallType, raw: Obj, context: Obj, arrival: SegmentArrival): Obj | Refusal {
  const when = occurredAt(raw, arrival);
  if (when instanceof Refusal) return when;
  // Segment's libraries send {} for a call without properties: kept as none, as a post without them.
  const properties =
    isPlainObject(raw.properties) && Object.keys(raw.properties).length === 0 ? undefined : raw.properties;
  item.properties = properties;
  item.occurred_at = when;
  item.idempotency_key = idAt(raw.messageId);
  if (isPlainObject(properties)) item.value = valueOf(properties);
  if (type === 'track') {
    const name = segmentEventName(raw.event);
    if (name instanceof Refusal) return name;
    item.type = name;
    item.source = sourceOf(context);
    return item;
  }
  const props = objectAt(properties);
  const title = textAt(raw.name) ?? textAt(props.name);
  item.detail = title;
  item.source = sourceOf(context, {
    path: type === 'screen' ? title : textAt(props.path),
    referrer: textAt(props.referrer),
  });
  return item;
}

/** The heartbeat's action of a call: track, page and screen are events; identify, group and alias identify. */
export function segmentAction(raw: unknown, call: SegmentCallType | undefined): 'event' | 'identify' {
  const type = call ?? (isObject(raw) ? raw.type : undefined);
  return type === 'identify' || type === 'group' || type === 'alias' ? 'identify' : 'event';
}
