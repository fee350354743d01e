// Complaints and bounces through the signed email door (docs/decisions.md#bounces-and-complaints): a complaint takes
// the person off every list and opts them out; a permanent bounce marks the address undeliverable, so later sends are
// refused undeliverable until the person has another address or an owner lifts it; a soft bounce marks nothing.
import { Webhook } from 'standardwebhooks';
import { memberKey, useApp, useWorkspace } from './harness';
import { useSmtp } from './support/smtp';

const SECRET = 'whsec_' + Buffer.from('lifeline-email-bounce-test-secret').toString('base64');
const smtp = useSmtp();
const t = useApp({ worker: true, env: () => ({ EMAIL_WEBHOOK_SECRET: SECRET, SMTP_URL: smtp.url }) });
const ws = useWorkspace(t, {}, 'all');
let n = 0;

function door(payload: unknown) {
  const raw = JSON.stringify(payload);
  const id = `msg_bounce_${++n}`;
  const timestamp = new Date();
  return t.request('POST', '/api/webhooks/email', {
    raw,
    headers: {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': new Webhook(SECRET).sign(id, timestamp, raw),
    },
  });
}
const post = (body: unknown) => t.request('POST', '/api/v1/events', { key: ws.secretKey, body });
const send = (to: string) =>
  t.request('POST', '/api/v1/messages', { key: ws.secretKey, body: { to, subject: 'Hello there', body: 'A note.' } });
async function sent(to: string): Promise<string> {
  const answer = await send(to);
  expect(answer.body.providerId).toBeTruthy();
  return answer.body.providerId;
}
const bounced = (providerId: string, bounce?: unknown) =>
  door({
    type: 'email.bounced',
    created_at: new Date().toISOString(),
    data: { email_id: providerId, ...(bounce ? { bounce } : {}) },
  });

beforeAll(async () => {
  await t.gql('mutation { createList(input: { address: "news", name: "News" }) { id } }', {}, ws.secretKey);
  await t.gql('mutation { createList(input: { address: "tips", name: "Tips" }) { id } }', {}, ws.secretKey);
});

it('email.complained takes the person off every list (complaint) and opts them out: a later send is refused opted_out', async () => {
  for (const list of ['news', 'tips'])
    await post({ type: 'subscribe', email: 'cara@example.com', list, consent: { text: `Yes to ${list}.` } });
  const providerId = await sent('cara@example.com');
  expect((await door({ type: 'email.complained', data: { email_id: providerId } })).body).toEqual({
    ok: true,
    status: 'recorded',
  });
  const rows = await t.db.query(
    `SELECT s.status, s.withdrawn_via FROM subscriptions s JOIN people p ON p.workspace_id = s.workspace_id
       AND p.id = s.person_id WHERE s.workspace_id = $1 AND p.email = 'cara@example.com'`,
    [ws.workspace.id],
  );
  expect(rows).toEqual([
    { status: 'unsubscribed', withdrawn_via: 'complaint' },
    { status: 'unsubscribed', withdrawn_via: 'complaint' },
  ]);
  const refused = await send('cara@example.com');
  expect(refused.status).toBe(422);
  expect(refused.body).toMatchObject({ ok: false, error: 'opted_out' });
});

it('a permanent bounce marks the address undeliverable: later sends are refused undeliverable, shown on the person, lifted by an owner', async () => {
  await post({ type: 'signup', email: 'hard@example.com' });
  const providerId = await sent('hard@example.com');
  await bounced(providerId, { type: 'Permanent', subType: 'General', message: 'No such mailbox' });
  const refused = await send('hard@example.com');
  expect(refused.status).toBe(422);
  expect(refused.body).toMatchObject({ ok: false, error: 'undeliverable' });
  expect(refused.body.message).toMatch(/hard@example\.com bounced permanently.*another address/);

  const STANDING =
    'query { person(email: "hard@example.com") { emailStanding { optOut { at } undeliverable { address } } } }';
  expect((await t.gql(STANDING, {}, ws.secretKey)).data.person.emailStanding).toEqual({
    optOut: null,
    undeliverable: { address: 'hard@example.com' },
  });
  const exported = await t.request('GET', '/api/v1/people/hard@example.com/export', { key: ws.secretKey });
  expect(exported.status).toBe(200);
  expect(JSON.stringify(exported.body)).toMatch(
    /"emailStandings".*"kind":"undeliverable".*"address":"hard@example\.com"/,
  );
  const lifted = await t.gql(
    'mutation { liftUndeliverable(person: "hard@example.com") { undeliverable { address } } }',
    {},
    ws.secretKey,
  );
  expect(lifted.data.liftUndeliverable).toEqual({ undeliverable: null });
  expect((await send('hard@example.com')).body).toMatchObject({ ok: true });
});

it('a soft bounce (Transient) marks nothing: the next send goes', async () => {
  await post({ type: 'signup', email: 'full@example.com' });
  const providerId = await sent('full@example.com');
  expect((await bounced(providerId, { type: 'Transient', subType: 'MailboxFull' })).body.status).toBe('recorded');
  expect((await send('full@example.com')).body).toMatchObject({ ok: true });
});

it('a member may not lift: only owners and admins change the standing', async () => {
  await post({ type: 'signup', email: 'member-lift@example.com' });
  const providerId = await sent('member-lift@example.com');
  await bounced(providerId);
  const member = await t.gql(
    'mutation { liftUndeliverable(person: "member-lift@example.com") { undeliverable { address } } }',
    {},
    (await memberKey(t, ws, 'reader@example.com')).secretKey,
  );
  expect(member.errors?.[0].extensions?.code).toBe('forbidden');
  expect((await send('member-lift@example.com')).body).toMatchObject({ error: 'undeliverable' });
});
