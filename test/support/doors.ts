// Helpers of the third-party door e2e specs: connecting a door over GraphQL, posting signed bodies
// to its address, a receiver on 127.0.0.1 for the outgoing webhooks that follow, and a count of
// every row a post could write (to prove a refused post changed nothing).
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import type { CreatedWorkspace } from '@app/workspaces';
import { Answer, eventually, TestApp } from '../harness';

export interface Received {
  headers: IncomingMessage['headers'];
  body: any;
}

/** An outgoing-webhook receiver that answers 200 to everything. */
export async function receiver() {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(raw || 'null') });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export const CONNECT = `mutation($input: ConnectDoorInput!) { connectDoor(input: $input) { door { id kind createdAt } address } }`;
export const DOORS = `{ doors { id kind createdAt domain stars receipts { at eventId type answer httpStatus } } }`;

export async function connectDoor(t: TestApp, ws: CreatedWorkspace, input: Record<string, unknown>) {
  const answer = await t.gql(CONNECT, { input }, ws.secretKey);
  if (answer.errors) throw new Error(JSON.stringify(answer.errors));
  const { door, address } = answer.data.connectDoor as { door: { id: string; kind: string }; address: string };
  return { id: door.id, kind: door.kind, address, path: new URL(address).pathname };
}

/** A workspace whose outgoing webhook hears events and stage changes. */
export async function workspaceWithReceiver(t: TestApp) {
  const ws = await t.workspace();
  const r = await receiver();
  const created = await t.gql(
    `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }`,
    { input: { url: r.url, triggers: ['event', 'stage_entered'] } },
    ws.secretKey,
  );
  if (created.errors) throw new Error(JSON.stringify(created.errors));
  return { ws, r };
}

export function postRaw(
  t: TestApp,
  path: string,
  raw: string | Buffer,
  headers: Record<string, string>,
): Promise<Answer> {
  return t.request('POST', path, { raw: raw as string, headers: { 'content-type': 'application/json', ...headers } });
}

export async function person(t: TestApp, ws: CreatedWorkspace, email: string) {
  const answer = await t.gql(
    `query($email: String) { person(email: $email) { id name email stage engaged purchases identities { kind value } timeline(first: 50) { edges { node { type value properties occurredAt } } } } }`,
    { email },
    ws.secretKey,
  );
  return flatTimeline(answer.data.person);
}

/** Rows a door post could write in this workspace (and the door's receipts). */
export async function footprint(t: TestApp, ws: CreatedWorkspace, doorId?: string) {
  const [row] = await t.db.query(
    `SELECT (SELECT count(*) FROM people WHERE workspace_id = $1)::int AS people,
            (SELECT count(*) FROM identities WHERE workspace_id = $1)::int AS identities,
            (SELECT count(*) FROM events WHERE workspace_id = $1)::int AS events,
            (SELECT count(*) FROM outbox WHERE workspace_id = $1)::int AS outbox,
            (SELECT count(*) FROM door_receipts WHERE door = $2)::int AS receipts`,
    [ws.workspace.id, doorId ?? ''],
  );
  return row as { people: number; identities: number; events: number; outbox: number; receipts: number };
}

/** The outgoing webhooks for this person's event of this type (and the stage it entered), once they arrive. */
export async function webhooksFor(received: Received[], event: string, stage?: string) {
  return eventually(async () => {
    const ev = received.find((x) => x.body.type === 'event' && x.body.data.event === event);
    const st = stage ? received.find((x) => x.body.type === 'stage_entered' && x.body.data.stage === stage) : true;
    return ev && st ? { event: ev.body, stage: st === true ? null : st.body } : null;
  });
}

/** A body of more than 256 KB that is still one JSON object. */
export const oversized = (base: Record<string, unknown>) =>
  JSON.stringify({ ...base, padding: 'x'.repeat(257 * 1024) });

/** The same bytes with one character changed (inside a JSON string, so the body still parses). */
export function alterOneByte(raw: string, marker: string): string {
  const at = raw.indexOf(marker);
  if (at < 0) throw new Error(`marker ${marker} not in body`);
  const c = raw[at + marker.length];
  return raw.slice(0, at + marker.length) + (c === 'a' ? 'b' : 'a') + raw.slice(at + marker.length + 1);
}

/** The person's timeline event types, newest first, without the service's own stage_changed rows. */
export const eventTypes = (p: { timeline: Array<{ type: string }> }) =>
  p.timeline.map((e) => e.type).filter((type) => type !== 'stage_changed');

/** A person read over GraphQL with its timeline connection's nodes as a plain list, newest first. */
export function flatTimeline<T extends { timeline: { edges: Array<{ node: unknown }> } }>(p: T) {
  return { ...p, timeline: p.timeline.edges.map((e) => e.node) as any[] };
}
