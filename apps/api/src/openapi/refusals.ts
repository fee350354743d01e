// The refusals of the OpenAPI document. Each route names the codes it can give (its reference,
// libs/edge/src/http/door/reference.ts); every request can also get those of EVERY_REQUEST. Each code
// answers its fixed status (REFUSAL_STATUS), so the codes of a route become one answer per status, in
// the one envelope {ok:false, error, message} (exceptions.filter.ts), with an example of each code.
import type { ReferenceObject, ResponseObject } from '@nestjs/swagger';
import { REFUSAL_STATUS, type RefusalCode } from '@app/wire';

type Answer = ResponseObject | ReferenceObject;

/**
 * A sentence each code answers, as the code writes it (a route may give its own: Reference's examples).
 * Codes only the GraphQL admin API gives are here too, so a route that starts giving one has its example.
 */
const REFUSAL_EXAMPLES: Record<RefusalCode, string> = {
  invalid_json: 'The body is not valid JSON: send one JSON object encoded as UTF-8.',
  invalid_email: 'email is not an email address: send one like ada@example.com.',
  unknown_list: 'No list has the address "newsletter": create it in the workspace list settings first.',
  missing_consent: 'Send consent.text with the exact words the person read next to the form.',
  nothing_to_identify: 'Identify needs an email, anon_id or account_id: send at least one.',
  no_identity: 'Name the person with email, anon_id or account_id.',
  unknown_event:
    '"signupp" is not an event name: use a built-in name or 2 to 40 lowercase letters, digits and underscores.',
  invalid_expiry: 'expires_at must be an ISO 8601 date after occurred_at, like 2030-01-01T00:00:00Z.',
  empty_message: 'Send what the person wrote in message.',
  missing_body: 'Send a body of 2 to 20,000 characters; this one has 1.',
  invalid_subject: 'Send a subject of 2 to 200 characters; this one has 1.',
  reserved_event_name: '"email_sent" is a name the service uses itself: choose another name for your custom event.',
  too_many_items: 'A batch holds at most 100 items: split it into batches of 100.',
  invalid_field: 'The address has a %-escape that is not UTF-8: encode the path with encodeURIComponent.',
  unsupported_protocol_version:
    'MCP-Protocol-Version "2024-01-01" is not supported: send one of 2025-03-26, 2025-06-18, 2025-11-25, or ' +
    'leave the header out for 2025-03-26.',
  invalid_key:
    'Send your secret key as "Authorization: Bearer sk_live_…"; find it in the workspace developer settings.',
  invalid_token: 'The access token has run out, was revoked, or was issued for something else: sign in again.',
  invalid_signature:
    'Sign the post with the whsec_ secret this door was connected with, send the body unchanged with its ' +
    'webhook-id, webhook-timestamp and webhook-signature (or svix-*) headers, within five minutes.',
  origin_not_allowed:
    'Posts are accepted only from the sites the workspace names, not https://elsewhere.example: add the site ' +
    'to the allowed origins.',
  no_longer_a_member: 'The person this key acts as has left the workspace: ask an owner for a key of your own.',
  use_the_public_key_from_browsers:
    'Browsers may not call the tool door: from a web page, post to your public address with the public key ' +
    '(wk_…); call /api/mcp from a server or an MCP client.',
  forbidden: 'Your role does not allow this: ask a workspace owner or admin.',
  unknown_key: 'No workspace has that public key: copy the public address again from the workspace settings.',
  unknown_action: '"signup" is not an action: post to subscribe, identify, event or support.',
  no_such_person: 'No record has that address or id: check it, or record the person first.',
  unknown_template: 'No template has the name or id "welcome": create it first or check the name.',
  not_found: 'No such address: check the method and path (key-authenticated endpoints live under /api/v1).',
  method_not_allowed: 'That method is not allowed here.',
  request_timeout: 'The request took too long to arrive: send it again.',
  conflict: 'A list with address "newsletter" already exists: choose another address.',
  last_owner: 'This is the last owner of the workspace: make another member an owner first.',
  too_large: 'The body is over 64 KB: send less, or split a batch.',
  headers_too_large:
    'The request line and headers are over 16 KB: send a shorter query string, fewer cookies or smaller headers.',
  not_engaged:
    'Email goes only to people who bought, signed up, wrote in, replied or joined a list; this person has done ' +
    'none of these.',
  no_email: 'That person has no email address: identify them with one first.',
  opted_out:
    'This person opted out of email on 2026-12-01 (the unsubscribe link): nothing more goes to them until they ' +
    'subscribe to a list again or an owner or admin lifts the opt-out on their page.',
  undeliverable:
    'Email to ada@example.com bounced permanently on 2026-12-01: give the person another address, or have an ' +
    'owner or admin lift the mark on their page once it works again.',
  limit_reached: 'A workspace has at most 10 webhook addresses: delete one before adding another.',
  rate_limited: 'Over 600 posts in ten minutes: wait 42 seconds and send it again.',
  server_error: 'The service could not finish; nothing was changed; send it again.',
  unavailable: 'The service cannot reach its database just now; nothing was changed; send it again in a few seconds.',
};

/**
 * What any request can be refused, whatever its route: a query string or path the hostile-input check
 * refuses (invalid_field), Node's own refusals before routing (client-error.ts), and the filter's 500.
 */
const EVERY_REQUEST: RefusalCode[] = [
  'invalid_field',
  'request_timeout',
  'headers_too_large',
  'server_error',
  'unavailable',
];

/** Statuses whose only code is one every request can get: one shared answer each, in components.responses. */
const SHARED: Partial<Record<RefusalCode, string>> = {
  request_timeout: 'RequestTimeout',
  headers_too_large: 'HeadersTooLarge',
  server_error: 'ServerError',
  unavailable: 'Unavailable',
};

/** A route's refusal codes, and its own sentences of some. */
export interface RouteRefusals {
  codes: RefusalCode[];
  examples?: Partial<Record<RefusalCode, string>>;
}

/** The refusal answers of a route: one per status, each listing its codes with an example of each. */
export function refusalAnswers(route: RouteRefusals): Record<string, Answer> {
  const codes = [...new Set([...route.codes, ...EVERY_REQUEST])];
  const byStatus = new Map<number, RefusalCode[]>();
  for (const code of codes) byStatus.set(REFUSAL_STATUS[code], [...(byStatus.get(REFUSAL_STATUS[code]) ?? []), code]);
  const answers: Record<string, Answer> = {};
  for (const [status, listed] of [...byStatus].sort(([a], [b]) => a - b)) {
    const shared = listed.length === 1 ? SHARED[listed[0]] : undefined;
    answers[status] = shared
      ? { $ref: `#/components/responses/${shared}` }
      : refusalAnswer(listed, route.examples ?? {});
  }
  return answers;
}

/** The answers every route shares by reference. */
export function sharedRefusalAnswers(): Record<string, ResponseObject> {
  return Object.fromEntries(
    Object.entries(SHARED).map(([code, name]) => [name, refusalAnswer([code as RefusalCode], {})]),
  );
}

function refusalAnswer(codes: RefusalCode[], examples: Partial<Record<RefusalCode, string>>): ResponseObject {
  const schema = {
    allOf: [
      { $ref: '#/components/schemas/WireRefusal' },
      { type: 'object', required: ['error'], properties: { error: { type: 'string', enum: codes } } },
    ],
  };
  return {
    description: `Refused: ${sentenceList(codes)}.`,
    ...(codes.includes('rate_limited') ? { headers: { 'Retry-After': RETRY_AFTER } } : {}),
    ...(codes.includes('unavailable') ? { headers: { 'Retry-After': RETRY_AFTER_UNAVAILABLE } } : {}),
    ...(codes.includes('method_not_allowed') ? { headers: { Allow: ALLOW } } : {}),
    content: {
      'application/json': {
        schema,
        examples: Object.fromEntries(
          codes.map((code) => [
            code,
            {
              summary: code,
              value: {
                ok: false,
                error: code,
                message: examples[code] ?? REFUSAL_EXAMPLES[code],
                ...(code === 'invalid_field' && !examples[code] ? { field: 'path' } : {}),
              },
            },
          ]),
        ),
      },
    },
  };
}

const RETRY_AFTER = {
  description: 'Seconds until the window lets the post through.',
  required: true,
  schema: { type: 'integer', minimum: 1 },
};
const RETRY_AFTER_UNAVAILABLE = {
  description:
    'Seconds to wait before sending it again: the database or Redis cannot be reached, or the process answers ' +
    'all it may.',
  required: true,
  schema: { type: 'integer', minimum: 1 },
};
const ALLOW = { description: 'The methods the address takes.', required: true, schema: { type: 'string' } };

function sentenceList(codes: string[]): string {
  return codes.length === 1 ? codes[0] : `${codes.slice(0, -1).join(', ')} or ${codes[codes.length - 1]}`;
}
