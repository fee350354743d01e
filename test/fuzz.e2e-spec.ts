// docs/security.md#defences: every route and door answers generated hostile bodies,
// headers, paths and query strings with no 5xx, a refusal in the envelope (GraphQL: in `errors`),
// and nothing written for a refusal. Seeded: the seed is printed; replay a failure with
// FUZZ_SEED=<seed> (and fast-check's printed path); FUZZ_RUNS sets the cases per route (default 200).
// A new route or door joins by adding a row to ROUTES.
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import type Redis from 'ioredis';
import { CreatedWorkspace } from '@app/workspaces';
import { REDIS } from '@app/platform';
import { useApp, useWorkspace } from './harness';
import { postSegment } from './support/segment';

const SEED = Number(process.env.FUZZ_SEED ?? 1717);
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const SITE = 'https://shop.example.com';
const EMAIL_SECRET = 'whsec_' + Buffer.from('lifeline-fuzz-email-door-secret').toString('base64');

// Every table a refused request must leave as it was.
const WRITTEN_TABLES = [
  'people',
  'identities',
  'events',
  'idempotency_keys',
  'event_names',
  'lists',
  'subscriptions',
  'templates',
  'messages',
  'email_standings',
  'webhook_endpoints',
  'deliveries',
  'automations',
  'automation_runs',
  'door_connections',
  'door_receipts',
  'api_keys',
  'members',
  'workspaces',
];

// ---- generators ----------------------------------------------------------------------------------

const NASTY = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\udc00\ud800',
  '😀',
  '',
  ' ',
  '%00',
  '../../etc/passwd',
  "'; DROP TABLE people;--",
  '<script>alert(1)</script>',
  '{{ 7 * 7 }}',
  '{% raw %}',
  '__proto__',
  'constructor',
  'prototype',
  'x'.repeat(5000),
  '\u202e',
  '\r\n',
  'NaN',
  '1e309',
  '-0',
  'https://127.0.0.1/',
  'http://169.254.169.254/latest',
  'sk_live_0',
  'wk_0',
  'ada@example.com',
  'ADA@EXAMPLE.COM ',
  'news',
  'signup',
  'purchase',
  'identify',
  'subscribe',
  '2030-01-01T00:00:00Z',
  'not a date',
  'email_sent',
];
const FIELDS = [
  'type',
  'email',
  'anon_id',
  'account_id',
  'name',
  'properties',
  'value',
  'occurred_at',
  'expires_at',
  'idempotency_key',
  'source',
  'utm',
  'referrer',
  'list',
  'consent',
  'message',
  'from',
  'subject',
  'body',
  'to',
  'template',
  'events',
  'hp',
  'website',
  'fields',
  '__proto__',
  'constructor',
];

const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 2, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
);
const scalar = fc.oneof(
  text,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(2 ** 53 + 2, -1, 0, 1e308),
);
const nestedValue = fc.integer({ min: 1, max: 300 }).map((depth) => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { k: value };
  return value;
});
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(text, fc.constantFrom(...FIELDS)), tie('value'), { maxKeys: 5 }),
  ),
}));
const fieldsObject = fc.dictionary(fc.constantFrom(...FIELDS), fc.oneof(value, nestedValue, text), { maxKeys: 7 });
const withType = fc
  .tuple(
    fieldsObject,
    fc.constantFrom('signup', 'pageview', 'purchase', 'identify', 'subscribe', 'support', 'custom_thing', 'x'),
  )
  .map(([fields, type]) => ({ ...fields, type }));
const jsonBody = fc.oneof(
  { weight: 4, arbitrary: fieldsObject },
  { weight: 3, arbitrary: withType },
  { weight: 2, arbitrary: fc.record({ events: fc.array(fc.oneof(withType, value), { maxLength: 120 }) }) },
  { weight: 1, arbitrary: value },
  { weight: 1, arbitrary: nestedValue },
);

// Near-valid bodies mostly carry ordinary text, so most of them get past the hostile-input step to the door's own rules.
const mild = fc.oneof({ weight: 12, arbitrary: fc.string({ maxLength: 30 }) }, { weight: 1, arbitrary: text });
const email = fc.oneof(fc.constantFrom('ada@example.com', 'Bob@Example.com ', 'x@y.z'), fc.emailAddress(), mild);
/** Bodies close to what each door accepts, with hostile values where its fields are, to reach past the first check. */
const almostValid = {
  event: fc.record(
    {
      type: fc.constantFrom('signup', 'pageview', 'purchase', 'custom_thing', 'trial_started'),
      email,
      anon_id: mild,
      properties: fc.dictionary(mild, mild, { maxKeys: 3 }),
      value: scalar,
      occurred_at: mild,
      utm: fc.record({ source: mild, medium: mild }),
    },
    { requiredKeys: ['type'] },
  ),
  subscribe: fc.record(
    {
      email,
      list: fc.constantFrom('news', 'nope'),
      consent: fc.oneof(fc.record({ text: mild, ip: mild, granted_at: mild }, { requiredKeys: ['text'] }), mild),
      name: mild,
    },
    { requiredKeys: ['email', 'list', 'consent'] },
  ),
  identify: fc.record(
    { email, anon_id: mild, account_id: mild, name: mild, fields: fc.dictionary(mild, mild, { maxKeys: 3 }) },
    { requiredKeys: [] },
  ),
  support: fc.record({ from: email, message: mild, subject: mild }, { requiredKeys: ['message'] }),
  message: fc.record({ to: email, subject: mild, body: mild, template: mild }, { requiredKeys: ['to'] }),
  segment: fc.record(
    {
      type: fc.constantFrom('track', 'identify', 'page', 'alias', 'group'),
      userId: mild,
      anonymousId: mild,
      event: fc.constantFrom('Order Completed', 'Signed Up', 'Custom Thing'),
      properties: fc.dictionary(mild, mild, { maxKeys: 3 }),
      traits: fc.record({ email, name: mild }, { requiredKeys: [] }),
      messageId: mild,
      timestamp: mild,
      sentAt: mild,
    },
    { requiredKeys: [] },
  ),
};
const mcpCall = fc.record(
  {
    jsonrpc: fc.constantFrom('2.0', '1.0'),
    id: fc.oneof(fc.integer(), mild),
    method: fc.constantFrom('tools/call', 'tools/list', 'initialize', 'nope'),
    params: fc.record(
      {
        name: fc.constantFrom(
          'track_event',
          'identify_person',
          'find_people',
          'get_person',
          'list_messages',
          'send_email',
          'chart_events',
          'nope',
        ),
        arguments: fc.oneof(almostValid.event, almostValid.identify, almostValid.message, value),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: ['jsonrpc', 'method'] },
);
const anyAlmostValid = fc.oneof(
  ...Object.values(almostValid).map((a) => a as fc.Arbitrary<unknown>),
  fc.record({ events: fc.array(almostValid.event, { maxLength: 5 }) }),
);

/** The bytes sent: mostly JSON (near-valid or hostile), sometimes broken, binary, deep, or too large. */
const rawBodyOf = (near: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 6, arbitrary: near.map((b) => JSON.stringify(b) ?? 'null') },
    { weight: 5, arbitrary: jsonBody.map((b) => JSON.stringify(b) ?? 'null') },
    { weight: 1, arbitrary: jsonBody.map((b) => (JSON.stringify(b) ?? 'null').slice(0, -1)) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)) },
    { weight: 1, arbitrary: fc.integer({ min: 30, max: 20_000 }).map((d) => '['.repeat(d) + ']'.repeat(d)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        'null',
        '"\\u0000"',
        '"\\ud800"',
        '{"a":"\\udc00"}',
        '{"__proto__":{"polluted":1}}',
        'x'.repeat(300_000),
      ),
    },
  );
const rawBody = rawBodyOf(anyAlmostValid);

type Auth = 'secret' | 'public' | 'none' | 'garbage' | 'admin-ish';
const headers = fc.record(
  {
    contentType: fc.oneof(
      { weight: 6, arbitrary: fc.constant('application/json') },
      fc.constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/json; charset=utf-16',
        'application/json; charset=latin1',
        'multipart/form-data; boundary=x',
        '',
      ),
    ),
    encoding: fc.oneof(
      { weight: 6, arbitrary: fc.constant(undefined) },
      fc.constantFrom('gzip', 'gzip-real', 'gzip-real', 'br', 'deflate', 'identity', 'x-nope', 'gzip, gzip'),
    ),
    origin: fc.oneof(
      { weight: 5, arbitrary: fc.constant(SITE) },
      fc.constantFrom('null', 'https://evil.example.net', 'http://localhost:3000'),
    ),
    auth: fc.oneof(
      { weight: 6, arbitrary: fc.constant<Auth>('secret') },
      fc.constantFrom<Auth>('public', 'none', 'garbage', 'admin-ish'),
    ),
    extra: fc.dictionary(
      fc.constantFrom(
        'x-forwarded-for',
        'accept',
        'apollo-require-preflight',
        'mcp-protocol-version',
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
        'x-hub-signature',
        'stripe-signature',
        'cookie',
      ),
      fc.string({ maxLength: 60 }),
      { maxKeys: 3 },
    ),
  },
  { requiredKeys: ['auth'] },
);

const percentEncoded = (s: string) =>
  [...Buffer.from(s, 'utf8')].map((b) => '%' + b.toString(16).padStart(2, '0')).join('');
const hostileSegment = fc.oneof(
  fc.constantFrom(
    '%00',
    'a%00b',
    '%ED%A0%80',
    '%FF',
    '%',
    '%zz',
    '%E0%A4%A',
    '..',
    '%2e%2e',
    '%2F',
    'x'.repeat(3000),
    '%C0%AF',
  ),
  fc.string({ maxLength: 20 }).map(percentEncoded),
);
const queryString = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        'person',
        'since',
        'until',
        'direction',
        'limit',
        'cursor',
        'query',
        'variables',
        'x',
        '__proto__',
        'person[]',
      ),
      fc.oneof(
        hostileSegment,
        fc.constantFrom('-1', '0', '101', '1e9', '2020-13-45', 'in', 'out', 'ada@example.com', '{ lists { id } }'),
      ),
    ),
    { maxLength: 5 },
  )
  .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));

const GRAPHQL_DOCUMENTS = [
  '{ lists { id } }',
  'query($f: PeopleFilter) { people(filter: $f) { id email timeline { id } } }',
  'query($id: String, $email: String) { person(id: $id, email: $email) { id stage } }',
  'mutation($input: CreateListInput!) { createList(input: $input) { id } }',
  'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret } }',
  'mutation($input: CreateTemplateInput!) { createTemplate(input: $input) { id } }',
  '{ __typename',
  '{ a: lists { id } b: lists { id } }',
  'fragment F on Person { ...F } { people { ...F } }',
];
const graphqlBody = fc
  .record({
    query: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...GRAPHQL_DOCUMENTS) }, { weight: 1, arbitrary: text }),
    variables: fc.oneof(
      {
        weight: 3,
        arbitrary: fc.record(
          {
            input: fc.record({
              address: text,
              name: text,
              url: text,
              triggers: fc.array(text, { maxLength: 3 }),
              subject: text,
              body: text,
            }),
            f: fc.record({ first: fc.integer({ min: -5, max: 200 }), stage: text, email: text }, { requiredKeys: [] }),
            id: text,
            email: text,
          },
          { requiredKeys: [] },
        ),
      },
      { weight: 1, arbitrary: fc.record({ input: fieldsObject, f: fieldsObject }, { requiredKeys: [] }) },
      { weight: 1, arbitrary: value },
    ),
    operationName: fc.option(text, { freq: 10 }).map((name) => name ?? undefined),
  })
  .map((b) => JSON.stringify(b));
const graphqlGetQuery = fc
  .tuple(fc.constantFrom(...GRAPHQL_DOCUMENTS), fc.option(queryString))
  .map(([doc, extra]) => `query=${encodeURIComponent(doc)}${extra ? `&${extra}` : ''}`);

/** Form posts of the sign-in pages and OAuth requests: their fields, near-valid or hostile. */
const formBody = fc
  .dictionary(
    fc.constantFrom(
      'key',
      'email',
      'token',
      'next',
      'workspace',
      'request',
      'decision',
      'grant_type',
      'code',
      'client_id',
      'code_verifier',
      'redirect_uri',
      'refresh_token',
      'resource',
      'List-Unsubscribe',
      'form',
      'list',
    ),
    fc.oneof(
      text,
      fc.constantFrom('sk_live_x', 'ada@example.com', '//evil.example', 'allow', 'authorization_code', 'refresh_token'),
      fc.constantFrom('One-Click', 'preferences', 'list_nope'),
    ),
    { maxKeys: 5 },
  )
  .map((fields) =>
    Object.entries(fields)
      .map(([k, v]) => `${percentEncoded(k)}=${percentEncoded(v)}`)
      .join('&'),
  );
const oauthQuery = fc
  .dictionary(
    fc.constantFrom(
      'response_type',
      'client_id',
      'redirect_uri',
      'code_challenge',
      'code_challenge_method',
      'state',
      'scope',
      'resource',
    ),
    fc.oneof(hostileSegment, fc.constantFrom('code', 'S256', 'plain', 'cli_nope', 'http://127.0.0.1:1/cb')),
    { maxKeys: 6 },
  )
  .map((fields) =>
    Object.entries(fields)
      .map(([k, v]) => `${k}=${v}`)
      .join('&'),
  );

// ---- routes ----------------------------------------------------------------------------------------

interface Case {
  path: string;
  query: string;
  body: string | Buffer;
  headers: { contentType?: string; encoding?: string; origin?: string; auth: Auth; extra?: Record<string, string> };
}
interface Route {
  name: string;
  method: string;
  /** The path, given the workspace and a generated segment to put where the route takes one. */
  path: (ws: CreatedWorkspace, segment: string | null) => string;
  /** Where a generated segment goes (null: the path is fixed). */
  segment?: boolean;
  body?: fc.Arbitrary<string | Buffer>;
  /** Headers every case of the route sends (a generated header of the same name wins). */
  fixedHeaders?: Record<string, string>;
  /** Query strings of the route's own (default: generated hostile ones). */
  query?: fc.Arbitrary<string>;
  graphql?: boolean;
  /** Refusals may also be JSON-RPC errors ({jsonrpc, error:{code, message}}). */
  jsonRpc?: boolean;
  /** An HTML page: a refusal says why in an element with role="alert". */
  page?: boolean;
  /** An OAuth endpoint of the MCP SDK's: a refusal is {error, error_description?}, or a redirect. */
  oauth?: boolean;
}

const ROUTES: Route[] = [
  {
    name: 'POST /api/v1/events',
    method: 'POST',
    path: () => '/api/v1/events',
    body: rawBodyOf(
      fc.oneof(almostValid.event, fc.record({ events: fc.array(almostValid.event, { maxLength: 120 }) })),
    ),
  },
  { name: 'GET /api/v1/events', method: 'GET', path: () => '/api/v1/events' },
  {
    name: 'POST /api/v1/messages',
    method: 'POST',
    path: () => '/api/v1/messages',
    body: rawBodyOf(almostValid.message),
  },
  { name: 'GET /api/v1/messages', method: 'GET', path: () => '/api/v1/messages' },
  {
    name: 'GET /api/v1/people/{who}/messages',
    method: 'GET',
    path: (_ws, s) => `/api/v1/people/${s ?? 'ada%40example.com'}/messages`,
    segment: true,
  },
  {
    name: 'GET /api/v1/people/{who}/export',
    method: 'GET',
    path: (_ws, s) => `/api/v1/people/${s ?? 'ada%40example.com'}/export`,
    segment: true,
  },
  {
    name: 'DELETE /api/v1/people/{who}',
    method: 'DELETE',
    path: (_ws, s) => `/api/v1/people/${s ?? 'ada%40example.com'}`,
    segment: true,
  },
  {
    name: 'POST /v1/{call} (Segment)',
    method: 'POST',
    path: (_ws, s) => `/v1/${s ?? 'track'}`,
    segment: true,
    body: rawBodyOf(
      fc.oneof(almostValid.segment, fc.record({ batch: fc.array(almostValid.segment, { maxLength: 20 }) })),
    ),
  },
  ...['subscribe', 'identify', 'event', 'support'].map((action): Route => ({
    name: `POST {public}/${action}`,
    method: 'POST',
    path: (ws, s) => `/api/in/${s ?? ws.publicKey}/${action}`,
    segment: true,
    body: rawBodyOf(almostValid[action as keyof typeof almostValid]),
  })),
  {
    name: 'POST {public}/{unknown action}',
    method: 'POST',
    path: (ws, s) => `/api/in/${ws.publicKey}/${s ?? 'nope'}`,
    segment: true,
    body: rawBody,
  },
  {
    name: 'OPTIONS {public}/{action}',
    method: 'OPTIONS',
    path: (ws, s) => `/api/in/${s ?? ws.publicKey}/event`,
    segment: true,
  },
  {
    name: 'GET {public}/track.js',
    method: 'GET',
    path: (ws, s) => `/api/in/${s ?? ws.publicKey}/track.js`,
    segment: true,
  },
  { name: 'POST /api/webhooks/email', method: 'POST', path: () => '/api/webhooks/email', body: rawBody },
  {
    name: 'POST /graphql',
    method: 'POST',
    path: () => '/graphql',
    body: fc.oneof({ weight: 3, arbitrary: graphqlBody }, { weight: 1, arbitrary: rawBody }),
    graphql: true,
  },
  // Apollo answers a GET without this header 400 (CSRF prevention); with it the query itself is fuzzed.
  {
    name: 'GET /graphql',
    method: 'GET',
    path: () => '/graphql',
    graphql: true,
    query: graphqlGetQuery,
    fixedHeaders: { 'apollo-require-preflight': 'true' },
  },
  // Doors still being built answer not_found in the envelope today; the same rows then fuzz them.
  {
    name: 'POST /api/webhooks/{kind}/{token}',
    method: 'POST',
    path: (_ws, s) => `/api/webhooks/payment/${s ?? 'tok_nothing'}`,
    segment: true,
    body: rawBody,
  },
  {
    name: 'POST /api/webhooks/automation/{address}',
    method: 'POST',
    path: (_ws, s) => `/api/webhooks/automation/${s ?? 'aut_0.sig'}`,
    segment: true,
    body: rawBody,
  },
  // The tool door speaks JSON-RPC: the MCP transport's own refusals (406, unknown method) come in its shape.
  {
    name: 'POST /api/mcp',
    method: 'POST',
    path: () => '/api/mcp',
    body: rawBodyOf(mcpCall),
    jsonRpc: true,
    fixedHeaders: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
  },
  // The sign-in pages (HTML: a refusal is a page with role="alert") and the OAuth endpoints (RFC 6749 errors).
  ...[
    '/sign-in/key',
    '/sign-in/email',
    '/sign-in/link',
    '/sign-in/operator',
    '/sign-in/workspace',
    '/sign-out',
    '/consent',
  ].map((path): Route => ({ name: `POST ${path}`, method: 'POST', path: () => path, body: formBody, page: true })),
  // The preference page of an email's signed link: one-click and the page's Save, on a token never signed here.
  {
    name: 'POST /preferences/{token}',
    method: 'POST',
    path: (_ws, s) => `/preferences/${s ?? 'bm9wZQ.c2lnbmF0dXJl'}`,
    segment: true,
    body: formBody,
    page: true,
  },
  ...['/register', '/token', '/revoke'].map((path): Route => ({
    name: `POST ${path}`,
    method: 'POST',
    path: () => path,
    body: fc.oneof(formBody, rawBody),
    oauth: true,
  })),
  { name: 'GET /authorize', method: 'GET', path: () => '/authorize', query: oauthQuery, oauth: true },
  {
    name: 'an unknown route',
    method: 'PATCH',
    path: (_ws, s) => `/api/v1/${s ?? 'nothing'}`,
    segment: true,
    body: rawBody,
  },
];

// ---- the run ---------------------------------------------------------------------------------------

const t = useApp({ env: { EMAIL_WEBHOOK_SECRET: EMAIL_SECRET } });
const ws = useWorkspace(t, { origins: [SITE] }, 'all');
let redis: Redis;

beforeAll(async () => {
  await t.gql('mutation { createList(input: {address: "news", name: "News"}) { id } }', {}, ws.secretKey);
  redis = t.app.get(REDIS);
  console.log(`fuzz seed ${SEED} (replay with FUZZ_SEED=${SEED}), ${RUNS} cases per route`);
});

async function rows(): Promise<string> {
  const counts = WRITTEN_TABLES.map((table) => `(SELECT count(*) FROM ${table})`).join(', ');
  return JSON.stringify((await t.db.query(`SELECT ${counts}`))[0]);
}

async function resetRateLimits(): Promise<void> {
  const keys = await redis.keys(`${t.config.redisPrefix}:rl:*`);
  if (keys.length > 0) await redis.del(...keys);
}

function requestHeaders(c: Case, hasBody: boolean): Record<string, string> {
  const h: Record<string, string> = { ...(c.headers.extra ?? {}) };
  if (hasBody && c.headers.contentType !== undefined) h['content-type'] = c.headers.contentType;
  if (hasBody && c.headers.encoding && c.headers.encoding !== 'gzip-real') h['content-encoding'] = c.headers.encoding;
  if (hasBody && c.headers.encoding === 'gzip-real') h['content-encoding'] = 'gzip';
  if (c.headers.origin) h.origin = c.headers.origin;
  const bearer = {
    secret: ws.secretKey,
    public: ws.publicKey,
    none: null,
    garbage: 'sk_live_' + 'x'.repeat(32),
    'admin-ish': 'test-admin-token',
  }[c.headers.auth];
  if (bearer) h.authorization = `Bearer ${bearer}`;
  return h;
}

function refusalCode(text: string): string {
  try {
    const body = JSON.parse(text);
    return body.error ?? body.errors?.[0]?.extensions?.code ?? '?';
  } catch {
    return '?';
  }
}

function expectRefusalShape(route: Route, status: number, text: string): void {
  // A page's own refusal says why on the page; what every route refuses first (the request line) is the envelope.
  if (route.page && !text.startsWith('{')) {
    expect(text).toMatch(/role="alert"[^>]*>[^<]*\S/);
    return;
  }
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${route.name} answered ${status} with a body that is not JSON: ${text.slice(0, 200)}`);
  }
  if (route.jsonRpc && body?.jsonrpc === '2.0') {
    expect(typeof body.error?.code === 'number' && typeof body.error?.message === 'string').toBe(true);
    return;
  }
  if (route.oauth) {
    expect(typeof body.error).toBe('string');
    return;
  }
  if (route.graphql) {
    expect(Array.isArray(body.errors) && body.errors.length > 0).toBe(true);
    for (const error of body.errors)
      expect(typeof error.message === 'string' && typeof error.extensions?.code === 'string').toBe(true);
    return;
  }
  expect(body).toEqual(
    expect.objectContaining({
      ok: false,
      error: expect.stringMatching(/^[a-z_]+$/),
      message: expect.stringMatching(/\S/),
    }),
  );
}

describe.each(ROUTES.map((route, index) => [route.name, route, index] as const))('fuzz %s', (_name, route, index) => {
  it(`answers ${RUNS} hostile requests with no 5xx, the envelope on every refusal, and no write for a refusal`, async () => {
    const segment = route.segment ? fc.option(hostileSegment, { freq: 2 }) : fc.constant(null);
    const body = route.body ?? fc.constant('');
    const cases = fc.record({ segment, query: route.query ?? fc.option(queryString, { freq: 2 }), body, headers });
    const statuses = new Map<string, number>();
    let known = await rows();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        // Every few cases, fresh allowances (the lowest is 10 per window), so 429s do not hide the checks.
        if (run++ % 5 === 0) await resetRateLimits();
        const hasBody = route.body !== undefined;
        const path = route.path(ws, c.segment);
        const one: Case = { path, query: c.query ?? '', body: c.body, headers: c.headers };
        const raw = typeof one.body === 'string' ? Buffer.from(one.body, 'utf8') : one.body;
        const response = await fetch(`${t.url}${path}${one.query ? `?${one.query}` : ''}`, {
          method: route.method,
          headers: { ...route.fixedHeaders, ...requestHeaders(one, hasBody) },
          body: hasBody ? new Uint8Array(one.headers.encoding === 'gzip-real' ? gzipSync(raw) : raw) : undefined,
        });
        const text = await response.text();
        const tally = response.status < 400 ? String(response.status) : `${response.status}:${refusalCode(text)}`;
        statuses.set(tally, (statuses.get(tally) ?? 0) + 1);
        if (response.status >= 500) throw new Error(`${route.name} answered ${response.status}: ${text.slice(0, 300)}`);
        // Nothing else writes these tables (no worker runs here), so the count after the last case is the count before this one.
        const after = await rows();
        if (response.status >= 400) {
          expectRefusalShape(route, response.status, text);
          expect(after).toBe(known);
        }
        known = after;
      }),
      { seed: SEED + index, numRuns: RUNS, endOnFailure: true },
    );
    // What the run reached, so a reader can see it was not all one kind of refusal.
    console.log(
      `${route.name}: ${[...statuses]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([s, n]) => `${s} x${n}`)
        .join(', ')}`,
    );
  }, 600_000);
});

// ---- erasure leaves no way around ------------------------------------------------------------------

describe('after an erasure, the alias and the start address make no one and start nothing', () => {
  /** Erased people, one per case: the properties' identifiers never repeat across cases. */
  let person = 0;
  let automation: { id: string; path: string };

  beforeAll(async () => {
    const created = await t.gql(
      `mutation($input: CreateAutomationInput!) { createAutomation(input: $input) { automation { id } address } }`,
      { input: { name: 'Fuzzed start', trigger: { kind: 'webhook' }, steps: [{ kind: 'wait', seconds: 3600 }] } },
      ws.secretKey,
    );
    const { automation: made, address } = created.data.createAutomation;
    await t.gql(
      `mutation($id: ID!) { setAutomationStatus(id: $id, status: "running") { id } }`,
      { id: made.id },
      ws.secretKey,
    );
    automation = { id: made.id, path: new URL(address).pathname };
  });

  // How a caller may spell an identifier it kept: as stored or padded; an email (case-blind) also shouted.
  const spelling = fc.constantFrom('stored', 'padded', 'shouted');
  const spell = (how: string, value: string, isEmail: boolean) =>
    how === 'padded' ? ` ${value} ` : how === 'shouted' && isEmail ? value.toUpperCase() : value;
  const erasedCase = fc.record({
    local: fc.stringMatching(/^[a-z][a-z0-9]{0,15}$/),
    account: fc.stringMatching(/^[A-Za-z0-9_-]{3,24}$/),
    // Which erased identifier the alias carries as previousId, and whether its userId is new or the erased email.
    previous: fc.constantFrom('account', 'email', 'anon'),
    userId: fc.option(fc.stringMatching(/^[a-z0-9-]{3,20}$/), { nil: undefined }),
    spellPrevious: spelling,
    spellStart: spelling,
    properties: fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.oneof(fc.string({ maxLength: 20 }), fc.integer())),
  });

  it('no person or run ever holds an erased identifier, however the alias and the start address name it', async () => {
    await fc.assert(
      fc.asyncProperty(erasedCase, async (c) => {
        await resetRateLimits();
        const n = ++person;
        const email = `${c.local}.erased${n}@example.com`;
        const account = `${c.account}-${n}`;
        const anon = `anon-erased-${n}`;
        const made = await t.request('POST', '/api/v1/events', {
          key: ws.secretKey,
          body: { type: 'signup', email, account_id: account, anon_id: anon },
        });
        expect(made.body).toMatchObject({ ok: true, status: 'recorded' });
        const erased = await t.request('DELETE', `/api/v1/people/${made.body.id}`, { key: ws.secretKey });
        expect(erased.body).toMatchObject({ ok: true, suppressedKeys: 3 });

        const previousId = spell(c.spellPrevious, { account, email, anon }[c.previous], c.previous === 'email');
        const userId = c.userId === undefined ? email : `${c.userId}-new-${n}`;
        const alias = await postSegment(t.url, '/v1/alias', { previousId, userId }, { key: ws.secretKey });
        expect(alias.status).toBe(200);
        expect(alias.body).toMatchObject({ ok: true, status: 'suppressed' });
        const start = await t.request('POST', automation.path, {
          raw: JSON.stringify({ email: spell(c.spellStart, email, true), properties: c.properties }),
        });
        expect(start.body).toEqual({ ok: true, status: 'suppressed' });

        const [held] = await t.db.query(
          `SELECT (SELECT count(*) FROM identities WHERE workspace_id = $1
                     AND (lower(value) = ANY($2::text[]) OR value = $3))::int AS identities,
                  (SELECT count(*) FROM people WHERE workspace_id = $1 AND lower(email) = $4)::int AS people,
                  (SELECT count(*) FROM automation_runs WHERE workspace_id = $1 AND automation_id = $5)::int AS runs`,
          [ws.workspace.id, [email, account.toLowerCase(), anon], userId, email, automation.id],
        );
        expect(held).toEqual({ identities: 0, people: 0, runs: 0 });
      }),
      { seed: SEED + ROUTES.length, numRuns: Math.max(10, Math.round(RUNS / 10)), endOnFailure: true },
    );
  }, 600_000);
});
