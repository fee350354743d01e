// The messages endpoints (docs/rest.md#messages), their refusals and limits
// (docs/rest.md#answers-and-refusals). Real SMTP (smtp-server) and a Resend stand-in.
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { eventually, startApp, TestApp, useApp, useWorkspace } from './harness';
import { useSmtp } from './support/smtp';

const DOOR_SECRET = 'whsec_' + Buffer.from('lifeline-resend-door-secret').toString('base64');
const send = (t: TestApp, key: string, body: unknown) => t.request('POST', '/api/v1/messages', { key, body });
const event = (t: TestApp, key: string, body: unknown) => t.request('POST', '/api/v1/events', { key, body });

describe('without a provider: stored, not sent', () => {
  const t = useApp();
  const ws = useWorkspace(t);
  beforeEach(async () => {
    await event(t, ws.secretKey, { type: 'signup', email: 'ada@example.com', account_id: 'u-ada' });
    await event(t, ws.secretKey, { type: 'identify', email: 'ada@example.com', name: 'Ada', fields: { plan: 'pro' } });
  });

  it('sends to an engaged person: the answer has the timeline row id and no providerId', async () => {
    const answer = await send(t, ws.secretKey, {
      to: 'ada@example.com',
      subject: 'Welcome',
      body: 'Hello **{{ person.name }}**, you are on {{ person.fields.plan }}.',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ok: true, id: expect.stringMatching(/^msg_/) });
    const [row] = await t.db.query(`SELECT type, person_id FROM events WHERE workspace_id = $1 AND id = $2`, [
      ws.workspace.id,
      answer.body.id,
    ]);
    expect(row.type).toBe('email_sent');
    const [message] = await t.db.query(`SELECT text, html, send_state FROM messages WHERE id = $1`, [answer.body.id]);
    expect(message.send_state).toBe('stored');
    expect(message.html).toContain('<strong>Ada</strong>');
    expect(message.text).toContain('Hello Ada, you are on pro.');
  });

  it('a record id works as to', async () => {
    const [person] = await t.db.query(`SELECT id FROM people WHERE workspace_id = $1`, [ws.workspace.id]);
    expect((await send(t, ws.secretKey, { to: person.id, subject: 'Hi', body: 'Hi there' })).body.ok).toBe(true);
  });

  it.each([
    [
      'not_engaged',
      422,
      async () => (
        await event(t, ws.secretKey, { type: 'pageview', email: 'lurker@example.com' }),
        { to: 'lurker@example.com', subject: 'Hi', body: 'Hello' }
      ),
    ],
    ['no_such_person', 404, async () => ({ to: 'nobody@example.com', subject: 'Hi', body: 'Hello' })],
    ['no_such_person', 404, async () => ({ to: 'per_00000000000000000000000000', subject: 'Hi', body: 'Hello' })],
    [
      'no_email',
      422,
      async () => (
        await event(t, ws.secretKey, { type: 'signup', account_id: 'no-mail' }),
        {
          to: (
            await t.db.query(
              `SELECT p.id FROM identities i JOIN people p ON p.id = i.person_id WHERE i.value = 'no-mail'`,
            )
          )[0].id,
          subject: 'Hi',
          body: 'Hello',
        }
      ),
    ],
    ['unknown_template', 404, async () => ({ to: 'ada@example.com', template: 'nope' })],
    ['missing_body', 400, async () => ({ to: 'ada@example.com', subject: 'Hi' })],
    ['missing_body', 400, async () => ({ to: 'ada@example.com', subject: 'Hi', body: 'x' })],
    ['missing_body', 400, async () => ({ to: 'ada@example.com', subject: 'Hi', body: 'x'.repeat(20_001) })],
    ['invalid_subject', 400, async () => ({ to: 'ada@example.com', body: 'Hello' })],
    ['invalid_subject', 400, async () => ({ to: 'ada@example.com', subject: 'H', body: 'Hello' })],
    ['invalid_subject', 400, async () => ({ to: 'ada@example.com', subject: 'x'.repeat(201), body: 'Hello' })],
  ])('refuses with %s (%d) and writes nothing', async (code, status, body) => {
    const before = Number(
      (await t.db.query(`SELECT count(*) AS n FROM messages WHERE workspace_id = $1`, [ws.workspace.id]))[0].n,
    );
    const answer = await send(t, ws.secretKey, await body());
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({ ok: false, error: code });
    expect(answer.body.message).toMatch(/\w.*\./);
    const after = Number(
      (await t.db.query(`SELECT count(*) AS n FROM messages WHERE workspace_id = $1`, [ws.workspace.id]))[0].n,
    );
    expect(after).toBe(before);
  });

  it('templates: a syntax error is refused when saved; a saved one sends by name or id', async () => {
    const bad = await t.gql(
      'mutation($i: CreateTemplateInput!) { createTemplate(input: $i) { id } }',
      { i: { name: 'bad', subject: 'Hi', body: 'Hello {{ person.name ' } },
      ws.secretKey,
    );
    expect(bad.errors![0].extensions.code).toBe('invalid_field');
    const made = await t.gql(
      'mutation($i: CreateTemplateInput!) { createTemplate(input: $i) { id name } }',
      { i: { name: 'welcome', subject: 'Welcome {{ person.name }}', body: '# Hi {{ person.name }}' } },
      ws.secretKey,
    );
    const byName = await send(t, ws.secretKey, { to: 'ada@example.com', template: 'welcome' });
    const byId = await send(t, ws.secretKey, { to: 'ada@example.com', template: made.data.createTemplate.id });
    expect(byName.body.ok && byId.body.ok).toBe(true);
    const [message] = await t.db.query(`SELECT subject, html FROM messages WHERE id = $1`, [byName.body.id]);
    expect(message.subject).toBe('Welcome Ada');
    expect(message.html).toContain('<h1>Hi Ada</h1>');
  });

  it('templates keep the subject and body limits: when saved, and as filled in for the person', async () => {
    const create = (i: Record<string, string>) =>
      t.gql('mutation($i: CreateTemplateInput!) { createTemplate(input: $i) { id } }', { i }, ws.secretKey);
    expect((await create({ name: 'short', subject: 'H', body: 'Hello there' })).errors![0].extensions.code).toBe(
      'invalid_subject',
    );
    expect((await create({ name: 'empty', subject: 'Hello', body: 'x' })).errors![0].extensions.code).toBe(
      'missing_body',
    );
    expect(
      (await create({ name: 'nick', subject: '{{ person.fields.nickname }}', body: 'Hello there' })).errors,
    ).toBeUndefined();
    const answer = await send(t, ws.secretKey, { to: 'ada@example.com', template: 'nick' });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      ok: false,
      error: 'invalid_subject',
      message: expect.stringContaining('once filled in for this person'),
    });
    expect(
      (await t.db.query(`SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1`, [ws.workspace.id]))[0].n,
    ).toBe(0);
  });

  it('a 20,000-character body is accepted even when JSON escapes make it over 64 KB', async () => {
    const body = 'é'.repeat(20_000);
    const raw = JSON.stringify({ to: 'ada@example.com', subject: 'Accents', body }).replace(/é/g, '\\u00e9');
    expect(Buffer.byteLength(raw)).toBeGreaterThan(64 * 1024);
    const answer = await t.request('POST', '/api/v1/messages', { key: ws.secretKey, raw });
    expect(answer.status).toBe(200);
    const [message] = await t.db.query(`SELECT text FROM messages WHERE id = $1`, [answer.body.id]);
    expect(message.text).toBe(body);
  });

  it("another workspace cannot send to, list or read the thread of this workspace's people", async () => {
    const [ada] = await t.db.query(`SELECT id FROM people WHERE workspace_id = $1`, [ws.workspace.id]);
    expect((await send(t, ws.secretKey, { to: 'ada@example.com', subject: 'Hi', body: 'Hello there' })).status).toBe(
      200,
    );
    const other = await t.workspace();
    for (const to of ['ada@example.com', ada.id]) {
      const answer = await send(t, other.secretKey, { to, subject: 'Hi', body: 'Hello there' });
      expect(answer.status).toBe(404);
      expect(answer.body.error).toBe('no_such_person');
      expect(
        (await t.request('GET', `/api/v1/people/${encodeURIComponent(to)}/messages`, { key: other.secretKey })).body
          .error,
      ).toBe('no_such_person');
    }
    const page = await t.request('GET', '/api/v1/messages', { key: other.secretKey });
    expect(page.body.messages).toEqual([]);
  });

  it('paging through 250 messages with limit 100 returns each exactly once, newest first', async () => {
    const sent: string[] = [];
    for (let i = 0; i < 250; i += 25) {
      const answers = await Promise.all(
        Array.from({ length: 25 }, (_, j) =>
          send(t, ws.secretKey, { to: 'ada@example.com', subject: `Note ${i + j}`, body: 'Body text' }),
        ),
      );
      sent.push(...answers.map((a) => a.body.id));
    }
    const seen: Array<{ id: string; at: string }> = [];
    let cursor: string | undefined;
    const sizes: number[] = [];
    do {
      const page = await t.request(
        'GET',
        `/api/v1/messages?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { key: ws.secretKey },
      );
      expect(page.status).toBe(200);
      sizes.push(page.body.messages.length);
      seen.push(...page.body.messages);
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(sizes).toEqual([100, 100, 50]);
    expect(new Set(seen.map((m) => m.id)).size).toBe(250);
    expect(seen.map((m) => m.id).sort()).toEqual([...sent].sort());
    for (let i = 1; i < seen.length; i++) expect(seen[i - 1].at >= seen[i].at).toBe(true);
    expect(seen[0]).toMatchObject({
      direction: 'out',
      person: { name: 'Ada', email: 'ada@example.com' },
      subject: expect.stringMatching(/^Note /),
    });
  }, 60_000);

  it('filters by person, direction, since and until; refuses a malformed parameter naming it', async () => {
    const answer = await send(t, ws.secretKey, { to: 'ada@example.com', subject: 'Filtered', body: 'Body text' });
    const [{ at }] = await t.db.query(`SELECT at FROM messages WHERE id = $1`, [answer.body.id]);
    const iso = new Date(at).toISOString();
    const page = await t.request(
      'GET',
      `/api/v1/messages?person=ada@example.com&direction=out&since=${iso}&until=${iso}`,
      { key: ws.secretKey },
    );
    expect(page.body.messages.map((m: { id: string }) => m.id)).toEqual([answer.body.id]);
    expect((await t.request('GET', `/api/v1/messages?direction=in`, { key: ws.secretKey })).body.messages).toEqual([]);
    const bad = await t.request('GET', '/api/v1/messages?limit=101', { key: ws.secretKey });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ ok: false, error: 'invalid_field' });
    expect(bad.body.message).toContain('limit');
  });

  it('the thread of a person is oldest first, by email or record id', async () => {
    const first = await send(t, ws.secretKey, { to: 'ada@example.com', subject: 'First', body: 'One' });
    const second = await send(t, ws.secretKey, { to: 'ada@example.com', subject: 'Second', body: 'Two' });
    const thread = await t.request('GET', '/api/v1/people/ada@example.com/messages', { key: ws.secretKey });
    expect(thread.body.ok).toBe(true);
    expect(thread.body.person).toMatch(/^per_/);
    expect(thread.body.messages.map((m: { id: string }) => m.id)).toEqual([first.body.id, second.body.id]);
    const byId = await t.request('GET', `/api/v1/people/${thread.body.person}/messages`, { key: ws.secretKey });
    expect(byId.body.messages).toHaveLength(2);
    const unknown = await t.request('GET', '/api/v1/people/ghost@example.com/messages', { key: ws.secretKey });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('no_such_person');
  });
});

describe('with SMTP: the email really leaves', () => {
  const smtp = useSmtp();
  const received = smtp.received;
  const t = useApp({ worker: true, env: () => ({ SMTP_URL: smtp.url, EMAIL_FROM: 'Lifeline <hello@lifeline.test>' }) });

  it('sends through the worker; the answer carries providerId; subject, recipient, HTML and text arrive', async () => {
    const ws = await t.workspace();
    await event(t, ws.secretKey, { type: 'purchase', email: 'buyer@example.com' });
    const answer = await send(t, ws.secretKey, {
      to: 'buyer@example.com',
      subject: 'Your receipt',
      body: 'Thanks for the **order**.',
    });
    expect(answer.body).toEqual({ ok: true, id: expect.stringMatching(/^msg_/), providerId: expect.any(String) });
    const mail = await eventually(async () => received.find((r) => r.raw.includes('Your receipt')));
    expect(mail.to).toEqual(['buyer@example.com']);
    expect(mail.raw).toMatch(/Content-Type: text\/plain/i);
    expect(mail.raw).toMatch(/Content-Type: text\/html/i);
    expect(mail.raw).toContain('<strong>order</strong>');
    expect(mail.raw).toContain('Thanks for the order.');
    const [row] = await t.db.query(`SELECT send_state, provider_id FROM messages WHERE id = $1`, [answer.body.id]);
    expect(row).toEqual({ send_state: 'sent', provider_id: answer.body.providerId });
  });
});

describe("with Resend's API (a local stand-in)", () => {
  let stand: Server;
  let url: string;
  const posts: Array<{ path: string; auth: string; body: any }> = [];
  let received: unknown = {};
  beforeAll(async () => {
    stand = createServer((req: IncomingMessage, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        posts.push({ path: req.url!, auth: String(req.headers.authorization), body: JSON.parse(raw || '{}') });
        const answer = (body: unknown) =>
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        // Resend's received email: the webhook names it, its text and headers are fetched here.
        if (req.method === 'GET' && req.url!.startsWith('/emails/receiving/')) return answer(received);
        const id = `re_${posts.length}`;
        if (String(posts.at(-1)!.body.subject).startsWith('Slow')) return void setTimeout(() => answer({ id }), 7_000);
        if (String(posts.at(-1)!.body.subject).startsWith('Broken'))
          return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"stand-in is down"}');
        answer({ id });
      });
    });
    await new Promise<void>((r) => stand.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(stand.address() as AddressInfo).port}`;
  });
  afterAll(() => stand.close());
  const t = useApp({
    worker: true,
    env: () => ({ RESEND_API_KEY: 're_test_key', RESEND_API_URL: url, EMAIL_WEBHOOK_SECRET: DOOR_SECRET }),
  });

  it('posts to /emails with the key and answers with the provider id', async () => {
    const ws = await t.workspace();
    await event(t, ws.secretKey, { type: 'signup', email: 'r@example.com' });
    const answer = await send(t, ws.secretKey, { to: 'r@example.com', subject: 'Via Resend', body: 'Hello there' });
    expect(answer.body.providerId).toMatch(/^re_\d+$/);
    const post = posts.find((p) => p.body.subject === 'Via Resend')!;
    expect(post.path).toBe('/emails');
    expect(post.auth).toBe('Bearer re_test_key');
    expect(post.body).toMatchObject({
      to: ['r@example.com'],
      subject: 'Via Resend',
      text: expect.stringContaining('Hello there'),
      html: expect.stringContaining('Hello there'),
    });
  });

  it('a reply arrives as Resend sends it: the webhook names the email, its text and In-Reply-To are fetched', async () => {
    const ws = await t.workspace();
    await event(t, ws.secretKey, { type: 'signup', email: 'asker@example.com' });
    const sent = (
      await send(t, ws.secretKey, { to: 'asker@example.com', subject: 'Question', body: 'How is it going?' })
    ).body;
    received = { id: 'in_42', text: 'Going well, thanks.', headers: { 'in-reply-to': `<${sent.providerId}>` } };
    const payload = JSON.stringify({
      type: 'email.received',
      data: { email_id: 'in_42', from: 'asker@example.com', to: ['hello@lifeline.test'], subject: 'Re: Question' },
    });
    const at = new Date();
    const headers = {
      'webhook-id': 'msg_resend_reply',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(DOOR_SECRET).sign('msg_resend_reply', at, payload),
    };
    expect((await t.request('POST', '/api/webhooks/email', { raw: payload, headers })).body).toEqual({
      ok: true,
      status: 'recorded',
    });
    expect(posts.some((p) => p.path === '/emails/receiving/in_42')).toBe(true);
    const thread = await t.request('GET', '/api/v1/people/asker@example.com/messages', { key: ws.secretKey });
    expect(thread.body.messages.map((m: { direction: string; text: string }) => [m.direction, m.text])).toEqual([
      ['out', expect.stringContaining('How is it going?')],
      ['in', 'Going well, thanks.'],
    ]);
  });

  it("a provider that keeps failing: three tries, then the message is failed with the provider's words", async () => {
    const ws = await t.workspace();
    await event(t, ws.secretKey, { type: 'signup', email: 'unlucky@example.com' });
    const answer = await send(t, ws.secretKey, {
      to: 'unlucky@example.com',
      subject: 'Broken send',
      body: 'Will not leave',
    });
    expect(answer.body).toEqual({ ok: true, id: expect.stringMatching(/^msg_/) });
    await eventually(
      async () =>
        (await t.db.query(`SELECT send_state FROM messages WHERE id = $1`, [answer.body.id]))[0].send_state ===
        'failed',
      25_000,
      200,
    );
    expect(posts.filter((p) => p.body.subject === 'Broken send')).toHaveLength(3);
    const [row] = await t.db.query(`SELECT send_error FROM messages WHERE id = $1`, [answer.body.id]);
    expect(row.send_error).toContain('stand-in is down');
  }, 40_000);

  it('a slow provider: the answer comes within about 5 s without providerId, and the email still leaves', async () => {
    const ws = await t.workspace();
    await event(t, ws.secretKey, { type: 'signup', email: 'patient@example.com' });
    const started = Date.now();
    const answer = await send(t, ws.secretKey, {
      to: 'patient@example.com',
      subject: 'Slow one',
      body: 'Take your time',
    });
    expect(Date.now() - started).toBeLessThan(6_500);
    expect(answer.body).toEqual({ ok: true, id: expect.stringMatching(/^msg_/) });
    await eventually(
      async () =>
        (await t.db.query(`SELECT send_state FROM messages WHERE id = $1`, [answer.body.id]))[0].send_state === 'sent',
      15_000,
      200,
    );
  }, 30_000);
});

describe('POST /api/v1/messages shares the 600 per ten minutes per key limit with events', () => {
  it('after 600 posts of either kind a message answers 429 rate_limited and nothing is written', async () => {
    const t = await startApp();
    try {
      const ws = await t.workspace();
      await event(t, ws.secretKey, { type: 'signup', email: 'lim@example.com' });
      for (let i = 0; i < 599; i += 50) {
        await Promise.all(
          Array.from({ length: Math.min(50, 599 - i) }, () =>
            t.request('POST', '/api/v1/events', { key: ws.secretKey, body: { type: 'x' } }),
          ),
        );
      }
      const answer = await send(t, ws.secretKey, { to: 'lim@example.com', subject: 'Too many', body: 'Hello' });
      expect(answer.status).toBe(429);
      expect(answer.body.error).toBe('rate_limited');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      const rows = await t.db.query(`SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1`, [
        ws.workspace.id,
      ]);
      expect(rows[0].n).toBe(0);
    } finally {
      await t.close();
    }
  });
});
