// What the wire's types cannot say of what is posted, said in the document from the code's own rules, so
// the schemas are true to what the routes take (docs/decisions.md#the-openapi-document-is-true-to-the-service):
// - the items of the events and website endpoints take no field but their own (item-fields.ts refuses
//   any other), and null for any optional one (a JSON client's "left unset");
// - the limits: a batch's 1 to 100 items, a custom name's pattern, an email's subject and body lengths,
//   a page's limit (an integer, 1 to 100), and the ISO 8601 forms an instant may take.
import { CUSTOM_NAME_PATTERN, LIMITS } from '@app/events';
import { INSTANT_SCHEMA as INSTANT } from '@app/edge';
import { MESSAGE_LIMITS, PAGE_LIMIT } from '@app/messaging';

type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; required?: string[] };

/** The items whose unknown fields are refused: their schemas are closed. */
const CLOSED = [
  'WireEvent',
  'WireIdentify',
  'WireSubscribe',
  'WireUnsubscribe',
  'WireSupport',
  'WireBatch',
  'WirePublicEvent',
  'WirePublicIdentify',
  'WirePublicSubscribe',
  'WirePublicSupport',
];
/** Where an optional field may be sent as null, as the routes read it (posted-input.ts: isAbsent). */
const NULLABLE = [...CLOSED.filter((name) => name !== 'WireBatch'), 'WireSource', 'WireConsent'];

/** The instants of the posted items, by schema. */
const INSTANTS: Record<string, string[]> = {
  WireEvent: ['occurred_at', 'expires_at'],
  WirePublicEvent: ['occurred_at', 'expires_at'],
  WireConsent: ['granted_at'],
  WireEventsExportQuery: ['from', 'to'],
};

/** The schemas of openapi.schemas.json with the rules above; the file itself stays the compiler's reading. */
export function withPostedRules(schemas: Record<string, Schema>): Record<string, Schema> {
  const out: Record<string, Schema> = structuredClone(schemas);
  const property = (schema: string, name: string, rules: Schema) => {
    const found = out[schema]?.properties?.[name];
    if (!found) throw new Error(`openapi: ${schema} has no property ${name} to give its limits.`);
    out[schema].properties![name] = { ...found, ...rules };
  };
  for (const name of ['WireEvent', 'WirePublicEvent'])
    property(name, 'type', {
      description: 'A built-in event name, or a custom name of 2 to 40 lowercase letters, digits and underscores.',
      pattern: CUSTOM_NAME_PATTERN.source,
    });
  property('WireBatch', 'events', { minItems: 1, maxItems: LIMITS.batchItems });
  property('WireSendMessage', 'subject', {
    description: `${MESSAGE_LIMITS.subjectMin} to ${MESSAGE_LIMITS.subjectMax} characters, counted once trimmed.`,
    minLength: MESSAGE_LIMITS.subjectMin,
    maxLength: MESSAGE_LIMITS.subjectMax,
  });
  property('WireSendMessage', 'body', {
    description:
      `${MESSAGE_LIMITS.bodyMin} to ${MESSAGE_LIMITS.bodyMax.toLocaleString('en')} characters of the markup ` +
      'templates use, counted once trimmed.',
    minLength: MESSAGE_LIMITS.bodyMin,
    maxLength: MESSAGE_LIMITS.bodyMax,
  });
  property('WireMessageQuery', 'limit', {
    type: 'integer',
    description: `Messages per page, ${PAGE_LIMIT.min} to ${PAGE_LIMIT.max}; ${PAGE_LIMIT.default} when left out.`,
    minimum: PAGE_LIMIT.min,
    maximum: PAGE_LIMIT.max,
  });
  for (const [schema, names] of Object.entries(INSTANTS))
    for (const name of names)
      property(schema, name, {
        ...INSTANT,
        description: out[schema].properties![name].description ?? INSTANT.description,
      });
  for (const name of CLOSED) out[name] = { ...out[name], additionalProperties: false };
  for (const name of NULLABLE) {
    const schema = out[name];
    for (const [field, value] of Object.entries(schema.properties ?? {}))
      if (!schema.required?.includes(field)) schema.properties![field] = orNull(value);
  }
  return out;
}

/** The schema, or null. */
function orNull(schema: Schema): Schema {
  if (Object.keys(schema).every((key) => key === 'description')) return schema; // anything, null included
  const { description, ...rest } = schema;
  return { ...(description ? { description } : {}), anyOf: [rest, { type: 'null' }] };
}
