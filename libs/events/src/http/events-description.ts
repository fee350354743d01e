// GET /api/v1/events: what to post. It never echoes a key, right or wrong.
import { WINDOW_SECONDS, LIMITS as RATE_LIMITS } from '@app/platform';
import { ACTIONS, BUILT_IN_EVENTS, CUSTOM_NAME_PATTERN, LIMITS, RESERVED_EVENT_NAMES } from '../domain';

/**
 * GET /api/v1/events: the events endpoint described, so a caller sees what to post.
 * @public scripts/wire-schemas.ts reads it by name, for the OpenAPI document's schema of the answer.
 */
export type EventsDescription = ReturnType<typeof describeEventsEndpoint>;

/** GET /api/v1/events: the events endpoint described, so a caller sees what to post. */
export function describeEventsEndpoint() {
  return {
    ok: true,
    endpoint: 'POST /api/v1/events',
    authentication:
      'Authorization: Bearer sk_live_… (a secret key from the workspace developer settings; never use it in a browser)',
    payload:
      'One event object, or {"events": [1 to 100 items]} where an item may also have type identify, subscribe, ' +
      'unsubscribe or support. A field an item does not take (below) is refused with invalid_field, naming the ' +
      'one meant; ' +
      'null is taken for any optional field, as left out.',
    fields: itemFields(),
    statuses: {
      event: ['recorded', 'expired'],
      identify: ['created', 'merged', 'linked'],
      subscribe: ['subscribed', 'pending', 'already_subscribed'],
      unsubscribe: ['unsubscribed', 'not_subscribed'],
      support: ['recorded'],
    },
    builtInEvents: BUILT_IN_EVENTS,
    actions: ACTIONS,
    reservedNames: RESERVED_EVENT_NAMES,
    customNames: `2 to 40 characters matching ${CUSTOM_NAME_PATTERN.source}; a custom name moves no stage`,
    limits: {
      itemsPerBatch: LIMITS.batchItems,
      bodyBytes: 64 * 1024,
      postsPerKeyPerTenMinutes: RATE_LIMITS.server,
      windowSeconds: WINDOW_SECONDS,
    },
    example: {
      type: 'purchase',
      email: 'ada@example.com',
      value: 49,
      properties: { plan: 'pro' },
      idempotency_key: 'order_1042',
    },
  };
}

/** What each action's item takes, field by field (docs/rest.md#events). */
function itemFields() {
  return {
    event: {
      type: 'required: a built-in name or a custom name',
      email: 'one of email, anon_id, account_id is required',
      anon_id: 'browser id kept by the tag',
      account_id: 'your own id for the person',
      value: 'number: money for a purchase, in whole currency units',
      properties: 'object: anything else kept on the row',
      occurred_at: 'ISO 8601; default: time of arrival',
      expires_at: 'ISO 8601 after occurred_at; the timeline row is deleted then',
      idempotency_key: 'your id for the thing that happened; a repeat writes nothing and answers the first answer',
      detail: 'one line shown beside the event on the timeline',
      source:
        '{path, referrer, os, anon_id, utm: {source, medium, campaign, term, content}, click_id}; os is kept on ' +
        'the person only when win, mac, linux or other, any other value is dropped',
    },
    identify: {
      type: 'identify',
      email: '…',
      anon_id: '…',
      account_id: '…',
      name: 'string',
      fields: 'object: key to string, number or null',
      source: 'as above',
    },
    subscribe: {
      type: 'subscribe',
      email: 'required',
      list: 'required: the list address from the workspace list settings',
      consent: 'required: the exact words the person read, as a string or {text, ip?, granted_at?}',
      anon_id: 'optional',
      source_label: 'optional',
      source: 'as above',
    },
    unsubscribe: {
      type: 'unsubscribe',
      email: 'required',
      list: 'required: the list address; the consent given stays, the withdrawal is kept beside it',
    },
    support: {
      type: 'support',
      message: 'required',
      from: 'email',
      who: 'name',
      topic: '…',
      version: '…',
      anon_id: '…',
      account_id: '…',
      source: 'as above',
    },
  };
}
