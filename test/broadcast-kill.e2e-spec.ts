// A broadcast through a worker killed mid-send: the real worker as a child process is SIGKILLed while the SMTP server
// holds one email without answering; the next worker takes the dead one's claims over after the lease and sends the
// held one again with the same Message-ID. No one gets it twice and no one is left out
// (docs/decisions.md#a-broadcast-sends-at-most-once-per-person-where-the-provider-confirms).
import type { INestApplicationContext } from '@nestjs/common';
import { SMTPServer } from 'smtp-server';
import { freePort } from '@app/platform';
import { createWorker } from '../apps/worker/src/bootstrap';
import { eventually, useApp, useWorkspace } from './harness';
import { broadcastCalls, header } from './support/broadcasts';
import { spawnWorker } from './support/child-worker';
import type { Mail } from './support/smtp';

/**
 * An SMTP server that records a mail once it has answered 250, and leaves the first mail to `held` unanswered; the
 * first mail to `flaky` gets 451 (try again later) and every mail to `refused` 550 (no such mailbox).
 */
function holdingSmtp(held: string, flaky: string, refused: string) {
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
        const to = session.envelope.rcptTo.map((r) => r.address);
        seen.push(to.join(','));
        // The first copy to `held` gets no answer: the worker waits in the provider call until it is killed.
        if (to.includes(held) && seen.filter((s) => s === held).length === 1) return;
        const reply = (code: number, text: string) => callback(Object.assign(new Error(text), { responseCode: code }));
        if (to.includes(flaky) && seen.filter((s) => s === flaky).length === 1) return reply(451, 'Try again later');
        if (to.includes(refused)) return reply(550, 'No such mailbox');
        received.push({ to, raw });
        callback();
      });
    },
  });
  return {
    received,
    seen,
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

const PEOPLE = Array.from({ length: 10 }, (_, i) => `k${i}@example.com`);
const HELD = PEOPLE[4];
const smtp = holdingSmtp(HELD, 'flaky@example.com', 'refused@example.com');
beforeAll(() => smtp.start());
afterAll(() => smtp.close());

const env = () => ({
  SMTP_URL: smtp.url,
  EMAIL_FROM: 'Acme <news@acme.test>',
  BROADCAST_MESSAGES_PER_SECOND: '0',
  BROADCAST_LEASE_MS: '1500',
  // A transient failure's retry waits half of this.
  RETRY_UNIT_MS: '200',
});
const t = useApp({ env });
const ws = useWorkspace(t);
const b = broadcastCalls(t, () => ws.secretKey);

it('a worker killed mid-send leaves no one twice and no one out; the held email leaves again with its Message-ID', async () => {
  await b.gql('mutation { createList(input: { address: "news", name: "News" }) { id } }');
  for (const email of PEOPLE)
    await t.request('POST', '/api/v1/events', {
      key: ws.secretKey,
      body: { type: 'subscribe', email, list: 'news', consent: { text: 'Yes.', ip: '198.51.100.7' } },
    });
  await b.setPostalAddress('Acme Ltd, 1 Main Street');
  const id = (await b.create({ name: 'Killed', list: 'news', subject: 'Hi', body: 'Hello you.' })).data.createBroadcast
    .id;
  expect((await b.send(id)).data.sendBroadcast.audience).toBe(PEOPLE.length);

  const { child, exited } = spawnWorker(t.config, env());
  let worker: INestApplicationContext | null = null;
  try {
    // A child worker compiles the whole app as it starts: on a busy machine that alone takes a while.
    await eventually(async () => smtp.seen.includes(HELD), 60_000, 20);
    child.kill('SIGKILL');
    await exited;
    const [held] = await t.db.query(
      `SELECT r.state, r.message_id, m.send_state FROM broadcast_recipients r
         JOIN people p ON p.workspace_id = r.workspace_id AND p.id = r.person_id
         JOIN messages m ON m.workspace_id = r.workspace_id AND m.id = r.message_id
        WHERE r.broadcast_id = $1 AND p.email = $2`,
      [id, HELD],
    );
    expect(held).toMatchObject({ state: 'sending', send_state: 'sending' });
    expect(smtp.received.length).toBeLessThan(PEOPLE.length);

    worker = await createWorker(t.config);
    const done = await b.until(id, 'sent', 20_000);
    expect(done).toMatchObject({ audience: PEOPLE.length, sent: PEOPLE.length, failed: 0, skipped: 0 });
    for (const email of PEOPLE) expect(smtp.received.filter((m) => m.to.includes(email))).toHaveLength(1);
    const [again] = smtp.received.filter((m) => m.to.includes(HELD));
    expect(header(again, 'Message-ID')).toBe(`<${held.message_id}@acme.test>`);
    const rows = await t.db.query(
      `SELECT r.attempts, m.send_state, m.provider_id FROM broadcast_recipients r
         JOIN messages m ON m.workspace_id = r.workspace_id AND m.id = r.message_id WHERE m.id = $1`,
      [held.message_id],
    );
    expect(rows).toEqual([{ attempts: 2, send_state: 'sent', provider_id: `${held.message_id}@acme.test` }]);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await worker?.close();
  }
}, 90_000);

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
