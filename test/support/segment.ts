// What the Segment tests and bench share: one set of facts about many users, sent through
// Segment's real server library or posted natively as the same events-endpoint items; a post to a
// Segment path as a Segment client sends it; and a proxy that drops a connection after the api answered.
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Analytics } from '@segment/analytics-node';

/** One fact about one user, at its own time (a second apart, so each person's timeline has one order). */
export type SegmentFact =
  | { call: 'identify'; userId: string; at: Date; traits: { email: string; name: string; plan: string } }
  | { call: 'page'; userId: string; at: Date; name: string; path: string }
  | { call: 'track'; userId: string; at: Date; event: string; properties?: Record<string, unknown> };

/** About 5.7 facts per user: an identify, a page, a signup, and purchases, a custom event and cancellations for some. */
export function segmentFacts(users: number, start = new Date(Date.now() - users * 20_000 - 3_600_000)): SegmentFact[] {
  const facts: SegmentFact[] = [];
  for (let u = 0; u < users; u++) {
    const userId = `u-${u}`;
    let second = 0;
    const at = () => new Date(start.getTime() + u * 20_000 + 1_000 * second++);
    facts.push({
      call: 'identify',
      userId,
      at: at(),
      traits: { email: `user${u}@example.com`, name: `User ${u}`, plan: u % 2 ? 'pro' : 'free' },
    });
    facts.push({ call: 'page', userId, at: at(), name: 'Pricing', path: '/pricing' });
    facts.push({ call: 'track', userId, at: at(), event: 'Signed Up' });
    if (u % 2 === 1)
      facts.push({
        call: 'track',
        userId,
        at: at(),
        event: 'Order Completed',
        properties: { revenue: 10 + (u % 7), order_id: `o-${u}` },
      });
    if (u % 4 === 1)
      facts.push({
        call: 'track',
        userId,
        at: at(),
        event: 'Order Completed',
        properties: { revenue: 5, order_id: `o-${u}-2` },
      });
    if (u % 3 === 0)
      facts.push({ call: 'track', userId, at: at(), event: 'Report Built', properties: { pages: u % 10 } });
    if (u % 4 === 1) facts.push({ call: 'track', userId, at: at(), event: 'Subscription Cancelled' });
  }
  return facts;
}

/** A fact through Segment's server library (which batches and flushes on its own); settles once the library delivered it. */
export function sendFact(analytics: Analytics, fact: SegmentFact): Promise<void> {
  const { userId, at: timestamp } = fact;
  return new Promise((resolve, reject) => {
    const done = (error?: unknown) => (error ? reject(error) : resolve());
    if (fact.call === 'identify') analytics.identify({ userId, traits: fact.traits, timestamp }, done);
    else if (fact.call === 'page')
      analytics.page({ userId, name: fact.name, properties: { path: fact.path }, timestamp }, done);
    else analytics.track({ userId, event: fact.event, properties: fact.properties, timestamp }, done);
  });
}

/**
 * Every fact through the library, each user's in their order: stages are decided as events arrive
 * (never recomputed), and the library sends its batches side by side, so a user's next fact waits for
 * the last one to be delivered while other users' facts share the batches.
 */
export async function sendFactsInOrder(analytics: Analytics, facts: SegmentFact[]): Promise<void> {
  const byUser = new Map<string, SegmentFact[]>();
  for (const fact of facts) byUser.set(fact.userId, [...(byUser.get(fact.userId) ?? []), fact]);
  await Promise.all(
    [...byUser.values()].map(async (own) => {
      for (const fact of own) await sendFact(analytics, fact);
    }),
  );
}

const NATIVE_EVENTS: Record<string, string> = {
  'Signed Up': 'signup',
  'Order Completed': 'purchase',
  'Report Built': 'report_built',
  'Subscription Cancelled': 'subscription_cancelled',
};

/** The same fact as an item of POST /api/v1/events, written by hand. */
export function nativeItem(fact: SegmentFact, messageId?: string): Record<string, unknown> {
  const person = {
    account_id: fact.userId,
    occurred_at: fact.at.toISOString(),
    ...(messageId ? { idempotency_key: messageId } : {}),
  };
  if (fact.call === 'identify') {
    const { email, name, plan } = fact.traits;
    return { type: 'identify', account_id: fact.userId, email, name, fields: { plan } };
  }
  if (fact.call === 'page')
    return {
      type: 'pageview',
      ...person,
      detail: fact.name,
      properties: { path: fact.path },
      source: { path: fact.path },
    };
  const revenue = fact.properties?.revenue;
  return {
    type: NATIVE_EVENTS[fact.event],
    ...person,
    properties: fact.properties,
    ...(typeof revenue === 'number' ? { value: revenue } : {}),
  };
}

/** The same fact as one message of a Segment batch, as a Segment library writes it. */
export function segmentMessage(fact: SegmentFact, messageId: string): Record<string, unknown> {
  const base = {
    userId: fact.userId,
    timestamp: fact.at.toISOString(),
    messageId,
    context: { library: { name: 'lifeline-bench', version: '1' } },
  };
  if (fact.call === 'identify') return { type: 'identify', ...base, traits: fact.traits };
  if (fact.call === 'page') return { type: 'page', ...base, name: fact.name, properties: { path: fact.path } };
  return { type: 'track', ...base, event: fact.event, properties: fact.properties };
}

/** HTTP Basic with the write key as the user name and an empty password, as Segment's clients send it. */
export const basicAuth = (writeKey: string) => `Basic ${Buffer.from(`${writeKey}:`).toString('base64')}`;

/** A post to a Segment path: the body as JSON, the key as Basic auth unless headers say otherwise. */
export async function postSegment(
  baseUrl: string,
  path: string,
  body: unknown,
  options: { key?: string; headers?: Record<string, string>; raw?: string } = {},
) {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(options.key ? { authorization: basicAuth(options.key) } : {}),
      ...options.headers,
    },
    body: options.raw ?? JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

/**
 * A proxy in front of the api that passes every post on and, for the posts `drop` picks, waits for the
 * api's answer and then cuts the client's connection instead of answering: the call was stored, and
 * the client saw a dropped connection.
 */
export async function droppingProxy(target: string, drop: (n: number) => boolean) {
  let posts = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => void relay());
    const relay = async () => {
      const n = ++posts;
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)),
      ) as Record<string, string>;
      const answer = await fetch(target + req.url, { method: req.method, headers, body: Buffer.concat(chunks) });
      const text = await answer.text();
      if (drop(n)) return req.socket.destroy();
      res
        .writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' })
        .end(text);
    };
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get posts() {
      return posts;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
