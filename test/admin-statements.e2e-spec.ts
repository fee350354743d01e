// DataLoader for every field that loads per parent: the statements one GraphQL
// request sends for a page of people with timelines, identities, subscriptions and messages do not
// grow with the page size.
import { Client } from 'pg';
import { useApp, useWorkspace } from './harness';

const t = useApp();
const ws = useWorkspace(t, {}, 'all');
const PEOPLE = 60;

beforeAll(async () => {
  await t.gql('mutation { createList(input: {address: "news", name: "News"}) { id } }', {}, ws.secretKey);
  const items = Array.from({ length: PEOPLE }, (_, i) => [
    { type: 'signup', email: `p${i}@example.com`, anon_id: `anon-${i}` },
    { type: 'pageview', email: `p${i}@example.com` },
    { type: 'subscribe', email: `p${i}@example.com`, list: 'news', consent: 'Yes, send me news.' },
  ]).flat();
  for (let i = 0; i < items.length; i += 100) {
    const answer = await t.request('POST', '/api/v1/events', {
      key: ws.secretKey,
      body: { events: items.slice(i, i + 100) },
    });
    expect(answer.status).toBe(200);
  }
  await t.request('POST', '/api/v1/messages', {
    key: ws.secretKey,
    body: { to: 'p0@example.com', subject: 'Hello there', body: 'Hi' },
  });
});

const QUERY = `query($first: Int) { people(first: $first) { edges { node { id email
  identities { kind value }
  subscriptions { consentText list { address subscriberCount } }
  timeline(first: 5) { edges { node { type } } }
  messages(first: 5) { subject } } } } }`;

// Work the api does in the background (the outbox relay, heartbeat flushes, a key's last use) is not the request's,
// nor is the read timeout's own SET, sent ahead of a connection's first read without waiting for it.
const BACKGROUND = /outbox|heartbeat|deliveries|last_used_at = now\(\)|^SET statement_timeout/i;

/** Every statement sent to PostgreSQL while the request runs, through pg's own Client. */
async function statementsOf(first: number): Promise<string[]> {
  const seen: string[] = [];
  const original = Client.prototype.query;
  const spy = jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args: any[]) {
    const text = typeof args[0] === 'string' ? args[0] : (args[0]?.text ?? '');
    if (!BACKGROUND.test(text)) seen.push(text.replace(/\s+/g, ' ').slice(0, 120));
    return (original as any).apply(this, args);
  });
  try {
    const answer = await t.gql(QUERY, { first }, ws.secretKey);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.people.edges).toHaveLength(first);
    return seen;
  } finally {
    spy.mockRestore();
  }
}

describe('a page of people with their per-person fields', () => {
  it('sends the same few statements for 5 people as for 50', async () => {
    await statementsOf(1); // a first request writes the key's last use
    const five = await statementsOf(5);
    const fifty = await statementsOf(50);
    expect(fifty).toHaveLength(five.length);
    // The key, the page, identities, subscriptions, subscriber counts, timelines, messages.
    expect(fifty.length).toBeLessThanOrEqual(7);
  });
});
