// A broadcast through workers killed mid-send, twice: real workers as child processes, each SIGKILLed while the
// SMTP server holds emails without answering, several in flight at once; the next worker takes the dead one's claims
// over after the lease and sends the held ones again with the same Message-ID. No one gets it twice and no one is left
// out (docs/decisions.md#a-broadcast-sends-at-most-once-per-person-where-the-provider-confirms).
import type { INestApplicationContext } from '@nestjs/common';
import { SMTPServer } from 'smtp-server';
import { freePort } from '@app/platform';
import { createWorker } from '../apps/worker/src/bootstrap';
import { eventually, useApp, useWorkspace } from './harness';
import { broadcastCalls, header } from './support/broadcasts';
import { spawnWorker } from './support/child-worker';
import type { Mail } from './support/smtp';

/**
 * An SMTP server that records a mail once it has answered 250, and leaves unanswered the copies `held` names (by
 * address, how many of its first copies); the first mail to `flaky` gets 451 (try again later) and every mail to
 * `refused` 550 (no such mailbox).
 */
function holdingSmtp(held: Record<string, number>, flaky: string, refused: string) {
  const received: Mail[] = [];
  const seen: string[] = [];
  let port = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    closeTimeout: 500,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk) => (raw += chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address).join(',');
        seen.push(to);
        const copy = seen.filter((s) => s === to).length;
        // A held copy gets no answer: the worker waits in the provider call until it is killed.
        if (copy <= (held[to] ?? 0)) return;
        const reply = (code: number, text: string) => callback(Object.assign(new Error(text), { responseCode: code }));
        if (to === flaky && copy === 1) return reply(451, 'Try again later');
        if (to === refused) return reply(550, 'No such mailbox');
        received.push({ to: [to], raw });
        callback();
      });
    },
  });
  return {
    received,
    seen,
    copies: (to: string) => seen.filter((s) => s === to).length,
    get url() {
      return `smtp://127.0.0.1:${port}`;
    },
    start: async () => {
      port = await freePort();
      await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const PEOPLE = Array.from({ length: 24 }, (_, i) => `k${i}@example.com`);
// The first worker is killed holding both; the second holding the first again, once it sent the other.
const [TWICE, ONCE] = [PEOPLE[4], PEOPLE[17]];
const smtp = holdingSmtp({ [TWICE]: 2, [ONCE]: 1 }, 'flaky@example.com', 'refused@example.com');
beforeAll(() => smtp.start());
afterAll(() => smtp.close());

const env = () => ({
  SMTP_URL: smtp.url,
  EMAIL_FROM: 'Acme <news@acme.test>',
  BROADCAST_MESSAGES_PER_SECOND: '0',
  BROADCAST_SENDS_IN_FLIGHT: '4',
  BROADCAST_LEASE_MS: '1500',
  // A transient failure's retry waits half of this.
  RETRY_UNIT_MS: '200',
});
const t = useApp({ env });
const ws = useWorkspace(t);
const b = broadcastCalls(t, () => ws.secretKey);

/** The broadcast's rows by email: state, attempts and message id. */
async function rows(id: string): Promise<Record<string, { state: string; attempts: number; message_id: string }>> {
  const found = await t.db.query(
    `SELECT p.email, r.state, r.attempts, r.message_id FROM broadcast_recipients r
       JOIN people p ON p.workspace_id = r.workspace_id AND p.id = r.person_id WHERE r.broadcast_id = $1`,
    [id],
  );
  return Object.fromEntries(found.map((r: any) => [r.email, r]));
}

/** A child worker, killed once `killWhen` holds. */
async function killedWorker(killWhen: () => Promise<boolean>): Promise<void> {
  const { child, exited } = spawnWorker(t.config, env());
  try {
    // A child worker compiles the whole app as it starts: on a busy machine that alone takes a while.
    await eventually(killWhen, 60_000, 20);
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}

it('workers killed twice mid-send leave no one twice and no one out; a held email leaves again with its Message-ID', async () => {
  await b.gql('mutation { createList(input: { address: "news", name: "News" }) { id } }');
  await t.request('POST', '/api/v1/events', {
    key: ws.secretKey,
    body: {
      events: PEOPLE.map((email) => ({
        type: 'subscribe',
        email,
        list: 'news',
        consent: { text: 'Yes.', ip: '198.51.100.7' },
      })),
    },
  });
  await b.setPostalAddress('Acme Ltd, 1 Main Street');
  const id = (await b.create({ name: 'Killed', list: 'news', subject: 'Hi', body: 'Hello you.' })).data.createBroadcast
    .id;
  expect((await b.send(id)).data.sendBroadcast.audience).toBe(PEOPLE.length);

  // Killed while both held emails wait for the server, everyone else's settled.
  const settledBut = async (...open: string[]) => {
    const now = await rows(id);
    return PEOPLE.every((e) => (open.includes(e) ? now[e].state === 'sending' : now[e].state === 'sent'));
  };
  await killedWorker(async () => smtp.copies(TWICE) === 1 && smtp.copies(ONCE) === 1 && settledBut(TWICE, ONCE));
  const first = await rows(id);
  expect(smtp.received).toHaveLength(PEOPLE.length - 2);

  // The next one takes both over after the lease: one leaves, the other is held again, and it is killed too.
  await killedWorker(async () => smtp.copies(TWICE) === 2 && settledBut(TWICE));
  expect(smtp.received).toHaveLength(PEOPLE.length - 1);

  let worker: INestApplicationContext | null = null;
  try {
    worker = await createWorker(t.config);
    const done = await b.until(id, 'sent', 20_000);
    expect(done).toMatchObject({ audience: PEOPLE.length, sent: PEOPLE.length, failed: 0, skipped: 0 });
  } finally {
    await worker?.close();
  }
  for (const email of PEOPLE) expect(smtp.received.filter((m) => m.to.includes(email))).toHaveLength(1);
  for (const email of [TWICE, ONCE]) {
    const [mail] = smtp.received.filter((m) => m.to.includes(email));
    expect(header(mail, 'Message-ID')).toBe(`<${first[email].message_id}@acme.test>`);
  }
  const last = await rows(id);
  expect(last[TWICE]).toMatchObject({ state: 'sent', attempts: 3, message_id: first[TWICE].message_id });
  expect(last[ONCE]).toMatchObject({ state: 'sent', attempts: 2 });
  const messages = await t.db.query(
    `SELECT send_state, provider_id FROM messages WHERE broadcast_id = $1 ORDER BY provider_id`,
    [id],
  );
  expect(messages).toHaveLength(PEOPLE.length);
  expect(messages.every((m: any) => m.send_state === 'sent' && m.provider_id.endsWith('@acme.test'))).toBe(true);
}, 150_000);

it('a transient SMTP failure is retried for that recipient; a permanent one is recorded, with the reply', async () => {
  await b.gql('mutation { createList(input: { address: "news", name: "News" }) { id } }');
  for (const email of ['flaky@example.com', 'refused@example.com', 'fine@example.com'])
    await t.request('POST', '/api/v1/events', {
      key: ws.secretKey,
      body: { type: 'subscribe', email, list: 'news', consent: { text: 'Yes.', ip: '198.51.100.7' } },
    });
  await b.setPostalAddress('Acme Ltd, 1 Main Street');
  const id = (await b.create({ name: 'Flaky', list: 'news', subject: 'Hi', body: 'Hello you.' })).data.createBroadcast
    .id;
  await b.send(id);
  const worker = await createWorker(t.config);
  try {
    expect(await b.until(id, 'sent', 20_000)).toMatchObject({ audience: 3, sent: 2, failed: 1 });
  } finally {
    await worker.close();
  }
  const rows = await b.gql(
    `query($id: ID!) { broadcast(id: $id) { recipients { edges { node { state reason attempts person { email } } } } } }`,
    { id },
  );
  const byEmail = Object.fromEntries(
    rows.data.broadcast.recipients.edges.map((e: any) => [e.node.person.email, e.node]),
  );
  expect(byEmail['flaky@example.com']).toMatchObject({ state: 'sent', attempts: 2, reason: null });
  expect(byEmail['refused@example.com']).toMatchObject({ state: 'failed', attempts: 1 });
  expect(byEmail['refused@example.com'].reason).toContain('No such mailbox');
  expect(byEmail['fine@example.com']).toMatchObject({ state: 'sent', attempts: 1 });
  expect(smtp.received.filter((m) => m.to.includes('flaky@example.com'))).toHaveLength(1);
  const [message] = await t.db.query(
    `SELECT m.send_state, m.send_error FROM messages m JOIN broadcast_recipients r ON r.message_id = m.id
      JOIN people p ON p.workspace_id = r.workspace_id AND p.id = r.person_id WHERE p.email = 'refused@example.com'`,
  );
  expect(message.send_state).toBe('failed');
}, 60_000);
