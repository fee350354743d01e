// A typed client generated from /api/openapi.json (openapi-typescript for the types,
// openapi-fetch for the calls) compiles against calls of every route, under strict TypeScript, and
// the same calls then run against the app: a route, body or answer the document gets wrong fails here.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { ADMIN_TOKEN, useApp } from './harness';
import { documentFacts } from './support/openapi-check';

const t = useApp();
const SITE = 'https://shop.example.com';
// Inside the repository (.data/ is ignored by git), so the files resolve openapi-fetch from node_modules.
const FOLDERS = resolve(__dirname, '..', '.data', 'openapi-client');
let folder: string;
let found: Record<string, string[]>;
let doc: { paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> };

/** Calls of every route as an integrator would write them; the answers are read through their types too. */
const CALLS = `import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './openapi';

export interface Facts { baseUrl: string; secretKey: string; adminToken: string; publicKey: string; site: string; automationAddress: string; doorToken: string }

export async function callEveryRoute(facts: Facts, recorder: Middleware) {
  const client = createClient<paths>({ baseUrl: facts.baseUrl });
  client.use(recorder);
  const headers = { Authorization: \`Bearer \${facts.secretKey}\` };
  const email = 'ada@example.com';
  const publicKey = facts.publicKey;

  const described = await client.GET('/api/v1/events');
  const signup = await client.POST('/api/v1/events', { body: { type: 'signup', email, account_id: 'u-ada' }, headers });
  const identify = await client.POST('/api/v1/events', { body: { type: 'identify', email, name: 'Ada', fields: { plan: 'pro' } }, headers });
  const batch = await client.POST('/api/v1/events', { body: { events: [{ type: 'purchase', email, value: 49 }, { type: 'pageview' }] }, headers });
  const noIdentity = await client.POST('/api/v1/events', { body: { type: 'signup' }, headers });

  const sent = await client.POST('/api/v1/messages', { body: { to: email, subject: 'Welcome', body: 'Hello {{ person.name }}, welcome aboard.' }, headers });
  await client.POST('/api/v1/messages', { body: { to: email, subject: 'Your order', body: 'It is on its way.' }, headers });
  const page = await client.GET('/api/v1/messages', { params: { query: { person: email, limit: 1 } }, headers });
  const cursor = page.data?.nextCursor;
  const next = cursor ? await client.GET('/api/v1/messages', { params: { query: { person: email, limit: 1, cursor } }, headers }) : undefined;
  const thread = await client.GET('/api/v1/people/{who}/messages', { params: { path: { who: email } }, headers });
  const nobody = await client.GET('/api/v1/people/{who}/messages', { params: { path: { who: 'nobody@example.com' } }, headers });

  const web = { path: { publicKey, action: 'subscribe' as const } };
  const tag = await client.GET('/api/in/{publicKey}/track.js', { params: { path: { publicKey } }, parseAs: 'text' });
  const preflight = await client.OPTIONS('/api/in/{publicKey}/{action}', { params: web, headers: { Origin: facts.site, 'Access-Control-Request-Method': 'POST' } });
  const subscribed = await client.POST('/api/in/{publicKey}/{action}', {
    params: web,
    body: { email: 'grace@example.com', list: 'news', consent: { text: 'Yes, send me the news.' } },
    headers: { Origin: facts.site },
  });
  const exported = await client.GET('/api/v1/people/{who}/export', { params: { path: { who: email } }, headers });
  const range = { from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date(Date.now() + 3_600_000).toISOString() };
  const events = await client.GET('/api/v1/events/export', { params: { query: range }, headers, parseAs: 'text' });
  const erased = await client.DELETE('/api/v1/people/{who}', { params: { path: { who: 'grace@example.com' } }, headers });

  const started = await client.POST('/api/webhooks/automation/{address}', { params: { path: { address: facts.automationAddress } }, body: { email, properties: { plan: 'pro' } } });
  const payment = await client.POST('/api/webhooks/payment/{token}', { params: { path: { token: facts.doorToken } }, body: { type: 'charge.succeeded' } });
  const authA = await client.POST('/api/webhooks/auth_a/{token}', { params: { path: { token: facts.doorToken } }, body: { type: 'user.created' } });
  // This provider posts a signed token, not JSON: sent as it is, under its own media type.
  const jwt = { body: 'eyJhbGciOiJSUzI1NiJ9.e30.c2lnbmF0dXJl', bodySerializer: (token: string) => token, headers: { 'Content-Type': 'application/jwt' } };
  const authB = await client.POST('/api/webhooks/auth_b/{token}', { params: { path: { token: facts.doorToken } }, ...jwt });
  const hosting = await client.POST('/api/webhooks/hosting/{token}', { params: { path: { token: facts.doorToken } }, body: { type: 'deployment.succeeded' } });
  const emailDoor = await client.POST('/api/webhooks/email', { body: { type: 'email.delivered' } });

  // Segment's HTTP Tracking API: the write key as HTTP Basic's user name.
  const segment = { params: { path: { call: 'track' as const } }, headers: { Authorization: \`Basic \${btoa(\`\${facts.secretKey}:\`)}\` } };
  await client.POST('/v1/{call}', { ...segment, body: { event: 'Order Completed', userId: 'u-ada', properties: { revenue: 49 } } });
  await client.OPTIONS('/v1/{call}', { params: segment.params, headers: { Origin: facts.site, 'Access-Control-Request-Method': 'POST' } });

  const mcpHeaders = { ...headers, Accept: 'application/json, text/event-stream' };
  const tools = await client.POST('/api/mcp', { body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, headers: mcpHeaders });
  const mcpGet = await client.GET('/api/mcp', { headers });
  const mcpDelete = await client.DELETE('/api/mcp', { headers });
  const resource = await client.GET('/.well-known/oauth-protected-resource');
  const resourceOfDoor = await client.GET('/.well-known/oauth-protected-resource/api/mcp');

  const health = await client.GET('/health');
  const live = await client.GET('/health/live');
  const ready = await client.GET('/health/ready');
  const metrics = await client.GET('/metrics', { parseAs: 'text', headers: { Authorization: \`Bearer \${facts.adminToken}\` } });

  // Read through the generated types: each of these compiles only if the document describes the field.
  const signedUp: string | undefined = signup.data && 'status' in signup.data ? signup.data.status : undefined;
  const batchError: string | undefined = batch.data && 'error' in batch.data ? batch.data.error : undefined;
  const refusal: string | undefined = noIdentity.error?.error;
  const messageId: string | undefined = sent.data?.id;
  const subjects: string[] = [...(page.data?.messages ?? []), ...(next?.data?.messages ?? [])].map((message) => message.subject);
  const threadOf: string | undefined = thread.data?.person;
  const threadTexts: string[] = (thread.data?.messages ?? []).map((message) => message.text);
  const startStatus: 'started' | 'paused' | 'suppressed' | undefined = started.data?.status;
  const subscribeStatus: string | undefined = subscribed.data?.status;
  const exportedMessages: number | undefined = exported.data?.messages.length;
  const erasedKeys: number | undefined = erased.data?.suppressedKeys;
  const lines = (events.data ?? '').split('\\n').filter((line) => line !== '');
  const exportedTypes = [...new Set(lines.map((line) => (JSON.parse(line) as { type: string }).type))].sort();
  return { exportedMessages, exportedTypes, erasedKeys, signedUp, batchError, refusal, messageId, subjects, threadOf, threadTexts, startStatus, subscribeStatus, nobody: nobody.error?.error, tag: tag.data };
}
`;

/** Calls the document must refuse: each is a file of its own, and gets one diagnostic, on the call. */
const WRONG: Record<string, string> = {
  'wrong-body-type.ts': `await client.POST('/api/v1/events', { body: { type: 42, email: 'ada@example.com' } });`,
  'missing-body-field.ts': `await client.POST('/api/v1/messages', { body: { subject: 'Welcome', body: 'Hello there, Ada.' } });`,
  'no-such-path.ts': `await client.GET('/api/v1/people');`,
  'no-such-method.ts': `await client.DELETE('/api/v1/messages');`,
  'missing-path-parameter.ts': `await client.GET('/api/v1/people/{who}/messages', {});`,
  'no-such-query-parameter.ts': `await client.GET('/api/v1/messages', { params: { query: { page: '2' } } });`,
  'no-such-answer-field.ts': `return (await client.GET('/api/v1/messages')).data?.items;`,
};

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
  module: ts.ModuleKind.Node16,
  moduleResolution: ts.ModuleResolutionKind.Node16,
  types: [],
  skipLibCheck: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
};

/**
 * openapi.json to openapi.ts with openapi-typescript's own API, in a node of its own: the package loads
 * ES-module-only dependencies, which node requires and jest's module loader cannot.
 */
function generateTypes(dir: string): void {
  const script = `import openapiTS, { astToString } from 'openapi-typescript';
import { readFileSync, writeFileSync } from 'node:fs';
const doc = JSON.parse(readFileSync(process.argv[1] + '/openapi.json', 'utf8'));
writeFileSync(process.argv[1] + '/openapi.ts', astToString(await openapiTS(doc, { silent: true })));`;
  execFileSync(process.execPath, ['--input-type=module', '-e', script, dir], {
    cwd: resolve(__dirname, '..'),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

/** Each file's diagnostics, as readable lines. */
function compile(files: string[]): Record<string, string[]> {
  const program = ts.createProgram(files, OPTIONS);
  const found: Record<string, string[]> = Object.fromEntries(files.map((file) => [file, []]));
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const file = diagnostic.file?.fileName ?? 'program';
    const line =
      diagnostic.file && diagnostic.start !== undefined
        ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1
        : 0;
    (found[file] ??= []).push(
      `line ${line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n').split('\n')[0]}`,
    );
  }
  return found;
}

beforeAll(async () => {
  doc = (await t.request('GET', '/api/openapi.json')).body;
  mkdirSync(FOLDERS, { recursive: true });
  folder = mkdtempSync(join(FOLDERS, 'run-'));
  writeFileSync(join(folder, 'openapi.json'), JSON.stringify(doc));
  generateTypes(folder);
  writeFileSync(join(folder, 'calls.ts'), CALLS);
  for (const [name, call] of Object.entries(WRONG)) {
    const source = `import createClient from 'openapi-fetch';\nimport type { paths } from './openapi';\n\nexport async function wrong() {\n  const client = createClient<paths>({ baseUrl: 'http://127.0.0.1' });\n  ${call}\n}\n`;
    writeFileSync(join(folder, name), source);
  }
  // The calls run as CommonJS here (jest), so the folder says so to the compiler too.
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ type: 'commonjs' }));
  // One program for the right calls and the wrong ones: the generated types are checked once.
  found = compile(['calls.ts', ...Object.keys(WRONG)].map((name) => join(folder, name)));
}, 30_000);

afterAll(() => folder && rmSync(folder, { recursive: true, force: true }));

it('the generated client compiles against calls of every route, with no diagnostic', () => {
  expect(found[join(folder, 'calls.ts')]).toEqual([]);
});

it('has teeth: a wrong body type, a missing field, an unknown path, method or parameter, a missing parameter or an unknown answer field each fail', () => {
  for (const name of Object.keys(WRONG)) {
    const refused = found[join(folder, name)];
    expect({ name, refused: refused.length }).toEqual({ name, refused: 1 });
    expect(refused[0]).toMatch(/^line 6: .*(is not assignable|does not exist|Expected \d arguments)/);
  }
});

/** "METHOD /path" of every operation in the document. */
const routesOf = (paths: typeof doc.paths) =>
  Object.entries(paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`));

/** Whether the document lists this status for the route: exactly, by its range (4XX), or as default. */
function documents(route: string, status: number): boolean {
  const [method, path] = route.split(' ');
  const responses = doc.paths[path]?.[method.toLowerCase()]?.responses ?? {};
  return [String(status), `${Math.floor(status / 100)}XX`, 'default'].some((key) => key in responses);
}

async function facts() {
  const { ws, automation: address } = await documentFacts(t, SITE);
  return {
    baseUrl: t.url,
    secretKey: ws.secretKey,
    adminToken: ADMIN_TOKEN,
    publicKey: ws.publicKey,
    site: SITE,
    automationAddress: address,
    doorToken: 'x'.repeat(32),
  };
}

it('the same calls run against the app: every route is called and answers a status the document lists', async () => {
  const answered: Array<{ route: string; status: number }> = [];
  const recorder = {
    onResponse: ({ request, schemaPath, response }: { request: Request; schemaPath: string; response: Response }) =>
      void answered.push({ route: `${request.method} ${schemaPath}`, status: response.status }),
  };
  const { callEveryRoute } = require(join(folder, 'calls.ts'));
  const read = await callEveryRoute(await facts(), recorder);

  expect([...new Set(answered.map((a) => a.route))].sort()).toEqual(routesOf(doc.paths).sort());
  expect(answered.filter(({ route, status }) => !documents(route, status))).toEqual([]);
  expect(read).toEqual({
    exportedMessages: 2,
    exportedTypes: expect.arrayContaining(['email_sent', 'purchase', 'signup']),
    erasedKeys: 1,
    signedUp: 'recorded',
    batchError: 'partial_failure',
    refusal: 'no_identity',
    messageId: expect.stringMatching(/^msg_/),
    subjects: ['Your order', 'Welcome'],
    threadOf: expect.stringMatching(/^per_/),
    threadTexts: ['Hello Ada, welcome aboard.', 'It is on its way.'],
    startStatus: 'paused',
    subscribeStatus: 'subscribed',
    nobody: 'no_such_person',
    tag: expect.stringContaining('function'),
  });
}, 30_000);
