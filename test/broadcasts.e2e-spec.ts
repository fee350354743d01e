// Broadcasts (docs/graphql.md#broadcasts): one email to a list or a segment, sent once to each person, over real
// SMTP (smtp-server), with the list headers, the footer, the DKIM signature and the refusals; a person who left or
// was erased before their turn gets nothing; pause, resume, cancel and a schedule; the tool door's two tools.
import { generateKeyPairSync } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { CONFIG, type AppConfig } from '@app/platform';
import { eventually, memberKey, useApp, useWorkspace } from './harness';
import { broadcastCalls, header, refusalOf } from './support/broadcasts';
import { verifyDkim } from './support/dkim';
import { mailPart, type Mail, useSmtp } from './support/smtp';

const DOOR_SECRET = 'whsec_' + Buffer.from('lifeline-broadcast-door-secret').toString('base64');
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const smtp = useSmtp();
const t = useApp({
  worker: true,
  env: () => ({
    SMTP_URL: smtp.url,
    EMAIL_FROM: 'Acme <news@acme.test>',
    BROADCAST_MESSAGES_PER_SECOND: '0',
    BROADCAST_LEASE_MS: '2000',
    EMAIL_WEBHOOK_SECRET: DOOR_SECRET,
    DKIM_DOMAIN: 'acme.test',
    DKIM_SELECTOR: 'lifeline1',
    DKIM_PRIVATE_KEY: pem.replace(/\n/g, '\\n'),
  }),
});
const ws = useWorkspace(t);
const b = broadcastCalls(t, () => ws.secretKey);
const ADDRESS = 'Acme Ltd\n1 Main Street\nSpringfield';

const post = (body: unknown) => t.request('POST', '/api/v1/events', { key: ws.secretKey, body });
const subscribe = (email: string, list = 'news') =>
  post({ type: 'subscribe', email, list, consent: { text: 'Send me the news.', ip: '198.51.100.7' } });
const makeList = (address = 'news') =>
  b.gql('mutation($input: CreateListInput!) { createList(input: $input) { id } }', {
    input: { address, name: 'The News' },
  });
const mailsTo = (email: string) => smtp.received.filter((m) => m.to.includes(email) && !isTest(m));
const isTest = (m: Mail) => /^Subject: \[Test\]/m.test(m.raw);
/** The worker's pace, changed for one test: the config object is the one its sender reads. */
const setPace = (perSecond: number) => {
  (t.worker!.get(CONFIG) as AppConfig).broadcastMessagesPerSecond = perSecond;
};

beforeEach(() => setPace(0));

async function listOf(emails: string[]) {
  await makeList();
  for (const email of emails) await subscribe(email);
  expect((await b.setPostalAddress(ADDRESS)).errors).toBeUndefined();
}

describe('a list send', () => {
  it('reaches each subscriber once, with List-Unsubscribe, List-Unsubscribe-Post, List-Id, a text part and the footer', async () => {
    const emails = ['ada@example.com', 'bo@example.com', 'cy@example.com'];
    await listOf([...emails, 'gone@example.com']);
    await post({ type: 'unsubscribe', email: 'gone@example.com', list: 'news' });
    const made = await b.create({
      name: 'March news',
      list: 'news',
      subject: 'News for {{ person.email }}',
      body: 'Hello **there**.',
    });
    expect(made.errors).toBeUndefined();
    expect(made.data.createBroadcast).toMatchObject({ state: 'draft', list: 'news', audience: null, sent: 0 });
    const id = made.data.createBroadcast.id;
    const sending = await b.send(id);
    expect(sending.errors).toBeUndefined();
    expect(sending.data.sendBroadcast).toMatchObject({ state: 'sending', audience: 3 });
    const done = await b.until(id);
    expect(done).toMatchObject({ audience: 3, sent: 3, failed: 0, skipped: 0, pending: 0 });
    for (const email of emails) {
      const mails = mailsTo(email);
      expect(mails).toHaveLength(1);
      const [mail] = mails;
      expect(header(mail, 'Subject')).toBe(`News for ${email}`);
      expect(header(mail, 'List-Unsubscribe')).toMatch(/^<http:\/\/[^>]+\/preferences\/[^>]+>$/);
      expect(header(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
      expect(header(mail, 'List-Id')).toBe(`<news.${ws.workspace.slug}.lifeline>`);
      expect(header(mail, 'Message-ID')).toMatch(/^<msg_[0-9A-Z]+@acme\.test>$/);
      const text = mailPart(mail, 'text/plain')!.replace(/\r\n/g, '\n');
      expect(text).toContain('Hello there.');
      expect(text).toContain('Acme Ltd\n1 Main Street\nSpringfield');
      expect(mailPart(mail, 'text/html')).toContain('Acme Ltd<br>1 Main Street<br>Springfield');
    }
    expect(mailsTo('gone@example.com')).toHaveLength(0);
    // Each email is a message on the person's timeline, naming the broadcast, its id the Message-ID's.
    const rows = await t.db.query(
      `SELECT m.id, m.send_state, m.provider_id, e.type FROM messages m
         JOIN events e ON e.workspace_id = m.workspace_id AND e.id = m.id
        WHERE m.workspace_id = $1 AND m.broadcast_id = $2`,
      [ws.workspace.id, id],
    );
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row).toMatchObject({ send_state: 'sent', type: 'email_sent' });
    const ids = emails.map((e) => header(mailsTo(e)[0], 'Message-ID')!.slice(1).split('@')[0]).sort();
    expect(rows.map((r: { id: string }) => r.id).sort()).toEqual(ids);
    const recipients = await b.gql(
      `query($id: ID!) { broadcast(id: $id) { recipients(first: 10, state: "sent") {
      edges { node { state sentAt messageId person { email } } } } } }`,
      { id },
    );
    expect(recipients.data.broadcast.recipients.edges.map((e: any) => e.node.person.email).sort()).toEqual(emails);
    // The one-click link of a list's broadcast takes the person off that list.
    const link = header(mailsTo('ada@example.com')[0], 'List-Unsubscribe')!.slice(1, -1);
    const clicked = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(clicked.status).toBeLessThan(300);
    const [subscription] = await t.db.query(
      `SELECT s.status FROM subscriptions s JOIN people p ON p.workspace_id = s.workspace_id AND p.id = s.person_id
        WHERE p.workspace_id = $1 AND p.email = 'ada@example.com'`,
      [ws.workspace.id],
    );
    expect(subscription.status).toBe('unsubscribed');
    // The file's first send starts the worker's render thread and its first DKIM signature: seconds on a busy machine.
  }, 90_000);

  it('a person who unsubscribed or was erased before their turn gets nothing, counted by reason', async () => {
    const emails = Array.from({ length: 8 }, (_, i) => `p${i}@example.com`);
    await listOf(emails);
    const id = (await b.create({ name: 'Slow', list: 'news', subject: 'Hi', body: 'Hello you.' })).data.createBroadcast
      .id;
    setPace(5);
    await b.send(id);
    // People go in id order (ids grow with time): the first has it while the last two are still to come.
    await eventually(async () => mailsTo('p0@example.com').length === 1, 5_000, 20);
    await post({ type: 'unsubscribe', email: 'p6@example.com', list: 'news' });
    const erased = await b.gql('mutation { erasePerson(person: "p7@example.com") { id } }');
    expect(erased.errors).toBeUndefined();
    const done = await b.until(id);
    expect(done).toMatchObject({ audience: 8, sent: 6, skipped: 2 });
    expect(done.skippedBy.sort((x: any, y: any) => x.reason.localeCompare(y.reason))).toEqual([
      { reason: 'erased', count: 1 },
      { reason: 'unsubscribed', count: 1 },
    ]);
    expect(mailsTo('p6@example.com')).toHaveLength(0);
    expect(mailsTo('p7@example.com')).toHaveLength(0);
    for (const email of emails.slice(0, 6)) expect(mailsTo(email)).toHaveLength(1);
  });
});

describe('a segment send', () => {
  it('goes to the members now, the preference page for all lists in List-Unsubscribe', async () => {
    await b.setPostalAddress(ADDRESS);
    for (const email of ['sa@example.com', 'sb@example.com']) await post({ type: 'signup', email });
    await post({ type: 'pageview', email: 'lurker@example.com' });
    const segment = await b.gql('mutation($input: CreateSegmentInput!) { createSegment(input: $input) { id } }', {
      input: { name: 'Engaged', definition: { engaged: true } },
    });
    const segmentId = segment.data.createSegment.id;
    await eventually(async () => {
      const answer = await b.gql('query($id: ID!) { segment(id: $id) { filling count } }', { id: segmentId });
      return !answer.data.segment.filling && answer.data.segment.count === 2;
    });
    const made = await b.create({ name: 'To the engaged', segment: segmentId, subject: 'Hi', body: 'For members.' });
    expect(made.data.createBroadcast).toMatchObject({ segment: segmentId, list: null });
    await b.send(made.data.createBroadcast.id);
    expect(await b.until(made.data.createBroadcast.id)).toMatchObject({ audience: 2, sent: 2 });
    const [mail] = mailsTo('sa@example.com');
    expect(mailsTo('sb@example.com')).toHaveLength(1);
    expect(mailsTo('lurker@example.com')).toHaveLength(0);
    expect(header(mail, 'List-Id')).toBe(`<${segmentId.toLowerCase()}.${ws.workspace.slug}.lifeline>`);
    expect(header(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  });
});

describe('pause, resume and cancel', () => {
  it('a paused broadcast sends nothing until resumed; a cancelled one sends nothing more', async () => {
    const emails = Array.from({ length: 6 }, (_, i) => `q${i}@example.com`);
    await listOf(emails);
    const id = (await b.create({ name: 'Paced', list: 'news', subject: 'Hi', body: 'Hello you.' })).data.createBroadcast
      .id;
    setPace(5);
    await b.send(id);
    await eventually(async () => mailsTo('q0@example.com').length === 1, 5_000, 20);
    const paused = await b.pause(id);
    expect(paused.data.pauseBroadcast.state).toBe('paused');
    await new Promise((r) => setTimeout(r, 300)); // the one leaving at the pause settles
    const sentAtPause = (await b.get(id)).sent;
    await new Promise((r) => setTimeout(r, 600));
    expect((await b.get(id)).sent).toBe(sentAtPause);
    expect(refusalOf(await b.pause(id))).toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('paused'),
    });
    expect((await b.resume(id)).data.resumeBroadcast.state).toBe('sending');
    await eventually(async () => (await b.get(id)).sent > sentAtPause, 5_000, 20);
    const cancelled = await b.cancel(id);
    expect(cancelled.data.cancelBroadcast.state).toBe('cancelled');
    await new Promise((r) => setTimeout(r, 500));
    const final = await b.get(id);
    expect(final.sent + final.cancelled).toBe(6);
    expect(final.cancelled).toBeGreaterThan(0);
    const reached = emails.filter((e) => mailsTo(e).length > 0);
    expect(reached).toHaveLength(final.sent);
    for (const email of emails) expect(mailsTo(email).length).toBeLessThanOrEqual(1);
    expect(refusalOf(await b.resume(id))).toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('cancelled'),
    });
    expect(refusalOf(await b.send(id))).toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('cancelled'),
    });
  });
});

describe('refusals', () => {
  it('no postal address, both list and segment, neither, an unknown template, and a member role', async () => {
    await makeList();
    const id = (await b.create({ name: 'Early', list: 'news', subject: 'Hi', body: 'Hello.' })).data.createBroadcast.id;
    expect(refusalOf(await b.send(id))).toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('postalAddress'),
    });
    expect((await b.get(id)).state).toBe('draft');
    expect(refusalOf(await b.setPostalAddress('x'.repeat(501)))).toMatchObject({
      code: 'invalid_field',
      message: expect.stringContaining('postalAddress'),
    });
    expect(
      refusalOf(await b.create({ name: 'Both', list: 'news', segment: 'seg_x', subject: 'Hi', body: 'Hey.' })).code,
    ).toBe('invalid_field');
    expect(refusalOf(await b.create({ name: 'Neither', subject: 'Hi', body: 'Hey.' })).code).toBe('invalid_field');
    expect(refusalOf(await b.create({ name: 'T', list: 'news', template: 'nope' }))).toMatchObject({
      code: 'unknown_template',
      message: expect.stringContaining('"nope"'),
    });
    expect(refusalOf(await b.create({ name: 'L', list: 'nolist', subject: 'Hi', body: 'Hey.' })).code).toBe(
      'unknown_list',
    );
    expect(refusalOf(await b.create({ name: 'S', list: 'news', subject: 'x', body: 'Hey.' })).code).toBe(
      'invalid_subject',
    );
    expect(refusalOf(await b.create({ name: 'Liquid', list: 'news', subject: 'Hi', body: '{% if %}' })).code).toBe(
      'invalid_field',
    );
    const member = await memberKey(t, ws, 'reader@acme.test');
    const asMember = broadcastCalls(t, () => member.secretKey);
    expect(refusalOf(await asMember.create({ name: 'Mine', list: 'news', subject: 'Hi', body: 'Hey.' })).code).toBe(
      'forbidden',
    );
    expect(refusalOf(await asMember.send(id)).code).toBe('forbidden');
    expect((await asMember.get(id)).name).toBe('Early');
    const badState = await b.gql(
      'query($id: ID!) { broadcast(id: $id) { recipients(state: "lost") { edges { cursor } } } }',
      {
        id,
      },
    );
    expect(refusalOf(badState)).toMatchObject({ code: 'invalid_field', message: expect.stringContaining('queued') });
  });
});

describe('a test send', () => {
  it("goes to the signed-in member's address only, marked [Test], and counts nothing", async () => {
    await listOf(['real@example.com']);
    const id = (await b.create({ name: 'Try', list: 'news', subject: 'Hi {{ person.email }}', body: 'Hello.' })).data
      .createBroadcast.id;
    const answer = await b.gql('mutation($id: ID!) { sendBroadcastTest(id: $id) }', { id });
    expect(answer.errors).toBeUndefined();
    const owner = answer.data.sendBroadcastTest;
    const mail = await eventually(async () => smtp.received.find((m) => m.to.includes(owner) && isTest(m)));
    expect(header(mail, 'Subject')).toBe(`[Test] Hi ${owner}`);
    expect(mailPart(mail, 'text/plain')).toContain('Springfield');
    const other = await b.gql('mutation($id: ID!) { sendBroadcastTest(id: $id, email: "stranger@example.com") }', {
      id,
    });
    expect(refusalOf(other).code).toBe('invalid_field');
    expect(await b.get(id)).toMatchObject({ state: 'draft', sent: 0 });
  });
});

describe('the tool door', () => {
  const tool = async (name: string, args: Record<string, unknown> = {}) => {
    const answer = await t.request('POST', '/api/mcp', {
      key: ws.secretKey,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
    });
    return answer.body.result as { isError?: boolean; structuredContent: any; content: Array<{ text: string }> };
  };

  it('list_broadcasts and get_broadcast answer what GraphQL does', async () => {
    await listOf(['tool@example.com']);
    const id = (await b.create({ name: 'Tools', list: 'news', subject: 'Hi', body: 'Hello.' })).data.createBroadcast.id;
    await b.send(id);
    await b.until(id);
    expect((await tool('list_broadcasts')).structuredContent.broadcasts).toEqual([
      expect.objectContaining({ id, name: 'Tools', state: 'sent', list: 'news', audience: 1 }),
    ]);
    const got = (await tool('get_broadcast', { id })).structuredContent.broadcast;
    expect(got).toMatchObject({ id, subject: 'Hi', counts: { sent: 1, skipped: 0, pending: 0 }, opened: 0 });
    const missing = await tool('get_broadcast', { id: 'bc_nothing' });
    expect(missing.isError).toBe(true);
    expect(missing.content[0].text).toContain('list_broadcasts');
  });
});

describe('a draft changed, then scheduled', () => {
  it('updateBroadcast changes a draft; a scheduled broadcast starts at its time with its audience then', async () => {
    await listOf(['early@example.com']);
    const id = (await b.create({ name: 'Later', list: 'news', subject: 'First', body: 'Hello.' })).data.createBroadcast
      .id;
    const updated = await b.gql(
      'mutation($id: ID!) { updateBroadcast(id: $id, input: { subject: "Second", name: "Later on" }) { name subject list } }',
      { id },
    );
    expect(updated.data.updateBroadcast).toEqual({ name: 'Later on', subject: 'Second', list: 'news' });
    const at = new Date(Date.now() + 1_500).toISOString();
    const scheduled = await b.gql(
      'mutation($id: ID!, $at: DateTime!) { scheduleBroadcast(id: $id, at: $at) { state scheduledAt } }',
      {
        id,
        at,
      },
    );
    expect(scheduled.data.scheduleBroadcast).toEqual({ state: 'scheduled', scheduledAt: at });
    await subscribe('late@example.com');
    expect((await b.get(id)).state).toBe('scheduled');
    const done = await b.until(id);
    expect(done).toMatchObject({ audience: 2, sent: 2 });
    expect(new Date(done.startedAt).getTime()).toBeGreaterThanOrEqual(new Date(at).getTime());
    expect(header(mailsTo('late@example.com')[0], 'Subject')).toBe('Second');
    const late = await b.gql('mutation($id: ID!) { updateBroadcast(id: $id, input: { name: "x" }) { id } }', { id });
    expect(refusalOf(late)).toMatchObject({ code: 'conflict', message: expect.stringContaining('sent') });
  });
});

describe('DKIM (docs/email.md#what-lifeline-signs)', () => {
  it('a broadcast email is signed with d= and s=, the signature verifies and covers List-Unsubscribe and List-Id', async () => {
    await listOf(['signed@example.com']);
    const id = (await b.create({ name: 'Signed', list: 'news', subject: 'Hi', body: 'Hello **you**.' })).data
      .createBroadcast.id;
    await b.send(id);
    await b.until(id);
    const [mail] = mailsTo('signed@example.com');
    const check = verifyDkim(mail.raw, publicKey);
    expect(check.tags).toMatchObject({ a: 'rsa-sha256', d: 'acme.test', s: 'lifeline1' });
    expect(check.bodyHashMatches).toBe(true);
    expect(check.signatureVerifies).toBe(true);
    const signed = check.tags.h.toLowerCase().split(':');
    expect(signed).toEqual(expect.arrayContaining(['from', 'subject', 'message-id', 'list-unsubscribe', 'list-id']));
    // A changed header breaks it.
    expect(verifyDkim(mail.raw.replace(/^Subject: Hi/m, 'Subject: Ho'), publicKey).signatureVerifies).toBe(false);
    // The key is in no answer.
    const answer = await b.gql('{ workspace { id postalAddress } broadcasts { edges { node { id subject body } } } }');
    expect(JSON.stringify(answer)).not.toContain(pem.split('\n')[1]);
  });
});

describe('after the send (docs/graphql.md#broadcasts)', () => {
  let door = 0;
  const toDoor = (payload: unknown) => {
    const raw = JSON.stringify(payload);
    const at = new Date();
    const headers = {
      'webhook-id': `door_${++door}`,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(DOOR_SECRET).sign(`door_${door}`, at, raw),
    };
    return t.request('POST', '/api/webhooks/email', { raw, headers });
  };

  it("the email door's opened and clicked count on the broadcast, and a reply threads onto its email", async () => {
    await listOf(['o1@example.com', 'o2@example.com']);
    const id = (await b.create({ name: 'Door', list: 'news', subject: 'Hello there', body: 'Hi.' })).data
      .createBroadcast.id;
    await b.send(id);
    await b.until(id);
    const providerId = (email: string) => header(mailsTo(email)[0], 'Message-ID')!.slice(1, -1);
    await toDoor({ type: 'email.opened', data: { email_id: providerId('o1@example.com') } });
    await toDoor({ type: 'email.clicked', data: { email_id: providerId('o2@example.com') } });
    expect(await b.get(id)).toMatchObject({ opened: 2, clicked: 1 });
    const reply = await toDoor({
      type: 'email.received',
      data: {
        email_id: 'inbound-1',
        from: 'o1@example.com',
        to: ['news@acme.test'],
        subject: 'Re: Hello there',
        text: 'Thanks!',
        in_reply_to: providerId('o1@example.com'),
      },
    });
    expect(reply.body).toEqual({ ok: true, status: 'recorded' });
    const thread = await t.request('GET', '/api/v1/people/o1@example.com/messages', { key: ws.secretKey });
    expect(thread.body.messages.map((m: { direction: string; subject: string }) => [m.direction, m.subject])).toEqual([
      ['out', 'Hello there'],
      ['in', 'Re: Hello there'],
    ]);
  });
});
