// The tool door (docs/mcp.md#rules-of-the-door), driven by the MCP SDK's own client
// over HTTP against the running app, and by raw fetch for what a client library would hide.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@app/mcp';
import { memberKey, useApp, useWorkspace } from './harness';

const t = useApp();
const ws = useWorkspace(t, {}, 'all');
const answers: string[] = [];

/** The SDK's transport; `asking` makes its initialize ask for that protocol version instead of the SDK's latest. */
class TestTransport extends StreamableHTTPClientTransport {
  constructor(
    key: string,
    private readonly asking?: string,
  ) {
    super(new URL(`${t.url}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
  }

  override send(message: JSONRPCMessage, options?: Parameters<StreamableHTTPClientTransport['send']>[1]) {
    if (this.asking && 'method' in message && message.method === 'initialize')
      message = { ...message, params: { ...message.params, protocolVersion: this.asking } };
    return super.send(message, options);
  }
}

async function connect(key = ws.secretKey, asking?: string): Promise<Client> {
  const client = new Client({ name: 'lifeline-test', version: '1.0.0' });
  await client.connect(new TestTransport(key, asking));
  return client;
}

type ToolAnswer = { isError?: boolean; structuredContent?: any; content: Array<{ type: string; text: string }> };

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  const answer = (await client.callTool({ name, arguments: args })) as ToolAnswer;
  answers.push(JSON.stringify(answer));
  return answer;
}

function refusalOf(answer: ToolAnswer): { ok: false; error: string; message: string } {
  expect(answer.isError).toBe(true);
  return JSON.parse(answer.content[0].text);
}

/** A raw JSON-RPC post, as a client built from fetch alone would send it. */
async function raw(body: unknown, headers: Record<string, string> = {}, key: string | null = ws.secretKey) {
  const response = await fetch(`${t.url}/api/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  answers.push(text);
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : null };
}

const TOOLS = [
  'track_event',
  'identify_person',
  'find_people',
  'get_person',
  'list_messages',
  'send_email',
  'chart_events',
  'list_lists',
  'list_segments',
  'get_segment',
  'list_broadcasts',
  'get_broadcast',
  'list_automations',
  'export_person',
];

describe('the SDK client against /api/mcp', () => {
  it('initializes and lists every tool with a description and an input schema', async () => {
    const client = await connect();
    expect(client.getServerVersion()?.name).toBe('lifeline');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(TOOLS));
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
    const track = tools.find((tool) => tool.name === 'track_event')!;
    expect(track.inputSchema.required).toEqual(['type']);
    expect(Object.keys(track.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['email', 'anon_id', 'account_id', 'value', 'idempotency_key']),
    );
    await client.close();
  });

  it('track_event records the event through the ingest service: stage, value and timeline row', async () => {
    const client = await connect();
    const answer = await call(client, 'track_event', { type: 'purchase', email: 'Buyer@Example.com', value: 49 });
    expect(answer.isError).toBeFalsy();
    expect(answer.structuredContent).toMatchObject({ ok: true, status: 'recorded' });
    const [person] = await t.db.query(
      `SELECT id, stage, email FROM people WHERE workspace_id = $1 AND email = 'buyer@example.com'`,
      [ws.workspace.id],
    );
    expect(person.stage).toBe('purchaser');
    const events = await t.db.query(`SELECT type, value FROM events WHERE workspace_id = $1 AND person_id = $2`, [
      ws.workspace.id,
      person.id,
    ]);
    expect(events).toEqual(
      expect.arrayContaining([
        { type: 'purchase', value: '49' },
        { type: 'stage_changed', value: null },
      ]),
    );
    await client.close();
  });

  it('track_event keeps the events rules: no identity is refused with the REST code and sentence', async () => {
    const client = await connect();
    const refusal = refusalOf(await call(client, 'track_event', { type: 'signup' }));
    expect(refusal.error).toBe('no_identity');
    expect(refusal.message).toMatch(/email, anon_id or account_id/);
    expect(refusalOf(await call(client, 'track_event', { type: 'identify', email: 'a@b.co' })).error).toBe(
      'unknown_event',
    );
    await client.close();
  });

  it('arguments that break the input schema are refused as invalid_field in the REST shape', async () => {
    const client = await connect();
    const refusal = refusalOf(
      await call(client, 'track_event', { type: 'purchase', email: 'x@example.com', value: 'lots' }),
    );
    expect(refusal).toMatchObject({ ok: false, error: 'invalid_field' });
    expect(refusal.message).toMatch(/value/);
    await client.close();
  });

  it('identify_person joins keys into one person: created, then linked', async () => {
    const client = await connect();
    const first = await call(client, 'identify_person', { email: 'ida@example.com', name: 'Ida' });
    expect(first.structuredContent).toMatchObject({ ok: true, status: 'created' });
    const second = await call(client, 'identify_person', {
      email: 'ida@example.com',
      anon_id: 'anon-ida',
      fields: { plan: 'pro' },
    });
    expect(second.structuredContent).toMatchObject({ ok: true, status: 'linked', id: first.structuredContent.id });
    const identities = await t.db.query(
      `SELECT kind, value FROM identities WHERE workspace_id = $1 AND person_id = $2 ORDER BY kind`,
      [ws.workspace.id, first.structuredContent.id],
    );
    expect(identities).toEqual([
      { kind: 'anon_id', value: 'anon-ida' },
      { kind: 'email', value: 'ida@example.com' },
    ]);
    await client.close();
  });

  it('get_person answers the record, identities, consent words and the timeline; an unknown one is no_such_person', async () => {
    await t.gql('mutation { createList(input: {address: "news", name: "News"}) { id } }', {}, ws.secretKey);
    await t.request('POST', '/api/v1/events', {
      key: ws.secretKey,
      body: {
        type: 'subscribe',
        email: 'gil@example.com',
        list: 'news',
        consent: { text: 'Yes, send me the news.', ip: '203.0.113.9' },
      },
    });
    const client = await connect();
    await call(client, 'track_event', { type: 'signup', email: 'gil@example.com' });
    const answer = await call(client, 'get_person', { email: 'gil@example.com' });
    expect(answer.isError).toBeFalsy();
    const card = answer.structuredContent;
    expect(card.person).toMatchObject({ email: 'gil@example.com', stage: 'account', engaged: true });
    expect(card.identities).toEqual([{ kind: 'email', value: 'gil@example.com' }]);
    expect(card.subscriptions).toEqual([
      expect.objectContaining({
        consentText: 'Yes, send me the news.',
        consentIp: '203.0.113.9',
        list: { address: 'news', name: 'News' },
      }),
    ]);
    expect(card.timeline.map((row: { type: string }) => row.type)).toContain('signup');
    expect(refusalOf(await call(client, 'get_person', { id: 'per_nobody' })).error).toBe('no_such_person');
    const lists = await call(client, 'list_lists');
    expect(lists.structuredContent.lists).toEqual([expect.objectContaining({ address: 'news', name: 'News' })]);
    await client.close();
  });

  it('list_automations lists them by number, never with a start address', async () => {
    const CREATE = 'mutation($input: CreateAutomationInput!) { createAutomation(input: $input) { address } }';
    const made = await t.gql(
      CREATE,
      { input: { name: 'Hook', trigger: { kind: 'webhook' }, steps: [{ kind: 'wait', seconds: 60 }] } },
      ws.secretKey,
    );
    const address: string = made.data.createAutomation.address;
    await t.gql(
      CREATE,
      { input: { name: 'On signup', trigger: { kind: 'event', event: 'signup' }, steps: [] } },
      ws.secretKey,
    );
    const client = await connect();
    const listed = await call(client, 'list_automations');
    expect(listed.structuredContent.automations).toEqual([
      expect.objectContaining({
        number: 1,
        name: 'Hook',
        status: 'draft',
        trigger: { kind: 'webhook' },
        steps: [{ kind: 'wait', seconds: 60 }],
      }),
      expect.objectContaining({ number: 2, name: 'On signup', trigger: { kind: 'event', event: 'signup' } }),
    ]);
    expect(JSON.stringify(listed)).not.toContain(address.split('.').pop());
    expect(JSON.stringify(listed)).not.toContain('/api/webhooks/automation/');
    await client.close();
  });

  it('send_email keeps the engaged rule; list_messages reads what was sent', async () => {
    const client = await connect();
    await call(client, 'identify_person', { email: 'stranger@example.com' });
    expect(
      refusalOf(await call(client, 'send_email', { to: 'stranger@example.com', subject: 'Hello', body: 'Hi there' }))
        .error,
    ).toBe('not_engaged');
    await call(client, 'track_event', { type: 'signup', email: 'friend@example.com' });
    const sent = await call(client, 'send_email', {
      to: 'friend@example.com',
      subject: 'Welcome',
      body: 'Hello {{ person.email }}',
    });
    expect(sent.structuredContent).toMatchObject({ ok: true });
    const [row] = await t.db.query(`SELECT subject FROM messages WHERE workspace_id = $1 AND id = $2`, [
      ws.workspace.id,
      sent.structuredContent.id,
    ]);
    expect(row.subject).toBe('Welcome');
    const page = await call(client, 'list_messages', { person: 'friend@example.com', direction: 'out', limit: 10 });
    expect(page.structuredContent.messages.map((m: { id: string }) => m.id)).toEqual([sent.structuredContent.id]);
    expect(refusalOf(await call(client, 'list_messages', { limit: 500 })).error).toBe('invalid_field');
    await client.close();
  });

  it('find_people filters by stage, list, anon_id and name, at most 50', async () => {
    const client = await connect();
    await call(client, 'identify_person', {
      email: 'finder@example.com',
      anon_id: 'anon-finder',
      name: 'Fiona Finder',
    });
    await call(client, 'track_event', { type: 'purchase', email: 'finder@example.com', value: 5 });
    const byStage = await call(client, 'find_people', { stage: 'purchaser' });
    expect(byStage.structuredContent.people.map((p: { email: string }) => p.email)).toEqual(
      expect.arrayContaining(['finder@example.com', 'buyer@example.com']),
    );
    expect(byStage.structuredContent.people.every((p: { stage: string }) => p.stage === 'purchaser')).toBe(true);
    const byAnon = await call(client, 'find_people', { anon_id: 'anon-finder' });
    expect(byAnon.structuredContent.people).toEqual([
      expect.objectContaining({ email: 'finder@example.com', name: 'Fiona Finder' }),
    ]);
    const byName = await call(client, 'find_people', { name: 'fiona' });
    expect(byName.structuredContent.people.map((p: { email: string }) => p.email)).toEqual(['finder@example.com']);
    const byList = await call(client, 'find_people', { list: 'news' });
    expect(byList.structuredContent.people.map((p: { email: string }) => p.email)).toEqual(['gil@example.com']);
    expect(refusalOf(await call(client, 'find_people', { limit: 51 })).error).toBe('invalid_field');
    await client.close();
  });

  it('chart_events answers the charts service: sums by day, and a custom name only once seen', async () => {
    const client = await connect();
    const day = new Date().toISOString().slice(0, 10);
    const chart = await call(client, 'chart_events', {
      event: 'purchase',
      measure: 'sum_value',
      interval: 'day',
      from: `${day}T00:00:00Z`,
      to: `${day}T23:59:59Z`,
    });
    expect(chart.isError).toBeFalsy();
    expect(chart.structuredContent.series).toEqual([
      { key: 'all', points: [{ at: `${day}T00:00:00.000Z`, value: 54 }] },
    ]);
    const unseen = refusalOf(
      await call(client, 'chart_events', {
        event: 'never_seen',
        measure: 'count',
        interval: 'day',
        from: `${day}T00:00:00Z`,
        to: `${day}T23:59:59Z`,
      }),
    );
    expect(unseen.error).toBe('unknown_event');
    await client.close();
  });

  it('counts each tool call in the heartbeat under its name, origin mcp', async () => {
    const client = await connect();
    await call(client, 'track_event', { type: 'pageview', anon_id: 'hb-anon' });
    await client.close();
    const answer = await t.gql('{ heartbeat { action answer origin count } }', {}, ws.secretKey);
    expect(answer.data.heartbeat).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: 'track_event', answer: 'recorded', origin: 'mcp' })]),
    );
    expect(answer.data.heartbeat).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'track_event', answer: 'no_identity', origin: 'mcp' }),
      ]),
    );
  });
});

describe('the door itself', () => {
  const list = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };

  it('serves a request without MCP-Protocol-Version (taken as 2025-03-26), stateless, with no session id', async () => {
    const answer = await raw(list);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('mcp-session-id')).toBeNull();
    expect(answer.body.result.tools.map((tool: { name: string }) => tool.name)).toEqual(expect.arrayContaining(TOOLS));
  });

  it('refuses an unsupported protocol version with 400, naming the supported ones', async () => {
    const answer = await raw(list, { 'mcp-protocol-version': '1999-01-01' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('unsupported_protocol_version');
    expect(answer.body.message).toMatch(/2025-03-26.*2025-06-18.*2025-11-25/);
    expect((await raw(list, { 'mcp-protocol-version': '2025-06-18' })).status).toBe(200);
  });

  it('refuses a request with an Origin header (a browser)', async () => {
    const answer = await raw(list, { origin: 'https://evil.test' });
    expect(answer.status).toBe(403);
    expect(answer.body.error).toBe('use_the_public_key_from_browsers');
  });

  it('refuses a body over 64 KB with 413 too_large', async () => {
    const big = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'track_event', arguments: { type: 'x', email: 'a@b.co', detail: 'x'.repeat(65 * 1024) } },
    };
    const answer = await raw(big);
    expect(answer.status).toBe(413);
    expect(answer.body.error).toBe('too_large');
  });

  it.each([
    ['no bearer', null],
    ['an unknown key', 'sk_live_' + 'x'.repeat(32)],
    ['a public key', 'public'],
  ])('answers %s with 401 invalid_key and WWW-Authenticate pointing at the metadata', async (_name, key) => {
    const answer = await raw(list, {}, key === 'public' ? ws.publicKey : key);
    expect(answer.status).toBe(401);
    expect(answer.body.error).toBe('invalid_key');
    expect(answer.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${t.url}/.well-known/oauth-protected-resource"`,
    );
    if (key === 'public') expect(answer.body.message).toMatch(/tag/);
  });

  it('serves the RFC 9728 protected-resource document', async () => {
    const answer = await t.request('GET', '/.well-known/oauth-protected-resource');
    expect(answer.status).toBe(200);
    expect(answer.body.resource).toBe(`${t.url}/api/mcp`);
  });

  it('answers a removed member with 403 no_longer_a_member', async () => {
    const made = await t.gql('mutation { createKey(member: "leaver@example.com") { secretKey } }', {}, ws.secretKey);
    const key = made.data.createKey.secretKey;
    expect((await raw(list, {}, key)).status).toBe(200);
    await t.gql('mutation { removeMember(member: "leaver@example.com") }', {}, ws.secretKey);
    const answer = await raw(list, {}, key);
    expect(answer.status).toBe(403);
    expect(answer.body.error).toBe('no_longer_a_member');
  });

  it.each(['GET', 'DELETE'])('answers %s with 405, Allow: POST and what to post', async (method) => {
    const answer = await t.request(method, '/api/mcp', { key: ws.secretKey });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('POST');
    expect(answer.body.message).toMatch(/POST/);
  });

  it('keeps other workspaces apart: a tool reads only its own workspace', async () => {
    const other = await t.workspace();
    await t.request('POST', '/api/v1/events', {
      key: other.secretKey,
      body: { type: 'signup', email: 'theirs@example.com' },
    });
    const answer = await raw({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'get_person', arguments: { email: 'theirs@example.com' } },
    });
    expect(answer.body.result.isError).toBe(true);
    expect(JSON.parse(answer.body.result.content[0].text).error).toBe('no_such_person');
  });

  it('allows 600 calls per key in ten minutes, then 429 rate_limited with Retry-After', async () => {
    const made = await t.gql('mutation { createKey(member: "busy@example.com") { secretKey } }', {}, ws.secretKey);
    const key = made.data.createKey.secretKey;
    for (let i = 0; i < 600; i += 50) {
      const batch = await Promise.all(Array.from({ length: 50 }, () => raw(list, {}, key)));
      expect(batch.every((answer) => answer.status === 200)).toBe(true);
    }
    const answer = await raw(list, {}, key);
    expect(answer.status).toBe(429);
    expect(answer.body.error).toBe('rate_limited');
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
  }, 120_000);

  it('never answers with a key', () => {
    expect(answers.length).toBeGreaterThan(20);
    for (const text of answers) {
      expect(text).not.toMatch(/sk_live_[A-Za-z0-9]{8}/);
      expect(text).not.toContain(ws.publicKey);
    }
  });
});

const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
const pings = (n: number) => Array.from({ length: n }, (_, i) => ping(i + 1));

describe('protocol versions (docs/mcp.md#protocol-versions)', () => {
  const initialize = (protocolVersion: string) => ({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
  });
  const latest = LATEST_PROTOCOL_VERSION;

  it('answers an SDK client asking for 2024-11-05 with the latest version the door serves, and serves its next calls', async () => {
    const client = await connect(ws.secretKey, '2024-11-05');
    expect((client.transport as TestTransport).protocolVersion).toBe(latest);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(TOOLS));
    await client.close();
  });

  it.each([...SUPPORTED_PROTOCOL_VERSIONS])(
    'agrees to %s when asked, and serves it in MCP-Protocol-Version',
    async (version) => {
      const answer = await raw(initialize(version));
      expect(answer.body.result.protocolVersion).toBe(version);
      expect((await raw(LIST, { 'mcp-protocol-version': version })).status).toBe(200);
    },
  );

  it('answers a version it does not serve with its latest; that version in the header is then refused', async () => {
    expect((await raw(initialize('2024-11-05'))).body.result.protocolVersion).toBe(latest);
    expect((await raw(initialize('1999-01-01'))).body.result.protocolVersion).toBe(latest);
    const refused = await raw(LIST, { 'mcp-protocol-version': '2024-11-05' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('unsupported_protocol_version');
  });

  it('says tools.listChanged false: the door never sends that notification', async () => {
    const client = await connect();
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: false });
    await client.close();
  });
});

describe('JSON-RPC edges', () => {
  it('answers an unknown tool with JSON-RPC -32602 naming it and the tools there are', async () => {
    const client = await connect();
    const refused: { code?: number; message?: string } = await client
      .callTool({ name: 'delete_everything', arguments: {} })
      .then(
        () => ({}),
        (error: Error & { code: number }) => ({ code: error.code, message: error.message }),
      );
    expect(refused.code).toBe(-32602);
    expect(refused.message).toMatch(/"delete_everything".*track_event.*export_person.*send_email/);
    await client.close();
  });

  it.each([
    ['without params', {}],
    ['without a name', { params: { arguments: {} } }],
  ])('answers tools/call %s with -32602 saying what to send', async (_name, extra) => {
    const answer = await raw({ jsonrpc: '2.0', id: 7, method: 'tools/call', ...extra });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32602 } });
    expect(answer.body.error.message).toMatch(/params.*name.*track_event/);
  });

  it('answers an empty batch with one -32600 error object', async () => {
    const answer = await raw([]);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: expect.stringMatching(/empty batch/) },
      id: null,
    });
  });

  it("answers a batch of a request and a notification with an array holding the request's response only", async () => {
    const answer = await raw([ping(5), { jsonrpc: '2.0', method: 'notifications/initialized' }]);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([{ jsonrpc: '2.0', id: 5, result: {} }]);
  });

  it.each([
    ['an unknown', 'lla_' + 'x'.repeat(43)],
    ['a malformed', 'lla_short'],
  ])(
    'answers %s access token with 401 invalid_token and WWW-Authenticate error="invalid_token"',
    async (_name, token) => {
      const answer = await raw(LIST, {}, token);
      expect(answer.status).toBe(401);
      expect(answer.body.error).toBe('invalid_token');
      expect(answer.headers.get('www-authenticate')).toBe(
        `Bearer error="invalid_token", resource_metadata="${t.url}/.well-known/oauth-protected-resource"`,
      );
    },
  );
});

describe('the limit counts calls, not posts (docs/mcp.md#rules-of-the-door)', () => {
  it('each call of a batch spends one of 600; a batch of more calls than are left is refused whole, spending nothing', async () => {
    const { secretKey: key } = await memberKey(t, ws, 'batcher@example.com');
    for (let i = 0; i < 5; i++) {
      const answer = await raw(pings(100), {}, key);
      expect(answer.status).toBe(200);
      expect(answer.body).toHaveLength(100);
    }
    expect((await raw(ping(1), {}, key)).status).toBe(200);
    const over = await raw(pings(100), {}, key);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ ok: false, error: 'rate_limited' });
    expect(over.body.message).toMatch(/this post carries 100 and 99 are left/);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    const rest = await raw(pings(99), {}, key);
    expect(rest.status).toBe(200);
    expect(rest.body).toHaveLength(99);
    const after = await raw(ping(1), {}, key);
    expect(after.status).toBe(429);
    expect(after.body.error).toBe('rate_limited');
  }, 120_000);

  it("send_email spends the key's allowance of POST /api/v1/messages: after 600 posts there, it is rate_limited and sends nothing", async () => {
    const { secretKey: key } = await memberKey(t, ws, 'sender@example.com');
    for (let i = 0; i < 600; i += 50) {
      const posts = await Promise.all(
        Array.from({ length: 50 }, () => t.request('POST', '/api/v1/messages', { key, body: {} })),
      );
      expect(posts.every((answer) => answer.status !== 429)).toBe(true);
    }
    expect((await t.request('POST', '/api/v1/messages', { key, body: {} })).status).toBe(429);
    const send = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'send_email', arguments: { to: 'friend@example.com', subject: 'Over the limit', body: 'Hi' } },
    };
    const answer = await raw(send, {}, key);
    expect(answer.status).toBe(200);
    expect(answer.body.result.isError).toBe(true);
    expect(JSON.parse(answer.body.result.content[0].text)).toMatchObject({ ok: false, error: 'rate_limited' });
    const [row] = await t.db.query(`SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1 AND subject = $2`, [
      ws.workspace.id,
      'Over the limit',
    ]);
    expect(row.n).toBe(0);
  }, 120_000);
});
