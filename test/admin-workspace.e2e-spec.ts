// The rest of the admin API: templates, messages (as REST), a person's
// messages, lists, heartbeat, eventNames and settings; refusals keep the REST codes and statuses.
import { useApp, useWorkspace } from './harness';

const t = useApp();
const ws = useWorkspace(t);

const post = (body: unknown) => t.request('POST', '/api/v1/events', { key: ws.secretKey, body });
const gql = (query: string, variables: Record<string, unknown> = {}) => t.gql(query, variables, ws.secretKey);
const refusal = (answer: any) =>
  answer.errors?.[0] && {
    code: answer.errors[0].extensions.code,
    status: answer.errors[0].extensions.status,
    message: answer.errors[0].message,
  };

describe('templates', () => {
  beforeEach(async () => {
    await post({ type: 'identify', email: 'ada@example.com', name: 'Ada', fields: { plan: 'pro' } });
    await gql(
      'mutation { createTemplate(input: {name: "welcome", subject: "Hi {{ person.name }}", body: "You are on **{{ person.fields.plan }}**."}) { id } }',
    );
  });

  it('previewTemplate fills it in for a person, sends nothing', async () => {
    const preview = (await gql('{ previewTemplate(id: "welcome", person: "ada@example.com") { subject html text } }'))
      .data.previewTemplate;
    expect(preview).toEqual({
      subject: 'Hi Ada',
      html: '<p>You are on <strong>pro</strong>.</p>',
      text: 'You are on pro.',
    });
    expect(
      (await t.db.query(`SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1`, [ws.workspace.id]))[0].n,
    ).toBe(0);
    expect(
      refusal(await gql('{ previewTemplate(id: "welcome", person: "nobody@example.com") { subject } }'))?.code,
    ).toBe('no_such_person');
  });

  it('updateTemplate changes what is given, with the checks of createTemplate', async () => {
    const updated = await gql(
      'mutation { updateTemplate(id: "welcome", input: {subject: "Welcome, {{ person.name }}"}) { name subject body } }',
    );
    expect(updated.data.updateTemplate).toEqual({
      name: 'welcome',
      subject: 'Welcome, {{ person.name }}',
      body: 'You are on **{{ person.fields.plan }}**.',
    });
    await gql('mutation { createTemplate(input: {name: "other", subject: "Other one", body: "Body text"}) { id } }');
    expect(
      refusal(await gql('mutation { updateTemplate(id: "other", input: {name: "welcome"}) { id } }')),
    ).toMatchObject({ code: 'conflict', status: 409 });
    expect(refusal(await gql('mutation { updateTemplate(id: "other", input: {subject: "x"}) { id } }'))).toMatchObject({
      code: 'invalid_subject',
      status: 400,
    });
    expect(
      refusal(await gql('mutation { updateTemplate(id: "nope", input: {subject: "Fine subject"}) { id } }')),
    ).toMatchObject({ code: 'unknown_template', status: 404 });
    expect((await gql('{ templates { name subject } }')).data.templates.map((x: { name: string }) => x.name)).toEqual([
      'other',
      'welcome',
    ]);
  });
});

describe('messages', () => {
  beforeEach(async () => {
    await post({ type: 'signup', email: 'ada@example.com' });
    for (const subject of ['First one', 'Second one', 'Third one']) {
      await t.request('POST', '/api/v1/messages', {
        key: ws.secretKey,
        body: { to: 'ada@example.com', subject, body: 'Hello there' },
      });
    }
  });

  it('messages answers as GET /api/v1/messages does, filters and limits included', async () => {
    const rest = await t.request('GET', '/api/v1/messages?limit=2&direction=out', { key: ws.secretKey });
    const page = (
      await gql(
        '{ messages(limit: 2, direction: "out") { messages { id subject direction person { email } } nextCursor } }',
      )
    ).data.messages;
    expect(page.messages.map((m: { id: string }) => m.id)).toEqual(rest.body.messages.map((m: { id: string }) => m.id));
    expect(page.messages[0]).toMatchObject({
      subject: 'Third one',
      direction: 'out',
      person: { email: 'ada@example.com' },
    });
    const next = (await gql(`{ messages(limit: 2, cursor: "${page.nextCursor}") { messages { subject } nextCursor } }`))
      .data.messages;
    expect(next).toEqual({ messages: [{ subject: 'First one' }], nextCursor: null });
    expect((await gql('{ messages(until: "2000-01-01") { messages { id } } }')).data.messages.messages).toEqual([]);
    expect(refusal(await gql('{ messages(limit: 101) { nextCursor } }'))).toMatchObject({
      code: 'invalid_field',
      status: 400,
    });
    expect(refusal(await gql('{ messages(since: "yesterday") { nextCursor } }'))).toEqual({
      code: 'invalid_field',
      status: 400,
      message: (await t.request('GET', '/api/v1/messages?since=yesterday', { key: ws.secretKey })).body.message,
    });
  });

  it("a person's messages, newest first", async () => {
    const person = (await gql('{ person(email: "ada@example.com") { messages(first: 2) { subject } } }')).data.person;
    expect(person.messages).toEqual([{ subject: 'Third one' }, { subject: 'Second one' }]);
  });
});

describe('lists, heartbeat, event names and settings', () => {
  it('lists with subscriber counts; renameList keeps the address', async () => {
    const id = (await gql('mutation { createList(input: {address: "news", name: "News"}) { id } }')).data.createList.id;
    await gql('mutation { createList(input: {address: "empty", name: "Empty"}) { id } }');
    await post({ type: 'subscribe', email: 'a@example.com', list: 'news', consent: 'Yes please.' });
    await post({ type: 'subscribe', email: 'b@example.com', list: 'news', consent: 'Yes please.' });
    await gql(`mutation { renameList(id: "${id}", name: "Monthly news") { id } }`);
    expect((await gql('{ lists { address name subscriberCount } }')).data.lists).toEqual([
      { address: 'news', name: 'Monthly news', subscriberCount: 2 },
      { address: 'empty', name: 'Empty', subscriberCount: 0 },
    ]);
    expect(refusal(await gql('mutation { createList(input: {address: "news", name: "Again"}) { id } }'))?.code).toBe(
      'conflict',
    );
    expect(refusal(await gql('mutation { renameList(id: "list_nope", name: "x") { id } }'))?.code).toBe('not_found');
  });

  it('heartbeat by minute, action, answer and origin; since narrows it', async () => {
    await post({ type: 'pageview', email: 'a@example.com' });
    await post({ type: 'bad name!', email: 'a@example.com' });
    const rows = (await gql('{ heartbeat { minute action answer origin count } }')).data.heartbeat;
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'event', answer: 'recorded', origin: 'server', count: 1 }),
        expect.objectContaining({
          action: 'event',
          answer: expect.not.stringMatching(/^recorded$/),
          origin: 'server',
          count: 1,
        }),
      ]),
    );
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await gql(`{ heartbeat(since: "${future}") { count } }`)).data.heartbeat).toEqual([]);
  });

  it('eventNames: the built-in ones, and a custom one once seen', async () => {
    const before = (await gql('{ eventNames { name builtIn } }')).data.eventNames;
    expect(before).toHaveLength(20);
    await post({ type: 'report_built', email: 'a@example.com' });
    expect((await gql('{ eventNames { name builtIn } }')).data.eventNames).toContainEqual({
      name: 'report_built',
      builtIn: false,
    });
  });

  it('updateWorkspaceSettings sets origins, trial, downloader and activation events; bad ones refused with the REST code', async () => {
    const input = {
      allowedOrigins: ['https://acme.test'],
      trialStage: true,
      downloaderStage: false,
      activationEvents: ['report_built'],
    };
    const answer = await gql(
      'mutation($input: UpdateWorkspaceSettingsInput!) { updateWorkspaceSettings(input: $input) { allowedOrigins trialStage downloaderStage activationEvents } }',
      { input },
    );
    expect(answer.data.updateWorkspaceSettings).toEqual(input);
    const bad = await gql(
      'mutation { updateWorkspaceSettings(input: {allowedOrigins: ["not an origin"]}) { trialStage } }',
    );
    expect(refusal(bad)).toMatchObject({ code: 'invalid_field', status: 400 });
  });
});

describe('refusals over GraphQL', () => {
  it('a field the schema lacks is invalid_field (400), naming it; a bad key is invalid_key (401) with the REST sentence', async () => {
    expect(refusal(await gql('{ nope }'))).toMatchObject({
      code: 'invalid_field',
      status: 400,
      message: expect.stringContaining('nope'),
    });
    const rest = await t.request('POST', '/api/v1/events', {
      key: 'sk_live_wrong',
      body: { type: 'pageview', email: 'a@example.com' },
    });
    expect(refusal(await t.gql('{ workspace { slug } }', {}, 'sk_live_wrong'))).toEqual({
      code: 'invalid_key',
      status: 401,
      message: rest.body.message,
    });
  });
});
