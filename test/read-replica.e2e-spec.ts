// docs/decisions.md#read-replica: with DATABASE_READ_URL naming a streaming
// replica, charts, GraphQL queries, the messages pages and the tool door's read tools are served by it;
// ingest, mutations and key checks stay on the primary. Which server answered shows by pausing the
// replica's replay: it keeps answering what it last replayed while the primary has more.
import { Client as ToolClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { INestApplication } from '@nestjs/common';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { AppConfig, ConfigError, freePort, migrate, readDatabase, REPLICA_OUTAGE } from '@app/platform';
import { MIGRATIONS } from '@app/schema';
import { CreatedWorkspace, WorkspacesService } from '@app/workspaces';
import { createApi } from '../apps/api/src/bootstrap';
import { eventually, testConfig } from './harness';
import { PrivatePostgres, startPrivatePostgres } from './support/private-postgres';
import { Replica, startReplica } from './support/replica';

let primary: PrivatePostgres;
let replica: Replica;
let config: AppConfig;
let api: INestApplication;
let ws: CreatedWorkspace;
let onPrimary: Client;
const logged: string[] = [];

beforeAll(async () => {
  primary = await startPrivatePostgres();
  replica = await startReplica(primary);
  ({ config } = await testConfig({
    DATABASE_URL: primary.url('lifeline'),
    DATABASE_READ_URL: replica.url('lifeline'),
  }));
  await migrate(config, MIGRATIONS);
  await replica.caughtUp();
  api = await createApi(config);
  await api.listen(config.port, '127.0.0.1');
  ws = await api.get(WorkspacesService).create({ slug: 'replica', owner: 'owner@example.com' });
  onPrimary = new Client({ connectionString: config.databaseUrl });
  await onPrimary.connect();
  REPLICA_OUTAGE.log = (line) => logged.push(line);
}, 60_000);

afterAll(async () => {
  await replica?.resumeReplay().catch(() => undefined);
  await onPrimary?.end();
  await api?.close();
  await replica?.remove();
  await primary?.remove();
});

async function request(
  method: string,
  path: string,
  body?: unknown,
  key = ws.secretKey,
): Promise<{ status: number; body: any }> {
  const answer = await fetch(config.baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: answer.status, body: await answer.json() };
}

async function gql(query: string, variables: Record<string, unknown> = {}, key = ws.secretKey): Promise<any> {
  return (await request('POST', '/graphql', { query, variables }, key)).body;
}

const post = async (body: Record<string, unknown>) =>
  expect((await request('POST', '/api/v1/events', body)).body).toMatchObject({ ok: true });
const today = new Date().toISOString().slice(0, 10);
const DAY = {
  event: 'purchase',
  measure: 'sum_value',
  interval: 'day',
  from: `${today}T00:00:00Z`,
  to: `${today}T23:59:59Z`,
};

async function chartSum(): Promise<number> {
  const answer = await gql(`query($input: ChartInput!) { chart(input: $input) { series { points { value } } } }`, {
    input: DAY,
  });
  if (answer.errors) throw new Error(JSON.stringify(answer.errors));
  return answer.data.chart.series[0].points[0].value;
}

async function toolChartSum(): Promise<number> {
  const client = new ToolClient({ name: 'lifeline-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${config.baseUrl}/api/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${ws.secretKey}` } },
    }),
  );
  try {
    const answer = (await client.callTool({ name: 'chart_events', arguments: DAY })) as { structuredContent: any };
    return answer.structuredContent.series[0].points[0].value;
  } finally {
    await client.close();
  }
}

async function primarySum(): Promise<number> {
  const { rows } = await onPrimary.query(
    `SELECT coalesce(sum(value), 0)::float AS sum FROM events WHERE workspace_id = $1 AND type = 'purchase'`,
    [ws.workspace.id],
  );
  return rows[0].sum;
}

const peopleCount = async () => (await gql('{ people { totalCount } }')).data.people.totalCount;
const personByEmail = async (email: string) => (await gql(`{ person(email: "${email}") { email } }`)).data.person;

it('charts, GraphQL queries and read tools are served by the replica: paused, it answers what it last replayed while the primary has more', async () => {
  await post({ type: 'purchase', email: 'a@example.com', value: 10 });
  await post({ type: 'purchase', email: 'a@example.com', value: 5 });
  await replica.pauseReplay();

  await post({ type: 'purchase', email: 'b@example.com', value: 7 });
  expect(await primarySum()).toBe(22);
  expect(await chartSum()).toBe(15);
  expect(await toolChartSum()).toBe(15);
  expect(await peopleCount()).toBe(1);
  expect(await personByEmail('b@example.com')).toBeNull();

  await replica.resumeReplay();
  await replica.caughtUp();
  expect(await chartSum()).toBe(22);
  expect(await toolChartSum()).toBe(22);
  expect(await peopleCount()).toBe(2);
  expect(await personByEmail('b@example.com')).toEqual({ email: 'b@example.com' });
});

it('a mutation and an export read the primary: they find the person posted a moment ago, the mutation answers the message it stored; the pages catch up', async () => {
  await replica.pauseReplay();
  await post({ type: 'signup', email: 'c@example.com' });
  expect(await personByEmail('c@example.com')).toBeNull();
  // an export answers everything held, so even as a query it reads the primary
  expect((await gql('{ personExport(person: "c@example.com") }')).data.personExport.person).toMatchObject({
    email: 'c@example.com',
  });

  const sent = await gql(
    `mutation($input: SendMessageInput!) { sendMessage(input: $input) { id subject person { email } } }`,
    {
      input: { person: 'c@example.com', subject: 'Welcome', body: 'Hello there.' },
    },
  );
  expect(sent.errors).toBeUndefined();
  expect(sent.data.sendMessage).toMatchObject({ subject: 'Welcome', person: { email: 'c@example.com' } });
  const id = sent.data.sendMessage.id;
  expect((await onPrimary.query('SELECT id FROM messages WHERE workspace_id = $1', [ws.workspace.id])).rows).toEqual([
    { id },
  ]);

  // the messages pages are the replica's: not there yet
  expect((await request('GET', '/api/v1/messages')).body).toEqual({ ok: true, messages: [] });
  expect((await gql('{ messages { messages { id } } }')).data.messages.messages).toEqual([]);

  await replica.resumeReplay();
  await replica.caughtUp();
  expect((await request('GET', '/api/v1/messages')).body.messages.map((m: { id: string }) => m.id)).toEqual([id]);
  expect(
    (await request('GET', '/api/v1/people/c@example.com/messages')).body.messages.map((m: { id: string }) => m.id),
  ).toEqual([id]);
});

it('keys are checked on the primary: a key made while the replica lags works at once, and once revoked is refused at once', async () => {
  await replica.pauseReplay();
  const made = await gql(`mutation { createKey(member: "helper@example.com") { keyId secretKey } }`);
  expect(made.errors).toBeUndefined();
  const { keyId, secretKey } = made.data.createKey;
  expect((await request('GET', '/api/v1/messages', undefined, secretKey)).status).toBe(200);
  expect((await gql('{ people { totalCount } }', {}, secretKey)).data.people.totalCount).toBe(3);

  expect((await gql(`mutation { revokeKey(id: "${keyId}") }`)).data.revokeKey).toBe(true);
  expect(await request('GET', '/api/v1/messages', undefined, secretKey)).toMatchObject({
    status: 401,
    body: { ok: false, error: 'invalid_key' },
  });
  expect((await gql('{ people { totalCount } }', {}, secretKey)).errors[0].extensions.code).toBe('invalid_key');
  await replica.resumeReplay();
});

it('while the replica cannot be reached its reads go to the primary, and back to it once it answers', async () => {
  await replica.pauseReplay();
  await post({ type: 'purchase', email: 'a@example.com', value: 100 });
  expect(await chartSum()).toBe(22);
  await replica.stop();
  // the first reads to meet the stopped replica may be refused 503 while it is found out; then the primary answers
  expect(await eventually(async () => (await chartSum().catch(() => null)) === 122, 15_000, 200)).toBe(true);

  await replica.start();
  await eventually(async () => logged.length === 2);
  expect(logged).toEqual([
    expect.stringMatching(
      /^PostgreSQL read replica cannot be reached \(.+\): the primary serves its reads until it is back\.$/,
    ),
    expect.stringMatching(/^PostgreSQL read replica answers again after [\d.]+ s; /),
  ]);
  await replica.pauseReplay();
  await post({ type: 'purchase', email: 'a@example.com', value: 1 });
  expect(await primarySum()).toBe(123);
  expect(await eventually(async () => (await chartSum().catch(() => null)) === 122, 15_000, 200)).toBe(true);
  await replica.resumeReplay();
});

it('a replica that cannot be reached at start stops the start with a sentence naming DATABASE_READ_URL', async () => {
  const closed = `postgres://postgres@127.0.0.1:${await freePort()}/lifeline`;
  const refused = readDatabase({ ...config, databaseReadUrl: closed }, api.get(DataSource));
  await expect(refused).rejects.toBeInstanceOf(ConfigError);
  await expect(refused).rejects.toThrow(
    /^The PostgreSQL read replica at 127\.0\.0\.1:\d+ cannot be reached \(nothing accepts connections there\): start it, or unset DATABASE_READ_URL/,
  );
});
