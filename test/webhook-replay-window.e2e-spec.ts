// Replaying a window (docs/webhooks.md#replaying-a-window): any window inside the outbox's retention
// (OUTBOX_RETENTION_DAYS, 30 days by default) to any address, one added after the events too; its progress as a
// WebhookReplay; a window past the retention refused with a sentence naming it; live deliveries go while a replay
// holds its whole lane. Happenings written days ago are made by posting events and moving their outbox rows back in
// time, as a database that has kept them that long holds them.
import type { ServerResponse } from 'node:http';
import { eventually, useApp, useWorkspace } from './harness';
import { receiver } from './support/receiver';

const DAY_MS = 24 * 3600_000;
const REPLAY_IN_FLIGHT = 32; // libs/webhooks/src/replay-runner.service.ts

const t = useApp({ worker: true, env: { RETRY_UNIT_MS: '1', WEBHOOK_DISABLE_AFTER_DAYS: '365' } });
const ws = useWorkspace(t);

async function gql(query: string, variables: Record<string, unknown> = {}) {
  const answer = await t.gql(query, variables, ws.secretKey);
  if (answer.errors) throw new Error(JSON.stringify(answer.errors));
  return answer.data;
}
const address = async (url: string, triggers = ['event']) =>
  (
    await gql(
      'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }',
      { input: { url, triggers } },
    )
  ).createWebhookEndpoint.endpoint.id as string;
const replay = (id: string, since: Date, until: Date) =>
  t.gql(
    'mutation($id: ID!, $s: DateTime!, $u: DateTime!) { replayEvents(endpointId: $id, since: $s, until: $u) }',
    { id, s: since.toISOString(), u: until.toISOString() },
    ws.secretKey,
  );
type Replay = { state: string; total: number; done: number; finishedAt: string | null };
async function replaysOf(id: string): Promise<Replay[]> {
  const { webhookEndpoints } = await gql(
    '{ webhookEndpoints { id replays { id state total done since until finishedAt } } }',
  );
  return webhookEndpoints.find((e: { id: string }) => e.id === id).replays;
}

/** Posts `count` signups in one batch, waits until the relay has passed them, and moves them `daysAgo` back. */
async function eventsOf(daysAgo: number, count: number, tag: string): Promise<void> {
  const events = Array.from({ length: count }, (_, i) => ({ type: 'signup', email: `${tag}${i}@example.com` }));
  expect((await t.request('POST', '/api/v1/events', { key: ws.secretKey, body: { events } })).status).toBe(200);
  const relayed = `SELECT count(*)::int AS n FROM outbox o WHERE o.workspace_id = $1 AND o.created_at > now() - interval '1 hour'
                      AND (o.xid, o.id) <= (SELECT xid, id FROM outbox_relay WHERE name = 'main')`;
  await eventually(async () => (await t.db.query(relayed, [ws.workspace.id]))[0].n > 0);
  await t.db.query(
    `UPDATE outbox SET created_at = created_at - $2::int * interval '1 day'
      WHERE workspace_id = $1 AND created_at > now() - interval '1 hour'`,
    [ws.workspace.id, daysAgo],
  );
}

describe('replaying a window', () => {
  it('a window older than 7 days reaches an address added after its events, once per event, and its progress reaches done', async () => {
    await eventsOf(20, 5, 'before');
    await eventsOf(10, 40, 'window');
    const r = await receiver();
    const id = await address(r.url);
    await t.request('POST', '/api/v1/events', {
      key: ws.secretKey,
      body: { type: 'signup', email: 'now@example.com' },
    });
    await eventually(async () => r.received.length === 1);

    const answer = await replay(id, new Date(Date.now() - 11 * DAY_MS), new Date(Date.now() - 9 * DAY_MS));
    expect(answer.errors).toBeUndefined();
    expect(answer.data.replayEvents).toBe(40);
    const [done] = await eventually(async () => {
      const replays = await replaysOf(id);
      return replays[0]?.state === 'done' && replays;
    }, 30_000);
    expect(done).toMatchObject({ state: 'done', total: 40, done: 40 });
    expect(done.finishedAt).toBeTruthy();

    const replayed = r.received.slice(1);
    expect(replayed).toHaveLength(40);
    expect(new Set(replayed.map((x) => x.body.data.id)).size).toBe(40);
    expect(new Set(replayed.map((x) => x.body.id)).size).toBe(40);
    expect(replayed.every((x) => x.body.type === 'event')).toBe(true);
    expect(replayed.map((x) => x.body.record.email).sort()).toEqual(
      Array.from({ length: 40 }, (_, i) => `window${i}@example.com`).sort(),
    );
    await r.close();
  }, 60_000);

  it('a window reaching past the retention is refused with a sentence naming it, and so is one that ends before it begins', async () => {
    const id = await address('http://127.0.0.1:9/never');
    const tooOld = await replay(id, new Date(Date.now() - 31 * DAY_MS), new Date(Date.now() - 9 * DAY_MS));
    expect(tooOld.errors![0].extensions.code).toBe('invalid_field');
    expect(tooOld.errors![0].message).toMatch(/kept 30 days \(OUTBOX_RETENTION_DAYS\): choose a since after/);
    const backwards = await replay(id, new Date(Date.now() - 9 * DAY_MS), new Date(Date.now() - 11 * DAY_MS));
    expect(backwards.errors![0].extensions.code).toBe('invalid_field');
    expect(await replaysOf(id)).toEqual([]);
  });

  it('a live delivery goes while the replay holds every post of its lane, and the replay then finishes', async () => {
    await eventsOf(10, 100, 'held');
    const held: ServerResponse[] = [];
    let holding = true;
    const r = await receiver((_, req, res) => {
      if (req.url === '/replayed' && holding) held.push(res);
      else return 200;
    });
    const replayedTo = await address(`${r.url}/replayed`, ['stage_entered']);
    await address(`${r.url}/live`);
    const answer = await replay(replayedTo, new Date(Date.now() - 11 * DAY_MS), new Date(Date.now() - 9 * DAY_MS));
    expect(answer.data.replayEvents).toBe(100);
    await eventually(async () => held.length >= REPLAY_IN_FLIGHT);

    await t.request('POST', '/api/v1/events', {
      key: ws.secretKey,
      body: { type: 'pageview', email: 'live@example.com' },
    });
    const live = await eventually(async () => r.received.find((x) => x.path === '/live'));
    expect(live.body.record.email).toBe('live@example.com');
    const [running] = await replaysOf(replayedTo);
    expect(running.state).toBe('running');
    expect(running.done).toBeLessThan(100);
    expect(r.received.filter((x) => x.path === '/replayed' && x.body.record.email.startsWith('held'))).toHaveLength(
      REPLAY_IN_FLIGHT,
    );

    holding = false;
    for (const res of held) res.writeHead(200).end('ok');
    await eventually(async () => (await replaysOf(replayedTo))[0].state === 'done', 30_000);
    const replayed = r.received.filter((x) => x.path === '/replayed' && x.body.record.email.startsWith('held'));
    expect(replayed).toHaveLength(100);
    expect(new Set(replayed.map((x) => x.body.record.email)).size).toBe(100);
    expect(replayed.every((x) => x.body.type === 'stage_entered')).toBe(true);
    await r.close();
  }, 60_000);
});
