// The email door (docs/rest.md#third-party-doors, its last row): Standard Webhooks
// signatures; delivery, open, click, bounce and complaint set a sent message's status; a received
// email records a reply (direction in, engaged, email_in); replays of a webhook id change nothing.
import { Webhook } from 'standardwebhooks';
import { startApp, useApp, useWorkspace } from './harness';
import { happeningsOf } from './support/outbox';
import { useSmtp } from './support/smtp';

const SECRET = 'whsec_' + Buffer.from('lifeline-email-door-test-secret').toString('base64');
const smtp = useSmtp();
const t = useApp({ worker: true, env: () => ({ EMAIL_WEBHOOK_SECRET: SECRET, SMTP_URL: smtp.url }) });
const ws = useWorkspace(t);
let n = 0;

function signed(payload: unknown, secret = SECRET, id = `msg_${++n}`) {
  const body = JSON.stringify(payload);
  const timestamp = new Date();
  const signature = new Webhook(secret).sign(id, timestamp, body);
  return {
    raw: body,
    headers: {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': signature,
    },
  };
}
const door = (s: { raw: string; headers: Record<string, string> }) =>
  t.request('POST', '/api/webhooks/email', { raw: s.raw, headers: s.headers });

async function sentMessage(email: string) {
  await t.request('POST', '/api/v1/events', { key: ws.secretKey, body: { type: 'signup', email } });
  const answer = await t.request('POST', '/api/v1/messages', {
    key: ws.secretKey,
    body: { to: email, subject: 'Hello there', body: 'First note' },
  });
  expect(answer.body.providerId).toBeTruthy();
  return answer.body as { id: string; providerId: string };
}
const status = async (id: string) => (await t.db.query(`SELECT status FROM messages WHERE id = $1`, [id]))[0].status;

it('delivered, opened, clicked set the status; a late delivered does not undo opened; bounced wins', async () => {
  const sent = await sentMessage('s@example.com');
  const post = (type: string) =>
    door(signed({ type, created_at: new Date().toISOString(), data: { email_id: sent.providerId } }));
  expect((await post('email.delivered')).body).toEqual({ ok: true, status: 'recorded' });
  expect(await status(sent.id)).toBe('delivered');
  await post('email.opened');
  await post('email.delivered');
  expect(await status(sent.id)).toBe('opened');
  await post('email.clicked');
  expect(await status(sent.id)).toBe('clicked');
  await post('email.bounced');
  expect(await status(sent.id)).toBe('bounced');
  const page = await t.request('GET', '/api/v1/messages', { key: ws.secretKey });
  expect(page.body.messages[0]).toMatchObject({ id: sent.id, providerId: sent.providerId, status: 'bounced' });
});

it('complained sets the status', async () => {
  const sent = await sentMessage('c@example.com');
  await door(signed({ type: 'email.complained', data: { email_id: sent.providerId } }));
  expect(await status(sent.id)).toBe('complained');
});

it('a bad signature answers 401 invalid_signature and writes nothing', async () => {
  const sent = await sentMessage('b@example.com');
  const forged = signed(
    { type: 'email.delivered', data: { email_id: sent.providerId } },
    'whsec_' + Buffer.from('someone-else').toString('base64'),
  );
  const answer = await door(forged);
  expect(answer.status).toBe(401);
  expect(answer.body.error).toBe('invalid_signature');
  const tampered = signed({ type: 'email.delivered', data: { email_id: sent.providerId } });
  tampered.raw = tampered.raw.replace('delivered', 'clicked');
  expect((await door(tampered)).status).toBe(401);
  expect((await door({ raw: '{}', headers: {} })).status).toBe(401);
  expect(await status(sent.id)).toBeNull();
});

it('a signature older or newer than five minutes is refused; svix-* headers work like webhook-*', async () => {
  const sent = await sentMessage('t@example.com');
  const body = JSON.stringify({ type: 'email.delivered', data: { email_id: sent.providerId } });
  for (const skew of [-6 * 60_000, 6 * 60_000]) {
    const at = new Date(Date.now() + skew);
    const id = `msg_skew_${skew}`;
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(SECRET).sign(id, at, body),
    };
    const answer = await door({ raw: body, headers });
    expect(answer.status).toBe(401);
    expect(answer.body.error).toBe('invalid_signature');
  }
  expect(await status(sent.id)).toBeNull();
  const ok = signed({ type: 'email.delivered', data: { email_id: sent.providerId } });
  const svix = {
    'svix-id': ok.headers['webhook-id'],
    'svix-timestamp': ok.headers['webhook-timestamp'],
    'svix-signature': ok.headers['webhook-signature'],
  };
  expect((await door({ raw: ok.raw, headers: svix })).body).toEqual({ ok: true, status: 'recorded' });
  expect(await status(sent.id)).toBe('delivered');
});

it('a replay of the same webhook id changes nothing', async () => {
  const sent = await sentMessage('r@example.com');
  const opened = signed({ type: 'email.opened', data: { email_id: sent.providerId } });
  await door(opened);
  await door(signed({ type: 'email.bounced', data: { email_id: sent.providerId } }));
  const replay = await door(opened);
  expect(replay.status).toBe(200);
  expect(replay.body).toEqual({ ok: true, status: 'replayed' });
  expect(await status(sent.id)).toBe('bounced');
});

it('a received email records a reply: direction in, the person engaged, email_in fired; its replay adds nothing', async () => {
  await t.request('POST', '/api/v1/events', {
    key: ws.secretKey,
    body: { type: 'pageview', email: 'quiet@example.com' },
  });
  await t.make.set('people', { engaged_at: new Date() }, { workspace_id: ws.workspace.id });
  const sent = await sentMessage('quiet@example.com');
  await t.make.set('people', { engaged_at: null }, { workspace_id: ws.workspace.id });
  const reply = signed({
    type: 'email.received',
    data: {
      email_id: 'inbound-1',
      from: 'Quiet Person <Quiet@Example.com>',
      to: ['hello@lifeline.test'],
      subject: 'Re: Hello there',
      text: 'Thanks, got it!',
      in_reply_to: sent.providerId,
    },
  });
  expect((await door(reply)).body).toEqual({ ok: true, status: 'recorded' });
  expect((await door(reply)).body).toEqual({ ok: true, status: 'replayed' });
  const thread = await t.request('GET', '/api/v1/people/quiet@example.com/messages', { key: ws.secretKey });
  expect(
    thread.body.messages.map((m: { direction: string; subject: string; text: string }) => [m.direction, m.subject]),
  ).toEqual([
    ['out', 'Hello there'],
    ['in', 'Re: Hello there'],
  ]);
  expect(thread.body.messages[1].text).toBe('Thanks, got it!');
  const [person] = await t.db.query(`SELECT engaged_at FROM people WHERE workspace_id = $1`, [ws.workspace.id]);
  expect(person.engaged_at).not.toBeNull();
  const happening = (await happeningsOf(t.db, ws.workspace.id)).find((h) => h.kind === 'email_in')!;
  expect(happening.payload.data.email_in.message).toMatchObject({
    subject: 'Re: Hello there',
    text: 'Thanks, got it!',
  });
  const timeline = await t.db.query(`SELECT type FROM events WHERE workspace_id = $1 AND type = 'email_received'`, [
    ws.workspace.id,
  ]);
  expect(timeline).toHaveLength(1);
});

it('a reply that names a message but comes from another address is not put on that person', async () => {
  const sent = await sentMessage('owner@example.com');
  const forged = signed({
    type: 'email.received',
    data: {
      email_id: 'inbound-forged',
      from: 'intruder@example.net',
      to: ['hello@lifeline.test'],
      subject: 'Re: Hello there',
      text: 'Let me in',
      in_reply_to: sent.providerId,
    },
  });
  expect((await door(forged)).body).toEqual({ ok: true, status: 'ignored' });
  const incoming = await t.db.query(
    `SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1 AND direction = 'in'`,
    [ws.workspace.id],
  );
  expect(incoming[0].n).toBe(0);
});

it('a thread asked for by an address with a percent sign answers no_such_person, not a failure', async () => {
  const answer = await t.request('GET', '/api/v1/people/odd%25name@example.com/messages', { key: ws.secretKey });
  expect(answer.status).toBe(404);
  expect(answer.body.error).toBe('no_such_person');
});

it('the sweep forgets webhook ids after a day, long past the signature tolerance', async () => {
  const sent = await sentMessage('kept@example.com');
  const first = signed({ type: 'email.delivered', data: { email_id: sent.providerId } });
  await door(first);
  const second = signed({ type: 'email.opened', data: { email_id: sent.providerId } });
  await door(second);
  await t.make.age('door_receipts', 'received_at', '25 hours', { webhook_id: first.headers['webhook-id'] });
  const { SweepRegistry } = await import('@app/platform');
  await t.worker!.get(SweepRegistry).runAll();
  const left = await t.db.query(`SELECT webhook_id FROM door_receipts WHERE webhook_id = ANY($1::text[])`, [
    [first.headers['webhook-id'], second.headers['webhook-id']],
  ]);
  expect(left).toEqual([{ webhook_id: second.headers['webhook-id'] }]);
});

it('an event type the door does not map answers ignored', async () => {
  expect((await door(signed({ type: 'domain.updated', data: { id: 'x' } }))).body).toEqual({
    ok: true,
    status: 'ignored',
  });
});

it('with EMAIL_WEBHOOK_SECRET unset the door answers 404', async () => {
  const off = await startApp();
  try {
    const answer = await off.request('POST', '/api/webhooks/email', { raw: '{}', headers: {} });
    expect(answer.status).toBe(404);
    expect(answer.body.error).toBe('not_found');
  } finally {
    await off.close();
  }
});
