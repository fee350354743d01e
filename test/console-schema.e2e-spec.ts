// What the admin console reads and does over GraphQL: viewer, workspaces (operator), sendMessage (the
// same send, roles and refusals as POST /api/v1/messages) and the liveEvents feed.
import { TimelineRepository } from '@app/events';
import { newId, randomBase62 } from '@app/platform';
import { CreatedWorkspace, SESSION_COOKIE, SessionsService, WorkspacesService } from '@app/workspaces';
import { ADMIN_TOKEN, memberKey, useApp } from './harness';

const t = useApp();

const post = (key: string, body: unknown) => t.request('POST', '/api/v1/events', { key, body });
const restSend = (key: string, body: unknown) => t.request('POST', '/api/v1/messages', { key, body });

async function recorded(key: string, body: unknown): Promise<void> {
  expect((await post(key, body)).body).toMatchObject({ ok: true, status: 'recorded' });
}

async function workspaceNamed(name: string): Promise<CreatedWorkspace> {
  return t.app
    .get(WorkspacesService)
    .create({ slug: `ws-${randomBase62(8).toLowerCase()}`, owner: 'owner@example.com', name });
}

const VIEWER = '{ viewer { operator email role workspace { id slug name } } }';

describe('viewer', () => {
  let ws: CreatedWorkspace;
  beforeAll(async () => {
    ws = await workspaceNamed('Acme Inc');
  });

  it.each([
    ['member', 'member@example.com'],
    ['admin', 'admin@example.com'],
    ['owner', 'owner@example.com'],
  ] as const)('a key of a %s answers its email, role and workspace', async (role, email) => {
    const key = role === 'owner' ? ws.secretKey : (await memberKey(t, ws, email, role)).secretKey;
    const answer = await t.gql(VIEWER, {}, key);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.viewer).toEqual({
      operator: false,
      email,
      role,
      workspace: { id: ws.workspace.id, slug: ws.workspace.slug, name: 'Acme Inc' },
    });
  });

  it('the operator (ADMIN_TOKEN) is answered, not refused: operator, no email, role or workspace', async () => {
    const answer = await t.gql(VIEWER, {}, ADMIN_TOKEN);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.viewer).toEqual({ operator: true, email: null, role: null, workspace: null });
  });

  it('without a key it is refused as every query is', async () => {
    const answer = await t.request('POST', '/graphql', { body: { query: VIEWER } });
    expect(answer.body.errors[0].extensions.code).toBe('invalid_key');
  });

  it('canSwitchWorkspace: only an email-link session whose address is a member of several workspaces', async () => {
    const other = await workspaceNamed('Other Ltd');
    await memberKey(t, other, 'both@example.com', 'member');
    await memberKey(t, ws, 'both@example.com', 'member');
    const sessions = t.app.get(SessionsService);
    const link = await sessions.withLink((await sessions.linkFor('both@example.com', '/console'))!);
    await sessions.pick((await sessions.current(link.token))!, ws.workspace.id);
    const asSession = await t.request('POST', '/graphql', {
      body: { query: '{ viewer { email canSwitchWorkspace workspace { id } } }' },
      headers: { cookie: `${SESSION_COOKIE}=${link.token}`, origin: new URL(t.url).origin },
    });
    expect(asSession.body.data.viewer).toEqual({
      email: 'both@example.com',
      canSwitchWorkspace: true,
      workspace: { id: ws.workspace.id },
    });
    expect((await t.gql('{ viewer { canSwitchWorkspace } }', {}, ws.secretKey)).data.viewer.canSwitchWorkspace).toBe(
      false,
    );
    expect((await t.gql('{ viewer { canSwitchWorkspace } }', {}, ADMIN_TOKEN)).data.viewer.canSwitchWorkspace).toBe(
      false,
    );
  });
});

describe('workspaces', () => {
  const QUERY = '{ workspaces { id slug name kind publicKey publicBaseUrl } }';

  it('is refused with forbidden for a key of a workspace, even its owner', async () => {
    const ws = await t.workspace();
    for (const key of [(await memberKey(t, ws, 'member@example.com')).secretKey, ws.secretKey]) {
      const answer = await t.gql(QUERY, {}, key);
      expect(answer.data).toBeNull();
      expect(answer.errors).toEqual([
        expect.objectContaining({
          message: 'Only the operator (ADMIN_TOKEN) may do this.',
          extensions: { code: 'forbidden', status: 403 },
        }),
      ]);
    }
  });

  it('lists every workspace for the operator, in the order the CLI lists them', async () => {
    const made = [await workspaceNamed('First'), await workspaceNamed('Second')];
    const answer = await t.gql(QUERY, {}, ADMIN_TOKEN);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.workspaces).toEqual(await t.app.get(WorkspacesService).list());
    const listed = answer.data.workspaces.map((w: { id: string }) => w.id);
    expect(listed.indexOf(made[0].workspace.id)).toBeLessThan(listed.indexOf(made[1].workspace.id));
    expect(answer.data.workspaces.find((w: { id: string }) => w.id === made[1].workspace.id)).toEqual({
      id: made[1].workspace.id,
      slug: made[1].workspace.slug,
      name: 'Second',
      kind: 'app',
      publicKey: made[1].publicKey,
      publicBaseUrl: made[1].publicBaseUrl,
    });
  });
});

describe('sendMessage', () => {
  const SEND = `mutation($input: SendMessageInput!) {
    sendMessage(input: $input) { id direction at subject text providerId status person { id email name } } }`;
  let ws: CreatedWorkspace;
  let member: string;
  beforeAll(async () => {
    ws = await t.workspace();
    member = (await memberKey(t, ws, 'member@example.com')).secretKey;
    await recorded(ws.secretKey, { type: 'signup', email: 'ada@example.com' });
    await post(ws.secretKey, { type: 'identify', email: 'ada@example.com', name: 'Ada' });
    await recorded(ws.secretKey, { type: 'pageview', email: 'lurker@example.com' });
  });
  const count = async () =>
    Number((await t.request('GET', '/api/v1/messages?limit=100', { key: ws.secretKey })).body.messages.length);

  it('a member key sends to an engaged person (as REST lets it) and gets the message stored, as the messages page shows it', async () => {
    const answer = await t.gql(
      SEND,
      { input: { person: 'ada@example.com', subject: 'Welcome', body: 'Hello **{{ person.name }}**.' } },
      member,
    );
    expect(answer.errors).toBeUndefined();
    const sent = answer.data.sendMessage;
    expect(sent).toMatchObject({
      id: expect.stringMatching(/^msg_/),
      direction: 'out',
      subject: 'Welcome',
      text: expect.stringContaining('Hello Ada.'),
      person: { email: 'ada@example.com', name: 'Ada' },
    });
    const page = await t.request('GET', '/api/v1/messages?limit=1', { key: ws.secretKey });
    const { providerId, status, ...always } = sent; // null in GraphQL, left out in REST, when not known
    expect(page.body.messages[0]).toEqual({
      ...always,
      ...(providerId ? { providerId } : {}),
      ...(status ? { status } : {}),
    });
    expect((await restSend(member, { to: 'ada@example.com', subject: 'Hi again', body: 'Hello again' })).status).toBe(
      200,
    );
  });

  it('takes a record id as person and a template by name, as the REST body takes them', async () => {
    const made = await t.gql(
      'mutation { createTemplate(input: {name: "welcome", subject: "Welcome {{ person.name }}", body: "# Hi {{ person.name }}"}) { id } }',
      {},
      ws.secretKey,
    );
    expect(made.errors).toBeUndefined();
    const personId = (
      await t.gql(SEND, { input: { person: 'ada@example.com', subject: 'Lookup', body: 'Finding you' } }, member)
    ).data.sendMessage.person.id;
    const answer = await t.gql(SEND, { input: { person: personId, template: 'welcome' } }, member);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.sendMessage).toMatchObject({
      subject: 'Welcome Ada',
      text: expect.stringContaining('Hi Ada'),
      person: { id: personId },
    });
  });

  it("a person who is not engaged: refused with not_engaged and the service's own sentence, as REST refuses it, and nothing is stored", async () => {
    const before = await count();
    const input = { person: 'lurker@example.com', subject: 'Hi', body: 'Hello' };
    const answer = await t.gql(SEND, { input }, member);
    const rest = await restSend(member, { to: input.person, subject: input.subject, body: input.body });
    expect(rest.body).toMatchObject({ ok: false, error: 'not_engaged' });
    expect(answer.data).toBeNull();
    expect(answer.errors).toEqual([
      {
        message: rest.body.message,
        path: ['sendMessage'],
        locations: expect.any(Array),
        extensions: { code: 'not_engaged', status: 422 },
      },
    ]);
    expect(answer.errors![0].message).toMatch(/^Email goes only to people who bought, signed up/);
    expect(await count()).toBe(before);
  });

  it.each([
    ['invalid_subject', { person: 'ada@example.com', body: 'Hello' }],
    ['no_such_person', { person: 'nobody@example.com', subject: 'Hi', body: 'Hello' }],
    ['unknown_template', { person: 'ada@example.com', template: 'nope' }],
  ])('the other refusals of the REST route come back with their code: %s', async (code, input) => {
    const answer = await t.gql(SEND, { input }, member);
    const rest = await restSend(member, { to: input.person, ...input, person: undefined });
    expect(rest.body.error).toBe(code);
    expect(answer.errors).toEqual([
      expect.objectContaining({ message: rest.body.message, extensions: expect.objectContaining({ code }) }),
    ]);
  });

  it('the operator token, which REST refuses (it is no key of a workspace), is refused with forbidden', async () => {
    const before = await count();
    const answer = await t.gql(
      SEND,
      { input: { person: 'ada@example.com', subject: 'Hi', body: 'Hello' } },
      ADMIN_TOKEN,
    );
    expect(answer.errors).toEqual([
      expect.objectContaining({
        message: 'This needs a secret key of the workspace, not the operator token.',
        extensions: { code: 'forbidden', status: 403 },
      }),
    ]);
    expect((await restSend(ADMIN_TOKEN, { to: 'ada@example.com', subject: 'Hi', body: 'Hello' })).body.error).toBe(
      'invalid_key',
    );
    expect(await count()).toBe(before);
  });
});

describe('liveEvents', () => {
  const LIVE = `query($after: String, $first: Int) {
    liveEvents(after: $after, first: $first) { cursor events { id type occurredAt receivedAt value person { id email name } } } }`;
  type LiveEvent = {
    id: string;
    type: string;
    receivedAt: string;
    value: number | null;
    person: { id: string; email: string | null; name: string | null };
  };
  type Page = { cursor: string; events: LiveEvent[] };
  let ws: CreatedWorkspace;
  let member: string;
  const live = async (variables: Record<string, unknown> = {}, key = member): Promise<Page> => {
    const answer = await t.gql(LIVE, variables, key);
    expect(answer.errors).toBeUndefined();
    return answer.data.liveEvents;
  };
  beforeAll(async () => {
    ws = await t.workspace();
    member = (await memberKey(t, ws, 'member@example.com')).secretKey;
  });

  // Custom names: a built-in one may add rows of its own (a stage change) in the same transaction.
  const shown = (page: Page) => page.events.map((e) => [e.type, e.person.email]);

  it('answers the events posted, newest recorded first, with their person; a poll with the cursor adds only what was posted since; first bounds', async () => {
    const other = await t.workspace();
    await post(ws.secretKey, { type: 'identify', email: 'ada@example.com', name: 'Ada' });
    await recorded(ws.secretKey, { type: 'opened_report', email: 'ada@example.com' });
    await recorded(ws.secretKey, { type: 'clicked_plan', email: 'bob@example.com' });
    await recorded(ws.secretKey, { type: 'paid_invoice', email: 'ada@example.com', value: 12.5 });
    await recorded(other.secretKey, { type: 'opened_report', email: 'ada@example.com' });

    const first = await live();
    expect(shown(first)).toEqual([
      ['paid_invoice', 'ada@example.com'],
      ['clicked_plan', 'bob@example.com'],
      ['opened_report', 'ada@example.com'],
    ]);
    expect(first.events[0]).toMatchObject({ value: 12.5, person: { id: expect.stringMatching(/^per_/), name: 'Ada' } });
    expect(first.events[1]).toMatchObject({ value: null, person: { name: null } });
    const times = first.events.map((e) => Date.parse(e.receivedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(first.cursor).toMatch(/^[A-Za-z0-9_-]+$/);

    await recorded(ws.secretKey, { type: 'clicked_plan', email: 'cy@example.com' });
    await recorded(other.secretKey, { type: 'clicked_plan', email: 'cy@example.com' });
    const second = await live({ after: first.cursor });
    expect(second.events[0]).toMatchObject({ type: 'clicked_plan', person: { email: 'cy@example.com' } });
    // Within the overlap the rows of the first answer may come again: the client dedupes them by id.
    const seen = new Set(first.events.map((e) => e.id));
    expect(second.events.filter((e) => !seen.has(e.id)).map((e) => e.id)).toEqual([second.events[0].id]);
    expect(second.cursor).not.toBe(first.cursor);

    const two = await live({ first: 2 });
    expect(shown(two)).toEqual([
      ['clicked_plan', 'cy@example.com'],
      ['paid_invoice', 'ada@example.com'],
    ]);
  });

  it('a poll with nothing new keeps answering (the overlap only): the client dedupes by id', async () => {
    const start = await live();
    const again = await live({ after: start.cursor });
    const known = new Set(start.events.map((e) => e.id));
    expect(again.events.filter((e) => !known.has(e.id))).toEqual([]);
  });

  it('answers rows a slow transaction commits after a poll, recorded before the cursor (the 10 s overlap)', async () => {
    await recorded(ws.secretKey, { type: 'opened_report', email: 'slow@example.com' });
    const personId = (await live({ first: 1 })).events[0].person.id;
    const id = newId('evt');
    let cursor = '';
    await t.db.transaction(async (m) => {
      await t.app.get(TimelineRepository).insertRows(m, [
        {
          workspace_id: ws.workspace.id,
          id,
          occurred_at: new Date().toISOString(),
          person_id: personId,
          type: 'slow_one',
          value: null,
          properties: null,
          detail: null,
          source: null,
          expires_at: null,
        },
      ]);
      await new Promise((r) => setTimeout(r, 300));
      // Polled while the writing transaction is open: its row is not visible yet.
      const during = await live();
      expect(during.events.map((e) => e.id)).not.toContain(id);
      cursor = during.cursor;
    });
    const after = await live({ after: cursor });
    expect(after.events.map((e) => e.id)).toContain(id);
  });

  it('leaves out rows past their expires_at, swept or not', async () => {
    await recorded(ws.secretKey, {
      type: 'brief_visit',
      email: 'brief@example.com',
      expires_at: new Date(Date.now() + 1_500).toISOString(),
    });
    expect(shown(await live())).toContainEqual(['brief_visit', 'brief@example.com']);
    await new Promise((r) => setTimeout(r, 1_700));
    expect(shown(await live())).not.toContainEqual(['brief_visit', 'brief@example.com']);
  });

  it.each([
    ['first over 100', { first: 101 }, /^first must be a whole number from 1 to 100/],
    ['first of 0', { first: 0 }, /^first must be a whole number from 1 to 100/],
    ['a cursor it did not give', { after: 'bm90LWEtY3Vyc29y' }, /^after is not a cursor liveEvents gave/],
  ])('%s is refused with invalid_field', async (_name, variables, pattern) => {
    const answer = await t.gql(LIVE, variables, member);
    expect(answer.errors).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(pattern),
        extensions: { code: 'invalid_field', status: 400 },
      }),
    ]);
  });

  it('needs a key of the workspace: the operator token is refused', async () => {
    const answer = await t.gql(LIVE, {}, ADMIN_TOKEN);
    expect(answer.errors![0].extensions.code).toBe('forbidden');
  });
});
