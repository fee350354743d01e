// The events endpoint (docs/rest.md#events): its rules, answers, batches and refusals.
import { useApp, useWorkspace } from './harness';

const t = useApp({ worker: true });
const ws = useWorkspace(t);

const post = (body: unknown, key = ws.secretKey) => t.request('POST', '/api/v1/events', { key, body });
const count = async (table: string) =>
  Number((await t.db.query(`SELECT count(*) AS n FROM ${table} WHERE workspace_id = $1`, [ws.workspace.id]))[0].n);

describe('rule 1: every event must name a person (no_identity)', () => {
  it('an event with no email, anon_id or account_id is refused and writes nothing', async () => {
    const answer = await post({ type: 'signup' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      ok: false,
      error: 'no_identity',
      message: expect.stringMatching(/email, anon_id or account_id/),
    });
    expect(await count('people')).toBe(0);
  });
});

describe('rule 2: an event whose expires_at has passed', () => {
  it('answers ok, status expired, no id, and writes nothing, not even the person', async () => {
    const answer = await post({
      type: 'signup',
      email: 'gone@example.com',
      occurred_at: '2020-01-01T00:00:00Z',
      expires_at: '2020-01-02T00:00:00Z',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ok: true, status: 'expired' });
    expect(await count('people')).toBe(0);
    expect(await count('events')).toBe(0);
    expect(await count('outbox')).toBe(0);
  });

  it('in a batch only that item is expired', async () => {
    const answer = await post({
      events: [
        { type: 'pageview', anon_id: 'a1', occurred_at: '2020-01-01T00:00:00Z', expires_at: '2020-01-02T00:00:00Z' },
        { type: 'pageview', anon_id: 'a2' },
      ],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.results).toEqual([
      { index: 0, ok: true, status: 'expired' },
      { index: 1, ok: true, status: 'recorded', id: expect.stringMatching(/^per_/) },
    ]);
    expect(await count('people')).toBe(1);
  });
});

describe('rule 3: invalid_expiry', () => {
  it.each([
    ['not a date', { expires_at: 'tomorrow' }],
    ['not after occurred_at', { occurred_at: '2030-01-02T00:00:00Z', expires_at: '2030-01-01T00:00:00Z' }],
    ['equal to occurred_at', { occurred_at: '2030-01-02T00:00:00Z', expires_at: '2030-01-02T00:00:00Z' }],
  ])('an expires_at %s is refused', async (_case, fields) => {
    const answer = await post({ type: 'signup', email: 'x@example.com', ...fields });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_expiry');
    expect(await count('people')).toBe(0);
  });
});

describe('rule 4: idempotency', () => {
  it('a second post with the same idempotency_key writes nothing and answers the first answer', async () => {
    const first = await post({ type: 'purchase', email: 'buyer@example.com', value: 10, idempotency_key: 'order-1' });
    const second = await post({ type: 'purchase', email: 'buyer@example.com', value: 10, idempotency_key: 'order-1' });
    expect(first.body).toEqual({ ok: true, status: 'recorded', id: expect.stringMatching(/^per_/) });
    expect(second.body).toEqual(first.body);
    const rows = await t.db.query(
      `SELECT count(*)::int AS n FROM events WHERE workspace_id = $1 AND type = 'purchase'`,
      [ws.workspace.id],
    );
    expect(rows[0].n).toBe(1);
  });

  it('also when the two arrive at the same moment', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        post({ type: 'purchase', email: 'same@example.com', idempotency_key: 'order-2' }),
      ),
    );
    for (const answer of answers) expect(answer.body).toEqual(answers[0].body);
    const rows = await t.db.query(
      `SELECT count(*)::int AS n FROM events WHERE workspace_id = $1 AND type = 'purchase'`,
      [ws.workspace.id],
    );
    expect(rows[0].n).toBe(1);
    const [person] = await t.db.query(`SELECT purchases, stage FROM people WHERE workspace_id = $1`, [ws.workspace.id]);
    expect(person).toEqual({ purchases: 1, stage: 'purchaser' });
  });
});

describe('rule 5: expiry removes only the timeline row', () => {
  it('the sweep deletes the row; person, stage, first touch, identities and subscriptions remain', async () => {
    await t.gql('mutation { createList(input: {address: "news", name: "News"}) { id } }', {}, ws.secretKey);
    await post({ type: 'subscribe', email: 'temp@example.com', list: 'news', consent: 'Yes, email me.' });
    const soon = new Date(Date.now() + 300).toISOString();
    const answer = await post({
      type: 'signup',
      email: 'temp@example.com',
      expires_at: soon,
      source: { utm: { source: 'ads' } },
    });
    expect(answer.body.status).toBe('recorded');
    await new Promise((r) => setTimeout(r, 400));
    expect((await post({ type: 'support', from: 'temp@example.com', message: 'A note that stays' })).body.status).toBe(
      'recorded',
    );
    const { SweepRegistry } = await import('@app/platform');
    expect(await t.worker!.get(SweepRegistry).runAll()).toMatchObject({ 'expired-events': 1 });
    expect(
      await t.db.query(`SELECT type FROM events WHERE workspace_id = $1 AND type = 'support'`, [ws.workspace.id]),
    ).toHaveLength(1);
    const [person] = await t.db.query(`SELECT stage, first_touch FROM people WHERE workspace_id = $1`, [
      ws.workspace.id,
    ]);
    expect(person.stage).toBe('account');
    expect(person.first_touch.source).toBe('ads');
    expect(await count('identities')).toBe(1);
    expect(await count('subscriptions')).toBe(1);
    expect(
      await t.db.query(`SELECT type FROM events WHERE workspace_id = $1 AND type = 'signup'`, [ws.workspace.id]),
    ).toEqual([]);
  });
});

describe('rule 6: reserved names (reserved_event_name)', () => {
  it.each(['email_sent', 'stage_changed', 'merged', 'note'])('a custom event named %s is refused', async (type) => {
    const answer = await post({ type, email: 'r@example.com' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('reserved_event_name');
  });

  it.each(['A', 'x', 'has space', 'way_too_long_name_way_too_long_name_way_too_long'])(
    'an event name %s that is not 2 to 40 of [a-z0-9_] is unknown_event',
    async (type) => {
      const answer = await post({ type, email: 'r@example.com' });
      expect(answer.body.error).toBe('unknown_event');
    },
  );
});

describe('rule 7: a custom name is listed for charts and automations only once seen', () => {
  it('eventNames lists it after the first post, never before', async () => {
    const names = async () => (await t.gql('{ eventNames { name builtIn } }', {}, ws.secretKey)).data.eventNames;
    expect((await names()).find((n: { name: string }) => n.name === 'report_exported')).toBeUndefined();
    expect((await post({ type: 'report_exported', account_id: 'u1' })).body.status).toBe('recorded');
    expect(await names()).toContainEqual({ name: 'report_exported', builtIn: false });
    expect(await names()).toContainEqual({ name: 'signup', builtIn: true });
  });
});

describe('rule 8: batches', () => {
  it('a failing item does not discard the others (207 partial_failure)', async () => {
    const answer = await post({
      events: [
        { type: 'signup', email: 'ok@example.com' },
        { type: 'signup' },
        { type: 'identify', account_id: 'acc-1', name: 'Ok' },
      ],
    });
    expect(answer.status).toBe(207);
    expect(answer.body.ok).toBe(false);
    expect(answer.body.error).toBe('partial_failure');
    expect(answer.body.results[0]).toMatchObject({ index: 0, ok: true, status: 'recorded' });
    expect(answer.body.results[1]).toMatchObject({ index: 1, ok: false, error: 'no_identity' });
    expect(answer.body.results[2]).toMatchObject({ index: 2, ok: true, status: 'created' });
    expect(await count('people')).toBe(2);
  });

  it('more than 100 items is refused with too_many_items and writes nothing', async () => {
    const events = Array.from({ length: 101 }, (_, i) => ({ type: 'pageview', anon_id: `v${i}` }));
    const answer = await post({ events });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ ok: false, error: 'too_many_items' });
    expect(answer.body.results).toBeUndefined();
    expect(await count('people')).toBe(0);
  });

  it('100 items all ok answer 200 with one result per item in order', async () => {
    const events = Array.from({ length: 100 }, (_, i) => ({ type: 'pageview', anon_id: `b${i}` }));
    const answer = await post({ events });
    expect(answer.status).toBe(200);
    expect(answer.body.ok).toBe(true);
    expect(answer.body.results.map((r: { index: number }) => r.index)).toEqual(events.map((_, i) => i));
    expect(await count('people')).toBe(100);
  });
});

describe('statuses of each action', () => {
  it('identify answers created, linked, then merged when one post names two people', async () => {
    expect((await post({ type: 'identify', email: 'ada@example.com' })).body.status).toBe('created');
    expect((await post({ type: 'identify', email: 'ada@example.com', account_id: 'u-ada' })).body.status).toBe(
      'linked',
    );
    expect((await post({ type: 'identify', email: 'ada@example.com' })).body.status).toBe('linked');
    const other = await post({ type: 'pageview', anon_id: 'browser-9' });
    const merged = await post({ type: 'identify', anon_id: 'browser-9', account_id: 'u-ada' });
    expect(merged.body.status).toBe('merged');
    expect(merged.body.id).not.toBe(other.body.id);
    const live = await t.db.query(`SELECT id FROM people WHERE workspace_id = $1 AND merged_into IS NULL`, [
      ws.workspace.id,
    ]);
    expect(live).toEqual([{ id: merged.body.id }]);
    const timeline = await t.db.query(`SELECT DISTINCT person_id FROM events WHERE workspace_id = $1`, [
      ws.workspace.id,
    ]);
    expect(timeline).toEqual([{ person_id: merged.body.id }]);
  });

  it('identify without any key is nothing_to_identify', async () => {
    expect((await post({ type: 'identify', name: 'Nobody' })).body.error).toBe('nothing_to_identify');
  });

  it('subscribe answers subscribed, then already_subscribed; an unknown list is unknown_list', async () => {
    await t.gql('mutation { createList(input: {address: "weekly", name: "Weekly"}) { id } }', {}, ws.secretKey);
    const body = {
      type: 'subscribe',
      email: 'sub@example.com',
      list: 'weekly',
      consent: { text: 'Send me the weekly.', ip: '203.0.113.9', granted_at: '2026-01-01T10:00:00.000Z' },
    };
    expect((await post(body)).body.status).toBe('subscribed');
    expect((await post(body)).body.status).toBe('already_subscribed');
    const unknown = await post({ ...body, list: 'nope' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('unknown_list');
    expect((await post({ type: 'subscribe', email: 'sub@example.com', list: 'weekly' })).body.error).toBe(
      'missing_consent',
    );
    expect((await post({ type: 'subscribe', email: 'not-an-email', list: 'weekly', consent: 'x' })).body.error).toBe(
      'invalid_email',
    );
  });

  it('support answers recorded and needs a message (empty_message)', async () => {
    expect((await post({ type: 'support', from: 'help@example.com', message: 'It broke' })).body.status).toBe(
      'recorded',
    );
    expect((await post({ type: 'support', from: 'help@example.com' })).body.error).toBe('empty_message');
  });

  it('a malformed field answers invalid_field naming it', async () => {
    const answer = await post({ type: 'purchase', email: 'v@example.com', value: 'ten' });
    expect(answer.body.error).toBe('invalid_field');
    expect(answer.body.message).toContain('value');
  });
});

describe('GET /api/v1/events', () => {
  it('describes what to post and never echoes a key, right or wrong', async () => {
    const right = await t.request('GET', '/api/v1/events', { key: ws.secretKey });
    const wrong = await t.request('GET', '/api/v1/events', { key: 'sk_live_wrongwrongwrongwrongwrongwrong12' });
    expect(right.status).toBe(200);
    expect(right.body.builtInEvents).toContain('signup');
    expect(right.body.reservedNames).toContain('email_sent');
    expect(right.body.limits.itemsPerBatch).toBe(100);
    expect(JSON.stringify(right.body)).not.toContain(ws.secretKey);
    expect(JSON.stringify(wrong.body)).not.toContain('wrongwrong');
  });
});

describe('the secret-key guard on the events endpoint', () => {
  it('no bearer: 401 invalid_key', async () => {
    const answer = await t.request('POST', '/api/v1/events', { body: { type: 'signup', email: 'a@b.co' } });
    expect(answer.status).toBe(401);
    expect(answer.body.error).toBe('invalid_key');
  });

  it('a public key as bearer: 401 invalid_key saying public keys belong in the tag', async () => {
    const answer = await post({ type: 'signup', email: 'a@b.co' }, ws.publicKey);
    expect(answer.status).toBe(401);
    expect(answer.body.message).toMatch(/tag/);
  });

  it('a removed member: 403 no_longer_a_member', async () => {
    const made = await t.gql('mutation { createKey(member: "gone@example.com") { secretKey } }', {}, ws.secretKey);
    await t.gql('mutation { removeMember(member: "gone@example.com") }', {}, ws.secretKey);
    const answer = await post({ type: 'signup', email: 'a@b.co' }, made.data.createKey.secretKey);
    expect(answer.status).toBe(403);
    expect(answer.body.error).toBe('no_longer_a_member');
  });
});

describe('workspaces are apart', () => {
  it('the same email and idempotency key in two workspaces make two people, and neither sees the other', async () => {
    const other = await t.workspace();
    const a = await post({ type: 'report_built', email: 'both@example.com', idempotency_key: 'same-key' });
    const b = await post({ type: 'signup', email: 'both@example.com', idempotency_key: 'same-key' }, other.secretKey);
    expect(a.body.status).toBe('recorded');
    expect(b.body.status).toBe('recorded');
    expect(a.body.id).not.toBe(b.body.id);
    const ask = (key: string, query: string, variables: Record<string, unknown> = {}) => t.gql(query, variables, key);
    const seen = await ask(other.secretKey, 'query($id: String) { person(id: $id) { id } }', { id: a.body.id });
    expect(seen.data.person).toBeNull();
    const mine = await ask(
      other.secretKey,
      '{ person(email: "both@example.com") { id stage timeline { edges { node { type } } } } }',
    );
    expect(mine.data.person).toMatchObject({ id: b.body.id, stage: 'account' });
    expect(mine.data.person.timeline.edges.map((e: { node: unknown }) => e.node)).not.toContainEqual({
      type: 'report_built',
    });
    const names = await ask(other.secretKey, '{ eventNames { name builtIn } }');
    expect(names.data.eventNames.some((n: { name: string }) => n.name === 'report_built')).toBe(false);
    const people = await ask(other.secretKey, '{ people { edges { node { id } } } }');
    expect(people.data.people.edges).toEqual([{ node: { id: b.body.id } }]);
  });
});

describe('GraphQL reads (person, people)', () => {
  it('person(id) of an absorbed person answers the person they became; people(filter) filters by stage and engaged', async () => {
    await post({ type: 'pageview', anon_id: 'reader-1' });
    await post({ type: 'signup', email: 'reader@example.com' });
    expect((await post({ type: 'identify', anon_id: 'reader-1', email: 'reader@example.com' })).body.status).toBe(
      'merged',
    );
    await post({ type: 'pageview', email: 'lurker@example.com' });
    const [absorbed] = await t.db.query(
      `SELECT id, merged_into FROM people WHERE workspace_id = $1 AND merged_into IS NOT NULL`,
      [ws.workspace.id],
    );
    const byOldId = await t.gql(
      'query($id: String) { person(id: $id) { id email stage } }',
      { id: absorbed.id },
      ws.secretKey,
    );
    expect(byOldId.data.person).toEqual({ id: absorbed.merged_into, email: 'reader@example.com', stage: 'account' });
    const accounts = await t.gql(
      '{ people(filter: {stage: "account"}) { edges { node { email } } } }',
      {},
      ws.secretKey,
    );
    expect(accounts.data.people.edges).toEqual([{ node: { email: 'reader@example.com' } }]);
    const engaged = await t.gql('{ people(filter: {engaged: false}) { edges { node { email } } } }', {}, ws.secretKey);
    expect(engaged.data.people.edges).toEqual([{ node: { email: 'lurker@example.com' } }]);
  });
});

describe('rate limit per secret key', () => {
  it('another key of the same workspace has a limit of its own', async () => {
    const second = (await t.gql('mutation { createKey(member: "second@example.com") { secretKey } }', {}, ws.secretKey))
      .data.createKey.secretKey;
    const answers = await Promise.all(
      Array.from({ length: 601 }, (_, i) => post({ type: 'pageview', anon_id: `rl-${i}` })),
    );
    expect(answers.filter((a) => a.status === 429)).toHaveLength(1);
    expect((await post({ type: 'pageview', anon_id: 'rl-other' }, second)).status).toBe(200);
  });
});
