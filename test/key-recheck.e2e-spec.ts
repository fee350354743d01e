// POST /api/v1/events does not look up a key this process has seen live; the statement that
// writes the post checks it instead (keyRecheckCte), so a revoked key or a removed member is still
// refused on the very next request, with nothing written and nothing counted in the heartbeat.
import { HeartbeatService } from '@app/events';
import { WorkspacesRepository } from '@app/workspaces';
import { memberKey, useApp, useWorkspace } from './harness';

const t = useApp({ worker: false });
const ws = useWorkspace(t);

const post = (key: string, body: unknown, path = '/api/v1/events') => t.request('POST', path, { key, body });
const events = async () =>
  Number((await t.db.query(`SELECT count(*) AS n FROM events WHERE workspace_id = $1`, [ws.workspace.id]))[0].n);
// Counts gather in memory and are written every 2 s: flushed first, so a count of an earlier post cannot land between two reads.
const heartbeat = async () => {
  await t.app.get(HeartbeatService).flush();
  return (await t.db.query(
    `SELECT answer, sum(count)::int AS n FROM heartbeat WHERE workspace_id = $1 GROUP BY answer ORDER BY answer`,
    [ws.workspace.id],
  )) as Array<{ answer: string; n: number }>;
};
const revoke = (keyId: string) => t.gql(`mutation { revokeKey(id: "${keyId}") }`, {}, ws.secretKey);

/** A key of a new member, used once so this process remembers it live. */
async function usedKey(email: string) {
  const key = await memberKey(t, ws, email);
  expect((await post(key.secretKey, { type: 'pageview', email: 'seen@example.com' })).status).toBe(200);
  return key;
}

const cases: Array<[string, unknown]> = [
  ['one event', { type: 'pageview', email: 'after@example.com' }],
  [
    'a batch',
    {
      events: [
        { type: 'pageview', email: 'a@example.com' },
        { type: 'signup', anon_id: 'b' },
      ],
    },
  ],
  ['a batch whose items are all refused', { events: [{ type: 'signup' }] }],
  [
    'an expired event',
    {
      type: 'pageview',
      email: 'x@example.com',
      occurred_at: '2020-01-01T00:00:00Z',
      expires_at: '2020-01-02T00:00:00Z',
    },
  ],
  ['a body that is not an event', { nothing: true }],
];

describe.each([
  ['the hot door', '/api/v1/events'],
  ['Express', '/api/v1/events?via=express'],
])('a remembered key revoked, through %s', (_door, path) => {
  it.each(cases)('%s is refused with invalid_key and writes nothing', async (_case, body) => {
    const key = await usedKey(`dev-${Math.random().toString(36).slice(2, 8)}@example.com`);
    const [written, counted] = [await events(), await heartbeat()];
    await revoke(key.keyId);
    const answer = await post(key.secretKey, body, path);
    expect(answer).toMatchObject({
      status: 401,
      body: { ok: false, error: 'invalid_key', message: expect.stringMatching(/revoked/) },
    });
    expect(await events()).toBe(written);
    expect(await heartbeat()).toEqual(counted);
  });
});

it("a removed member's remembered key is refused with no_longer_a_member", async () => {
  const key = await usedKey('leaving@example.com');
  await t.gql('mutation { removeMember(member: "leaving@example.com") }', {}, ws.secretKey);
  const written = await events();
  expect(await post(key.secretKey, { type: 'pageview', email: 'after@example.com' })).toMatchObject({
    status: 403,
    body: { error: 'no_longer_a_member' },
  });
  expect(await events()).toBe(written);
});

it('posts of other keys in the same shared transaction are kept', async () => {
  const gone = await usedKey('gone@example.com');
  const stays = await usedKey('stays@example.com');
  await revoke(gone.keyId);
  const written = await events();
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      post(i % 2 ? gone.secretKey : stays.secretKey, { type: 'pageview', email: `p${i}@example.com` }),
    ),
  );
  expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 20 }, (_, i) => (i % 2 ? 401 : 200)));
  expect((await events()) - written).toBe(10);
});

it('a live remembered key is not looked up; the write checks it', async () => {
  const key = await usedKey('live@example.com');
  const lookups = jest.spyOn(t.app.get(WorkspacesRepository), 'findKeyOwners'); // counts, and calls through
  try {
    for (let i = 0; i < 3; i++)
      expect((await post(key.secretKey, { type: 'pageview', email: `again${i}@example.com` })).status).toBe(200);
    expect(lookups).not.toHaveBeenCalled();
    await revoke(key.keyId); // (the owner's GraphQL call is looked up: GraphQL does not use remembered keys)
    lookups.mockClear();
    expect((await post(key.secretKey, { type: 'pageview', email: 'again@example.com' })).status).toBe(401);
    expect(lookups).toHaveBeenCalledTimes(1); // the write refused it; verify() looked it up to say why
  } finally {
    lookups.mockRestore();
  }
});
