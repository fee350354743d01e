// The reference (OpenAPI) of the Segment routes (docs/rest.md#segments-http-tracking-api): the calls a path
// names, what a call and a batch carry, and Segment's answer.
import { BROWSER_BODY_LIMIT, INSTANT_SCHEMA, type RouteReference } from '@app/edge';
import { LIMITS } from '@app/platform';
import { SEGMENT_BATCH_LIMIT, SEGMENT_MESSAGE_LIMIT, SEGMENT_PATHS } from '../domain';

const CALL = {
  call: {
    description:
      "The call: track, identify, page, screen, group or alias (or the first letter of one, as Segment's " +
      'browser library posts), or batch, b or import for several.',
    schema: { type: 'string', enum: Object.keys(SEGMENT_PATHS) },
  },
};

/** An object of anything, as Segment's properties, traits and context are. */
const OPEN = { type: 'object', additionalProperties: true };

const MESSAGE = {
  type: 'object',
  description: "One Segment call, as Segment's HTTP Tracking API takes it; in a batch each names its type.",
  properties: {
    type: { type: 'string', enum: ['track', 'identify', 'page', 'screen', 'group', 'alias'] },
    userId: { type: ['string', 'number'] },
    anonymousId: { type: ['string', 'number'] },
    event: {
      type: 'string',
      description:
        "A track's name: a Segment spec name (Order Completed → purchase…), a built-in name, or any other, " +
        'snake_cased into a custom name.',
    },
    name: { type: 'string' },
    properties: OPEN,
    traits: OPEN,
    context: OPEN,
    groupId: { type: ['string', 'number'] },
    previousId: { type: ['string', 'number'] },
    messageId: { type: 'string', description: 'The idempotency key: a call sent again with it writes nothing twice.' },
    timestamp: INSTANT_SCHEMA,
    originalTimestamp: INSTANT_SCHEMA,
    sentAt: INSTANT_SCHEMA,
    writeKey: {
      type: 'string',
      description:
        "The write key, when it is not HTTP Basic's user name (Segment's browser library posts it here, as " +
        'text/plain, so that no CORS preflight is needed).',
    },
  },
};
const BODY = {
  anyOf: [
    MESSAGE,
    {
      type: 'object',
      required: ['batch'],
      properties: {
        batch: { type: 'array', items: MESSAGE },
        sentAt: INSTANT_SCHEMA,
        context: OPEN,
        writeKey: { type: 'string', description: "The write key, when it is not HTTP Basic's user name." },
      },
    },
  ],
};
const RESULT = {
  type: 'object',
  properties: {
    index: { type: 'integer' },
    ok: { type: 'boolean' },
    status: { type: 'string' },
    id: { type: 'string' },
    error: { type: 'string' },
    message: { type: 'string' },
  },
};
const ANSWER = {
  type: 'object',
  required: ['success', 'ok'],
  properties: {
    success: { type: 'boolean', const: true },
    ok: { type: 'boolean' },
    status: { type: 'string' },
    id: { type: 'string' },
    error: { type: 'string' },
    message: { type: 'string' },
    results: { type: 'array', items: RESULT },
  },
};

/** OPTIONS /v1/{call}. */
export const SEGMENT_PREFLIGHT_REFERENCE: RouteReference = {
  operationId: 'preflightSegmentCall',
  summary: "A browser's CORS preflight of a Segment call",
  description:
    "Segment's browser library sends its write key in an Authorization header, so the browser asks first. " +
    'Answered for any site: the post itself is checked against the sites the workspace names.',
  tag: 'segment',
  caller: 'anyone',
  params: CALL,
  answers: { 204: { description: 'The post may follow: Access-Control-Allow-Origin names the site.' } },
  refuses: [],
};

/** POST /v1/{call}. */
export const SEGMENT_CALL_REFERENCE: RouteReference = {
  operationId: 'postSegmentCall',
  summary: "A Segment call: Segment's HTTP Tracking API",
  description: [
    "What Segment's libraries post, so a team switches by setting their host to this service. The write key " +
      "is HTTP Basic's user name (empty password) or writeKey in the body: " +
      (`a secret key acts as a server (custom event names; ${LIMITS.server} posts per key in ten minutes), a ` +
        `public key as the website (the tag's event names only; ${BROWSER_BODY_LIMIT / 1024} KB per body; per-IP ` +
        `limits, each call of a batch counted; the workspace's sites when an Origin is sent).`),
    'Each call becomes an item of the events endpoint: track an event, page and screen a pageview, identify, ' +
      'group and alias an identify; messageId is its idempotency key. A call with timestamp beside ' +
      "originalTimestamp (RudderStack's) happened at timestamp as sent; a single stamp is corrected for the " +
      "client's clock with sentAt; a call posted to /v1/import is history and starts no automation. " +
      ('A call that cannot be recorded (no identity, a custom name from a public key) answers 200 with ' +
        'success and its refusal beside it, and is counted by its code; a batch keeps its other calls.'),
    `A call is at most ${SEGMENT_MESSAGE_LIMIT / 1024} KB and a batch ${SEGMENT_BATCH_LIMIT / 1024} KB (400 beyond).`,
  ].join('\n\n'),
  tag: 'segment',
  caller: 'write key',
  params: CALL,
  body: {
    schema: BODY,
    example: {
      batch: [
        {
          type: 'track',
          event: 'Order Completed',
          userId: 'u-ada',
          properties: { revenue: 49 },
          messageId: 'm-1',
          timestamp: '2026-05-01T12:00:00.000Z',
        },
      ],
      sentAt: '2026-05-01T12:00:01.000Z',
    },
  },
  answers: {
    200: {
      description:
        "Accepted, as Segment answers: success, and Lifeline's result of the call (or of each call of a " +
        'batch, in order) beside it. A result may be a refusal: that call was not recorded.',
      schema: ANSWER,
      example: {
        success: true,
        ok: true,
        results: [{ index: 0, ok: true, status: 'recorded', id: 'evt_01JD2Q7Z9X4R8T6W3Y5V0N1M2K' }],
      },
    },
  },
  refuses: [
    'invalid_key',
    'no_longer_a_member',
    'origin_not_allowed',
    'use_the_public_key_from_browsers',
    'unknown_action',
    'too_many_items',
  ],
  examples: {
    invalid_key:
      'Send the write key as the HTTP Basic user name with an empty password, or as writeKey in the body: ' +
      'the secret key (sk_live_…) from servers, the public key (wk_…) from browsers.',
    too_many_items:
      `A batch call carries at most ${SEGMENT_BATCH_LIMIT / 1024} KB, Segment's limit: split it into smaller ` +
      `batches.`,
    unknown_action:
      '"trak" is not a Segment call: post to /v1/track, identify, page, screen, group, alias, batch or import.',
    use_the_public_key_from_browsers:
      "A secret key never belongs in a browser: give Segment's browser library the public key (wk_…), and " +
      'make a new secret key.',
  },
};
