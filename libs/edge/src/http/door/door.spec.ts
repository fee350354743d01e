import { RateLimits, Refusal } from '@app/platform';
import { BatchAnswer, door, DoorRequest, Doors, HeartbeatCounter } from './door';

const success = (status: 'recorded') => ({ ok: true as const, status });

function fixture(options: { limited?: boolean; authRefusal?: Refusal; handled?: () => unknown } = {}) {
  const counted: string[] = [];
  const heartbeat: HeartbeatCounter = {
    count: (workspaceId, action, answer, origin, times = 1) =>
      void counted.push(`${workspaceId} ${action} ${answer} ${origin}${times === 1 ? '' : ` ×${times}`}`),
  };
  const consumed: string[] = [];
  const limits = {
    consume: async (name: string, key: string) => {
      consumed.push(`${name} ${key}`);
      if (options.limited) throw new Refusal('rate_limited', 'Over the limit.', { retryAfter: 5 });
    },
  } as unknown as RateLimits;
  const declaration = door({
    method: 'POST',
    path: '/test',
    status: 200,
    bodyLimit: 1024,
    authenticate: async (req, _services: { heartbeat: HeartbeatCounter }) => {
      if (options.authRefusal) throw options.authRefusal;
      req.doorWorkspaceId = 'ws_1';
    },
    rateLimit: { limit: 'server', key: () => 'key_1' },
    heartbeat: { action: () => 'signup', origin: () => 'server' },
    parse: (req) => (req.body === 'bad' ? new Refusal('invalid_json', 'Not JSON.') : req.body),
    handle: async () => (options.handled ? options.handled() : success('recorded')),
  });
  const opened = new Doors(limits).open(declaration, { heartbeat });
  const answer = (body: unknown = {}) => opened.answer({ body } as DoorRequest, {} as never);
  return { counted, consumed, answer };
}

describe('a door (door.ts)', () => {
  it('authenticates, spends the limit, handles, and counts the answer', async () => {
    const { counted, consumed, answer } = fixture();
    expect(await answer()).toEqual({ status: 200, body: success('recorded') });
    expect(consumed).toEqual(['server key_1']);
    expect(counted).toEqual(['ws_1 signup recorded server']);
  });

  it('never counts a refusal of authentication, nor spends the limit', async () => {
    const { counted, consumed, answer } = fixture({ authRefusal: new Refusal('unknown_key', 'No such key.') });
    await expect(answer()).rejects.toMatchObject({ code: 'unknown_key' });
    expect([counted, consumed]).toEqual([[], []]);
  });

  it('counts its own rate limit refusal and a parse refusal under the post action', async () => {
    const limited = fixture({ limited: true });
    await expect(limited.answer()).rejects.toMatchObject({ code: 'rate_limited' });
    expect(limited.counted).toEqual(['ws_1 signup rate_limited server']);
    const unreadable = fixture();
    await expect(unreadable.answer('bad')).rejects.toMatchObject({ code: 'invalid_json' });
    expect(unreadable.counted).toEqual(['ws_1 signup invalid_json server']);
  });

  it('does not count a key refused after authentication', async () => {
    const { counted, answer } = fixture({ handled: () => Promise.reject(new Refusal('no_longer_a_member', 'Gone.')) });
    await expect(answer()).rejects.toMatchObject({ code: 'no_longer_a_member' });
    expect(counted).toEqual([]);
  });

  it('answers a batch 207 and counts each item under its own action', async () => {
    const batch = new BatchAnswer([success('recorded'), new Refusal('invalid_field', 'No.')], ['signup', 'identify']);
    const { counted, answer } = fixture({ handled: () => batch });
    expect(await answer()).toMatchObject({ status: 207, body: { ok: false, error: 'partial_failure' } });
    expect(counted).toEqual(['ws_1 signup recorded server', 'ws_1 identify invalid_field server']);
  });

  it('counts a run of batch items alike at once, and each change of action or answer apart', async () => {
    const items = [
      success('recorded'),
      success('recorded'),
      success('recorded'),
      new Refusal('invalid_field', 'No.'),
      success('recorded'),
      success('recorded'),
      success('recorded'),
    ];
    const batch = new BatchAnswer(items, ['event', 'event', 'event', 'event', 'event', 'identify', 'identify']);
    const { counted, answer } = fixture({ handled: () => batch });
    await answer();
    expect(counted).toEqual([
      'ws_1 event recorded server ×3',
      'ws_1 event invalid_field server',
      'ws_1 event recorded server',
      'ws_1 identify recorded server ×2',
    ]);
  });

  it('refuses at start-up a door that counts the heartbeat without a counter, or one path declared twice', () => {
    const declaration = door({
      method: 'POST',
      path: '/x',
      status: 200,
      bodyLimit: 1,
      authenticate: async () => undefined,
      heartbeat: { action: () => 'a', origin: () => 'o' },
      handle: async () => null,
    });
    expect(() => new Doors({} as RateLimits).open(declaration, {})).toThrow(/heartbeat/);
    const doors = new Doors({} as RateLimits);
    doors.open({ ...declaration, heartbeat: undefined }, {});
    expect(() => doors.open({ ...declaration, heartbeat: undefined }, {})).toThrow(/Two doors/);
  });
});
