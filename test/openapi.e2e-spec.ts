// GET /api/openapi.json describes exactly the REST routes the app serves.
import { readFileSync } from 'node:fs';
import { CUSTOM_NAME_PATTERN } from '@app/events';
import { MESSAGE_LIMITS, PAGE_LIMIT } from '@app/messaging';
import { PERSON_OS } from '@app/people';
import { MAX_BATCH_ITEMS, PARTIAL_FAILURE, REFUSAL_STATUS } from '@app/wire';
import { ITEM_FIELDS } from '../libs/events/src/domain/item-fields';
import { SCHEMAS_FILE, wireSchemasText } from '../scripts/wire-schemas';
import { useApp } from './harness';

const t = useApp();

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
}

/** Every METHOD /path the Express router answers, with :param written {param} as OpenAPI does. */
function servedRoutes(): string[] {
  const express = t.app.getHttpAdapter().getInstance() as { router: { stack: Layer[] } };
  const routes = new Set<string>();
  for (const layer of express.router.stack) {
    if (!layer.route) continue;
    for (const path of [layer.route.path].flat()) {
      for (const [method, on] of Object.entries(layer.route.methods)) {
        if (on && method !== '_all') routes.add(`${method.toUpperCase()} ${path.replace(/:(\w+)/g, '{$1}')}`);
      }
    }
  }
  return [...routes].sort();
}

it('is OpenAPI 3.1 with every served route and nothing else', async () => {
  const answer = await t.request('GET', '/api/openapi.json');
  expect(answer.status).toBe(200);
  const doc = answer.body;
  expect(doc.openapi).toBe('3.1.0');
  expect(doc.info.title).toBe('Lifeline');
  expect(doc.servers).toEqual([{ url: t.url }]);
  const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
    .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();
  // Nest's catch-all answers not_found for every other address; it is no route of ours.
  // The sign-in pages, the preference page and the confirmation page (libs/access) are HTML for browsers, not
  // REST, and so are the GraphQL explorer's files (/graphiql/…): they are left out of the document.
  const page = (r: string) => / \/(sign-in|sign-out|consent|preferences|confirm|graphiql)(\/|$)/.test(r);
  const served = servedRoutes().filter((r) => r !== 'GET /api/openapi.json' && !r.endsWith(' /{*path}') && !page(r));
  expect(served.length).toBeGreaterThan(10);
  expect(served).toContain('POST /api/v1/events');
  expect(served).toContain('POST /api/in/{publicKey}/{action}');
  expect(documented).toEqual(served);
});

it('names each path parameter', async () => {
  const doc = (await t.request('GET', '/api/openapi.json')).body;
  for (const [path, ops] of Object.entries(
    doc.paths as Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>>,
  )) {
    const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const op of Object.values(ops)) {
      expect(
        (op.parameters ?? [])
          .filter((p) => p.in === 'path')
          .map((p) => p.name)
          .sort(),
      ).toEqual(names);
    }
  }
});

type Operation = {
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Record<string, unknown> }> };
  responses?: Record<string, unknown>;
};

function operations(doc: { paths: Record<string, Record<string, Operation>> }): Array<[string, Operation]> {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as [string, Operation]),
  );
}

/** The routes that read their body as JSON whatever its Content-Type says (a JSON door, and the automation's). */
const JSON_WHATEVER_TYPE = [
  'POST /api/v1/events',
  'POST /api/v1/messages',
  'POST /api/in/{publicKey}/{action}',
  'POST /v1/{call}',
  'POST /api/webhooks/automation/{address}',
];

it('documents a request body for every POST, PUT and PATCH route: JSON (also as text where read so), but the token auth_b posts', async () => {
  const doc = (await t.request('GET', '/api/openapi.json')).body;
  const writes = operations(doc).filter(([route]) => /^(POST|PUT|PATCH) /.test(route));
  expect(writes.length).toBeGreaterThan(5);
  for (const [route, op] of writes) {
    expect({ route, required: op.requestBody?.required }).toEqual({ route, required: true });
    const mediaType = route === 'POST /api/webhooks/auth_b/{token}' ? 'application/jwt' : 'application/json';
    const asText = JSON_WHATEVER_TYPE.includes(route) ? ['text/plain', 'application/x-www-form-urlencoded'] : [];
    expect({ route, mediaTypes: Object.keys(op.requestBody?.content ?? {}) }).toEqual({
      route,
      mediaTypes: [mediaType, ...asText],
    });
    const schema = op.requestBody?.content?.[mediaType]?.schema ?? {};
    expect({ route, described: Object.keys(schema).length > 0 }).toEqual({ route, described: true });
    // sendBeacon's text/plain and a form's post are the same JSON, as text
    for (const type of asText)
      expect({ route, type, schema: op.requestBody?.content?.[type]?.schema }).toEqual({
        route,
        type,
        schema: { type: 'string', contentMediaType: 'application/json', contentSchema: schema },
      });
  }
  // The events endpoint takes one item or a batch, each named by its wire type.
  expect(doc.paths['/api/v1/events'].post.requestBody.content['application/json'].schema).toEqual({
    anyOf: [{ $ref: '#/components/schemas/WireItem' }, { $ref: '#/components/schemas/WireBatch' }],
  });
});

type Answer = {
  $ref?: string;
  description?: string;
  content?: Record<
    string,
    {
      schema?: { allOf?: Array<{ properties?: { error?: { enum?: string[] } } }> };
      examples?: Record<string, { value: { ok: boolean; error: string; message: string } }>;
    }
  >;
};

/** The refusal codes an operation documents, by status (shared answers resolved). */
function refusalCodes(
  doc: { components: { responses: Record<string, Answer> } },
  op: Operation,
): Record<string, string[]> {
  const codes: Record<string, string[]> = {};
  for (const [status, listed] of Object.entries((op.responses ?? {}) as Record<string, Answer>)) {
    const answer = listed.$ref ? doc.components.responses[listed.$ref.split('/').pop()!] : listed;
    const examples = answer.content?.['application/json']?.examples ?? {};
    const refusals = Object.values(examples).filter((e) => e.value.ok === false && e.value.error in REFUSAL_STATUS);
    if (refusals.length) codes[status] = refusals.map((e) => e.value.error).sort();
  }
  return codes;
}

it('lists each refusal a route can give under the status its code answers, with an example, beside those of every request', async () => {
  const doc = (await t.request('GET', '/api/openapi.json')).body;
  for (const [route, op] of operations(doc)) {
    const codes = refusalCodes(doc, op);
    // Any request can be refused for its request line, its headers, its slowness or the service's fault.
    for (const [status, code] of [
      ['400', 'invalid_field'],
      ['408', 'request_timeout'],
      ['431', 'headers_too_large'],
      ['500', 'server_error'],
    ]) {
      expect({ route, status, listed: codes[status]?.includes(code) }).toEqual({ route, status, listed: true });
    }
    for (const [status, listed] of Object.entries(codes)) {
      for (const code of listed)
        expect({ route, code, status: REFUSAL_STATUS[code as keyof typeof REFUSAL_STATUS] }).toEqual({
          route,
          code,
          status: Number(status),
        });
      const answer = op.responses![status] as Answer;
      if (answer.$ref) continue; // a shared answer of one code: the same check holds for it
      const schema = answer.content!['application/json'].schema!;
      const narrowed = (schema.allOf ??
        (schema as { anyOf?: Array<{ allOf?: unknown[] }> }).anyOf?.find((s) => s.allOf)?.allOf) as Array<{
        properties?: { error?: { enum?: string[] } };
      }>;
      expect({ route, status, codes: [...(narrowed?.[1]?.properties?.error?.enum ?? [])].sort() }).toEqual({
        route,
        status,
        codes: listed,
      });
    }
  }
  // The codes a route gives are its own: the events endpoint gives no door's, a third-party door no key's.
  expect(refusalCodes(doc, doc.paths['/api/v1/events'].post)['404']).toBeUndefined();
  expect(refusalCodes(doc, doc.paths['/api/webhooks/payment/{token}'].post)['401']).toEqual(['invalid_signature']);
  expect(refusalCodes(doc, doc.paths['/api/v1/messages'].post)['422']).toEqual([
    'no_email',
    'not_engaged',
    'opted_out',
    'undeliverable',
  ]);
  expect(refusalCodes(doc, doc.paths['/api/in/{publicKey}/{action}'].post)['429']).toEqual(['rate_limited']);
  // The envelope: its codes are the code union.
  const envelope = doc.components.schemas.WireRefusal;
  expect(envelope.required).toEqual(['ok', 'error', 'message']);
  expect(envelope.properties.ok).toEqual({ type: 'boolean', const: false });
  const union = doc.components.schemas[envelope.properties.error.$ref.split('/').pop()];
  expect([...union.enum].sort()).toEqual([...Object.keys(REFUSAL_STATUS), PARTIAL_FAILURE].sort());
});

it('names each operation once, in camelCase, with a summary, a description, one described tag and its callers', async () => {
  const doc = (await t.request('GET', '/api/openapi.json')).body;
  const tags = new Map(
    (doc.tags as Array<{ name: string; description: string }>).map((tag) => [tag.name, tag.description]),
  );
  const ids: Record<string, string> = {};
  for (const [route, op] of operations(doc) as Array<
    [
      string,
      Operation & {
        operationId: string;
        summary?: string;
        description?: string;
        tags?: string[];
        security?: unknown[];
      },
    ]
  >) {
    ids[route] = op.operationId;
    expect({ route, camelCase: /^[a-z][a-zA-Z0-9]+$/.test(op.operationId) }).toEqual({ route, camelCase: true });
    expect({
      route,
      summary: !!op.summary,
      description: !!op.description,
      security: Array.isArray(op.security),
    }).toEqual({ route, summary: true, description: true, security: true });
    expect({ route, tags: op.tags?.length, described: !!tags.get(op.tags![0]) }).toEqual({
      route,
      tags: 1,
      described: true,
    });
  }
  expect(new Set(Object.values(ids)).size).toBe(Object.keys(ids).length);
  // A generated client names its methods after these: they do not change.
  expect(ids).toMatchObject({
    'POST /api/v1/events': 'postEvents',
    'GET /api/v1/events': 'getEventsDescription',
    'POST /api/v1/messages': 'postMessages',
    'GET /api/v1/messages': 'getMessages',
    'GET /api/v1/people/{who}/messages': 'getPersonMessages',
    'POST /api/in/{publicKey}/{action}': 'postWebsiteAction',
    'POST /api/webhooks/automation/{address}': 'postAutomationStart',
    'POST /api/webhooks/payment/{token}': 'postPaymentWebhook',
    'POST /api/webhooks/email': 'postEmailWebhook',
    'POST /api/mcp': 'postMcp',
    'GET /health': 'getHealth',
  });
  // Every tag in the document is some operation's.
  expect([...tags.keys()].sort()).toEqual(
    [...new Set(operations(doc).flatMap(([, op]) => (op as { tags: string[] }).tags))].sort(),
  );
});

/** A path with each parameter filled in by a value that names nothing. */
const filled = (path: string) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'action' ? 'event' : `nothing-${name}`));

it('says which routes take a key, as the routes answer a request without one', async () => {
  const doc = (await t.request('GET', '/api/openapi.json')).body;
  for (const [route, op] of operations(doc) as Array<
    [string, Operation & { security: Array<Record<string, string[]>> }]
  >) {
    if (op.security.some((requirement) => Object.keys(requirement).length === 0) && op.security.length > 0) continue; // optional: /metrics from this machine
    const [method, path] = route.split(' ');
    const answer = await t.request(method, filled(path), method === 'POST' ? { body: {} } : {});
    const keyed = op.security.length > 0;
    expect({ route, refusedForKey: answer.status === 401 && /invalid_key/.test(JSON.stringify(answer.body)) }).toEqual({
      route,
      refusedForKey: keyed,
    });
    // What it answered is documented: a refusal's code under its status, any other answer by its status.
    const listed =
      answer.body?.error in REFUSAL_STATUS
        ? refusalCodes(doc, op)[answer.status]?.includes(answer.body.error)
        : answer.status in op.responses!;
    expect({ route, status: answer.status, listed }).toEqual({ route, status: answer.status, listed: true });
  }
});

it('every $ref names a component, and an answer really served has the documented shape', async () => {
  const doc = (await t.request('GET', '/api/openapi.json')).body;
  const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/(\w+)\/(\w+)"/g)];
  expect(refs.length).toBeGreaterThan(20);
  for (const [, kind, name] of refs)
    expect({ kind, name, found: !!doc.components[kind]?.[name] }).toEqual({ kind, name, found: true });

  const { secretKey } = await t.workspace();
  const answer = await t.request('POST', '/api/v1/events', {
    key: secretKey,
    body: { type: 'signup', email: 'ada@example.com' },
  });
  const success = doc.components.schemas.ActionSuccess;
  expect(Object.keys(answer.body).every((key) => key in success.properties)).toBe(true);
  expect(success.required.every((key: string) => key in answer.body)).toBe(true);
  const refused = await t.request('POST', '/api/v1/events', { key: secretKey, body: { type: 'signup' } });
  expect(refused.status).toBe(400);
  expect(Object.keys(refused.body).sort()).toEqual([...doc.components.schemas.WireRefusal.required].sort());
  expect(refusalCodes(doc, doc.paths['/api/v1/events'].post)['400']).toContain(refused.body.error);
});

it("the posted items' schemas say what the routes take: their own fields only, null for an optional one, the limits the code keeps", async () => {
  const doc = (await t.request('GET', '/api/openapi.json')).body;
  const schemas = doc.components.schemas;
  const kinds = { WireEvent: 'event', WireIdentify: 'identify', WireSubscribe: 'subscribe', WireSupport: 'support' };
  for (const [name, kind] of Object.entries(kinds)) {
    expect({ name, closed: schemas[name].additionalProperties }).toEqual({ name, closed: false });
    expect({ name, fields: Object.keys(schemas[name].properties).sort() }).toEqual({
      name,
      fields: [...ITEM_FIELDS[kind as keyof typeof ITEM_FIELDS]].sort(),
    });
  }
  expect(schemas.WireEvent.properties.value).toEqual({ anyOf: [{ type: 'number' }, { type: 'null' }] });
  expect(schemas.WirePublicEvent.properties).toHaveProperty('hp');
  expect(schemas.WireBatch.properties.events).toMatchObject({ minItems: 1, maxItems: MAX_BATCH_ITEMS });
  expect(schemas.WireEvent.properties.type.pattern).toBe(CUSTOM_NAME_PATTERN.source);
  expect(schemas.WireSendMessage.properties.subject).toMatchObject({
    minLength: MESSAGE_LIMITS.subjectMin,
    maxLength: MESSAGE_LIMITS.subjectMax,
  });
  expect(schemas.WireSendMessage.properties.body).toMatchObject({
    minLength: MESSAGE_LIMITS.bodyMin,
    maxLength: MESSAGE_LIMITS.bodyMax,
  });
  const limit = doc.paths['/api/v1/messages'].get.parameters.find((p: { name: string }) => p.name === 'limit');
  expect(limit.schema).toEqual({ type: 'integer', minimum: PAGE_LIMIT.min, maximum: PAGE_LIMIT.max });
  // An instant is not RFC 3339's date-time: a date alone, or a time without an offset, is taken too.
  const instant = new RegExp(schemas.WireEvent.properties.occurred_at.anyOf[0].pattern);
  for (const taken of ['2026-05-01', '2026-05-01T12:00:00', '2026-05-01 12:00', '2026-05-01T12:00:00.123+0200'])
    expect({ taken, matches: instant.test(taken) }).toEqual({ taken, matches: true });
  expect(instant.test('yesterday')).toBe(false);
  // The rule that drops other operating systems is said where a client reads the field.
  expect(schemas.WireSource.properties.os.description).toContain(
    `only ${PERSON_OS.slice(0, -1).join(', ')} and ${PERSON_OS[PERSON_OS.length - 1]} become`,
  );
  // An invalid_field refusal names its field, and an unknown field the one nearest it.
  expect(Object.keys(schemas.WireRefusal.properties)).toEqual(['ok', 'error', 'message', 'field', 'nearest']);
});

it('documents the headers the refusals carry, and who may post to the Segment routes', async () => {
  const doc = (await t.request('GET', '/api/openapi.json')).body;
  const website = doc.paths['/api/in/{publicKey}/{action}'].post.responses;
  expect(website['429'].headers['Retry-After']).toMatchObject({ required: true, schema: { type: 'integer' } });
  expect(doc.components.responses.Unavailable.headers['Retry-After'].required).toBe(true);
  expect(doc.paths['/api/mcp'].get.responses['405'].headers.Allow.required).toBe(true);
  expect(doc.paths['/api/mcp'].post.responses['401'].headers['WWW-Authenticate'].required).toBe(true);
  expect(doc.paths['/api/v1/events'].post.responses['401'].headers).toBeUndefined();
  // The write key is HTTP Basic's user name, or writeKey in the body, which no scheme can name: {} beside it.
  expect(doc.paths['/v1/{call}'].post.security).toEqual([{ writeKey: [] }, {}]);
});

it('openapi.schemas.json is what `npm run schema` reads from the code', () => {
  expect(readFileSync(SCHEMAS_FILE, 'utf8')).toBe(wireSchemasText()); // else run `npm run schema` and commit the file
}, 60_000);
