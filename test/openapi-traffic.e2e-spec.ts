// Every REST operation of /api/openapi.json, driven with good and bad input (and the media types real clients
// send: sendBeacon's and Segment's browser library's text/plain, form-encoded posts) through a recording proxy,
// by hand and by real clients (the client package, Segment's server library): each request and answer is
// checked against the document, and none disagrees (test/support/openapi-check.ts says what disagreeing is).
import { Analytics } from '@segment/analytics-node';
import { Lifeline } from '../libs/sdk/src';
import { ADMIN_TOKEN, useApp } from './harness';
import { documentFacts, type Exchange, OpenApiCheck, trafficProxy } from './support/openapi-check';

const t = useApp();
const SITE = 'https://shop.example.com';
let proxy: Awaited<ReturnType<typeof trafficProxy>>;
let document: Record<string, any>;

beforeAll(async () => {
  proxy = await trafficProxy(t.url);
  document = (await t.request('GET', '/api/openapi.json')).body;
});
afterAll(() => proxy?.close());

type Call = { method?: string; key?: string; basic?: string; type?: string; headers?: Record<string, string> };

/** One request through the proxy: a JSON body unless `raw` text is given. */
async function send(path: string, body?: unknown, call: Call = {}): Promise<Response> {
  const headers: Record<string, string> = { ...call.headers };
  if (call.key) headers.authorization = `Bearer ${call.key}`;
  if (call.basic) headers.authorization = `Basic ${Buffer.from(`${call.basic}:`).toString('base64')}`;
  if (body !== undefined) headers['content-type'] = call.type ?? 'application/json';
  const answer = await fetch(`${proxy.url}${path}`, {
    method: call.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  await answer.arrayBuffer();
  return answer;
}

async function facts() {
  const { ws, automation } = await documentFacts(t, SITE);
  return { ...ws, automation };
}

/** The traffic of every operation: what an integrator, a browser and Segment's clients send, right and wrong. */
async function driveEveryOperation() {
  const ws = await facts();
  const secret = { key: ws.secretKey };
  const site = { headers: { origin: SITE } };
  const web = (action: string) => `/api/in/${ws.publicKey}/${action}`;
  const ada = 'ada@example.com';

  // The events endpoint.
  await send('/api/v1/events');
  await send('/api/v1/events', { type: 'signup', email: ada, occurred_at: '2026-05-01T12:00:00Z' }, secret);
  await send('/api/v1/events', { type: 'purchase', email: ada, value: null, occurred_at: '2026-05-01' }, secret);
  await send('/api/v1/events', { type: 'trial_started', email: ada, occurred_at: '2026-05-01 12:00:00' }, secret);
  await send('/api/v1/events', JSON.stringify({ type: 'pageview', email: ada }), { ...secret, type: 'text/plain' });
  await send('/api/v1/events', JSON.stringify({ type: 'pageview', email: ada }), {
    ...secret,
    type: 'text/plain;charset=UTF-8',
  });
  await send('/api/v1/events', JSON.stringify({ type: 'download', email: ada }), {
    ...secret,
    type: 'application/x-www-form-urlencoded',
  });
  await send(
    '/api/v1/events',
    {
      events: [
        { type: 'identify', email: ada, name: 'Ada', fields: { plan: 'pro', seats: 3, gone: null }, account_id: null },
        { type: 'subscribe', email: ada, list: 'news', consent: { text: 'Yes.', granted_at: '2026-05-01T12:00' } },
        { type: 'support', from: ada, message: 'Hello?', topic: null },
        { type: 'report_built', email: ada, properties: { rows: 3 }, source: { os: 'beos', utm: { source: 'x' } } },
      ],
    },
    secret,
  );
  await send('/api/v1/events', { events: [{ type: 'signup', email: ada }, { type: 'pageview' }] }, secret); // 207
  await send('/api/v1/events', { type: 'signup', email: ada, ocurred_at: '2024-05-01T00:00:00Z' }, secret);
  await send('/api/v1/events', { type: 'Signed-Up', email: ada }, secret);
  await send('/api/v1/events', { type: 'signup' }, secret);
  await send('/api/v1/events', { events: [] }, secret);
  await send('/api/v1/events', { events: Array.from({ length: 101 }, () => ({ type: 'signup', email: ada })) }, secret);
  await send('/api/v1/events', '{"type":', { ...secret });
  await send('/api/v1/events', { type: 'signup', email: ada });
  await send('/api/v1/events', { type: 'signup', email: ada }, { key: ws.publicKey });

  // The events export: a day's lines, plain and gzipped, a range it cannot read, a cursor it never gave.
  const day = '/api/v1/events/export?from=2026-05-01&to=2026-05-02';
  await send(day, undefined, { ...secret, headers: { 'accept-encoding': 'identity' } });
  await send(day, undefined, { ...secret, headers: { 'accept-encoding': 'gzip' } });
  await send('/api/v1/events/export?from=2026-05-02&to=2026-05-01', undefined, secret);
  await send(`${day}&after=nope`, undefined, secret);
  await send(day);

  // Messages and a person's data.
  await send('/api/v1/messages', { to: ada, subject: 'Welcome', body: 'Hello {{ person.name }}.' }, secret);
  await send('/api/v1/messages', JSON.stringify({ to: ada, subject: 'Again', body: 'Hello again.' }), {
    ...secret,
    type: 'text/plain',
  });
  await send('/api/v1/messages', { to: ada, subject: 'W', body: 'Hello.' }, secret);
  await send('/api/v1/messages', { to: ada, template: 'nothing-here' }, secret);
  await send('/api/v1/messages', { to: 'nobody@example.com', subject: 'Hi there', body: 'Hello.' }, secret);
  await send('/api/v1/messages?limit=1', undefined, secret);
  await send(`/api/v1/messages?person=${ada}&direction=out&since=2026-01-01`, undefined, secret);
  await send('/api/v1/messages?limit=0', undefined, secret);
  await send('/api/v1/messages?limit=many', undefined, secret);
  await send(`/api/v1/people/${ada}/messages`, undefined, secret);
  await send('/api/v1/people/nobody@example.com/messages', undefined, secret);
  await send(`/api/v1/people/${ada}/export`, undefined, secret);
  await send('/api/v1/events', { type: 'signup', email: 'erin@example.com' }, secret);
  await send('/api/v1/people/erin@example.com', undefined, { ...secret, method: 'DELETE' });
  await send('/api/v1/people/erin@example.com', undefined, { ...secret, method: 'DELETE' });

  // The website endpoints, as the tag posts (fetch with JSON, or a beacon's text) and as a form might.
  await send(web('track.js'));
  const script = await send(web('track.js'));
  await send(web('track.js'), undefined, { headers: { 'if-none-match': String(script.headers.get('etag')) } });
  await send('/api/in/wk_nothing/track.js');
  await send(web('event'), undefined, {
    method: 'OPTIONS',
    headers: { origin: SITE, 'access-control-request-method': 'POST' },
  });
  await send(web('event'), undefined, {
    method: 'OPTIONS',
    headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'POST' },
  });
  const beacon = { type: 'pageview', anon_id: 'a'.repeat(32), source: { path: '/', os: 'mac', referrer: null } };
  await send(web('event'), beacon, site);
  await send(web('event'), JSON.stringify(beacon), { ...site, type: 'text/plain;charset=UTF-8' });
  await send(web('event'), JSON.stringify(beacon), { ...site, type: 'application/x-www-form-urlencoded' });
  await send(web('identify'), { email: 'vi@example.com', name: 'Vi', anon_id: 'a'.repeat(32) }, site);
  await send(web('subscribe'), { email: 'vi@example.com', list: 'news', consent: { text: 'Yes, news.' } }, site);
  await send(web('subscribe'), { email: 'vi@example.com', list: 'news', consent: 'Yes.' }, site);
  await send(web('support'), { from: 'vi@example.com', message: 'Hi', hp: '' }, site);
  await send(web('identify'), { email: 'bot@example.com', website: 'spam.example' }, site);
  await send(web('event'), { type: 'pageview', anon_id: 'a1', soruce: {} }, site);
  await send(web('event'), { type: 'signup', anon_id: 'a1' }, site);
  await send(web('event'), beacon, { headers: { origin: 'https://elsewhere.example' } });
  await send(web('nothing'), beacon, site);
  await send('/api/in/wk_nothing/event', beacon, site);
  for (let i = 0; i < 11; i++) await send(web('support'), { from: 'vi@example.com', message: `Hi ${i}` }, site);

  // Segment's routes: the write key as HTTP Basic's user name, or in the body of a browser's text/plain post.
  await send(
    '/v1/track',
    { userId: 'u-ada', event: 'Order Completed', properties: { revenue: 49 } },
    {
      basic: ws.secretKey,
    },
  );
  await send(
    '/v1/t',
    JSON.stringify({
      type: 'track',
      event: 'cta_click',
      anonymousId: 'anon-1',
      writeKey: ws.publicKey,
      timestamp: '2026-05-01T12:00:00.000',
      sentAt: '2026-05-01T12:00:00.100',
    }),
    { ...site, type: 'text/plain' },
  );
  await send(
    '/v1/batch',
    { batch: [{ type: 'identify', userId: 'u-ada', traits: { email: ada } }] },
    {
      basic: ws.secretKey,
    },
  );
  await send('/v1/import', { batch: [{ type: 'page', userId: 'u-ada', name: 'Home' }] }, { basic: ws.secretKey });
  await send('/v1/track', { event: 'Signed Up', userId: 'u-1' });
  await send('/v1/trak', { event: 'Signed Up', userId: 'u-1' }, { basic: ws.secretKey });
  await send('/v1/track', undefined, {
    method: 'OPTIONS',
    headers: { origin: SITE, 'access-control-request-method': 'POST' },
  });
  const analytics = new Analytics({ writeKey: ws.secretKey, host: proxy.url, flushAt: 3 });
  analytics.identify({ userId: 'u-seg', traits: { email: 'seg@example.com', name: 'Seg' } });
  analytics.track({ userId: 'u-seg', event: 'Order Completed', properties: { revenue: 10 } });
  analytics.page({ userId: 'u-seg', name: 'Pricing', properties: { path: '/pricing' } });
  await analytics.closeAndFlush({ timeout: 10_000 });

  // The client package.
  const client = new Lifeline(ws.secretKey, { url: proxy.url, retries: 1 });
  await client.track('signup', { email: 'sdk@example.com', occurredAt: new Date('2026-05-01T00:00:00Z') });
  await client.identify({ email: 'sdk@example.com', name: 'Sdk', fields: { plan: 'pro' } });
  await client.subscribe({ email: 'sdk@example.com', list: 'news', consent: { text: 'Yes.' } });
  await client.support({ message: 'Hello', from: 'sdk@example.com' });
  await client.batch([{ type: 'purchase', email: 'sdk@example.com', value: 5 }, { type: 'activated' }]);
  await client.messages.send({ to: 'sdk@example.com', subject: 'Hello', body: 'Hello from the client.' });
  await client.messages.list({ person: 'sdk@example.com', limit: 1 });
  await client.messages.thread('sdk@example.com');

  // An automation's address, the third-party doors, the tool door, health and metrics.
  await send(`/api/webhooks/automation/${ws.automation}`, { email: ada, properties: { plan: 'pro' } });
  await send(`/api/webhooks/automation/${ws.automation}`, JSON.stringify({ email: ada }), { type: 'text/plain' });
  await send('/api/webhooks/automation/aut_nothing.bad', { email: ada });
  const token = 'x'.repeat(32);
  await send(`/api/webhooks/payment/${token}`, { type: 'charge.succeeded' });
  await send(`/api/webhooks/auth_a/${token}`, { type: 'user.created' });
  await send(`/api/webhooks/auth_b/${token}`, 'eyJhbGciOiJSUzI1NiJ9.e30.c2ln', { type: 'application/jwt' });
  await send(`/api/webhooks/hosting/${token}`, { action: 'created' });
  await send('/api/webhooks/email', { type: 'email.delivered' });
  const mcp = { ...secret, headers: { accept: 'application/json, text/event-stream' } };
  await send('/api/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, mcp);
  await send('/api/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { key: 'sk_live_nothing' });
  await send('/api/mcp', undefined, secret);
  await send('/api/mcp', undefined, { ...secret, method: 'DELETE' });
  await send('/.well-known/oauth-protected-resource');
  await send('/.well-known/oauth-protected-resource/api/mcp');
  await send('/health');
  await send('/health/live');
  await send('/health/ready');
  await send('/metrics', undefined, { key: ADMIN_TOKEN });
}

let verdicts: Array<ReturnType<OpenApiCheck['check']> & { exchange: Exchange }>;

it('every operation of the document, driven right and wrong, answers as the document says', async () => {
  await driveEveryOperation();
  const check = new OpenApiCheck(document);
  verdicts = proxy.exchanges.map((exchange) => ({ ...check.check(exchange), exchange }));
  expect(new Set(verdicts.map((v) => v.operation))).toEqual(new Set(check.operations));
  // Bad input was sent, and refused: the document refused it too, or could not say (no_identity, a list unknown).
  expect(verdicts.filter((v) => v.request.length > 0).length).toBeGreaterThan(10);
  expect(verdicts.some((v) => v.exchange.status === 429)).toBe(true);
  const disagreements = verdicts
    .filter((v) => v.disagreements.length)
    .map((v) => `${v.exchange.method} ${v.exchange.url} → ${v.exchange.status}: ${v.disagreements.join('; ')}`);
  expect(disagreements).toEqual([]);
}, 60_000);

it('has teeth: a document that refuses text/plain, a null value or an offset-less instant, or drops a header, disagrees', () => {
  const wrong = structuredClone(document);
  const events = wrong.paths['/api/v1/events'].post;
  delete events.requestBody.content['text/plain'];
  const value = wrong.components.schemas.WireEvent.properties.value;
  wrong.components.schemas.WireEvent.properties.value = value.anyOf[0];
  wrong.components.schemas.WireEvent.properties.occurred_at.pattern = 'Z$';
  delete wrong.paths['/api/in/{publicKey}/{action}'].post.responses['429'].headers;
  wrong.paths['/api/in/{publicKey}/{action}'].post.responses['429'].headers = {
    'X-Missing': { required: true, schema: { type: 'string' } },
  };
  const check = new OpenApiCheck(wrong);
  const found = proxy.exchanges.flatMap((exchange) => check.check(exchange).disagreements).join('\n');
  expect(found).toMatch(/media type "text\/plain" is not one the operation takes/);
  expect(found).toMatch(/\/value must be number/);
  expect(found).toMatch(/\/occurred_at must match pattern/);
  expect(found).toMatch(/429: the header X-Missing is missing/);
});
