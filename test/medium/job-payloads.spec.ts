// Versioned job payloads on a real BullMQ queue in the real Redis, run by the real email processor
// (docs/architecture.md#job-payloads): a payload queued by the previous release (no `v`) runs, a newer
// one is left in Redis for a worker of the newer release, an unreadable one fails without retry and the
// sweep queues its message again. The queue's keys are under this file's own prefix (lt:<its database>),
// and the medium tier runs no worker of its own, so only this file's worker takes these jobs.
import { getQueueToken } from '@nestjs/bullmq';
import { Job, Queue, Worker } from 'bullmq';
import { DoorReceiptsRepository } from '@app/edge';
import { EmailProvider, EmailStandingService, MessagesRepository, OutgoingMail } from '@app/messaging';
import { SweepRegistry } from '@app/platform';
import { enqueueOptions } from '../../libs/messaging/src/email-queue';
import { EmailProcessor } from '../../libs/messaging/src/jobs/email.processor';
import { SEND_EMAIL, SEND_EMAIL_JOB } from '../../libs/messaging/src/jobs/email.job';
import { eventually } from '../harness';
import { useMedium } from './medium';

// Before useMedium's, so it runs while the medium tier's queue is still open (afterAll runs in this order).
afterAll(async () => {
  await worker?.close();
  await queue?.obliterate({ force: true });
});
const t = useMedium();
let ws: string;
let person: string;
let queue: Queue;
let worker: Worker;
const sent: OutgoingMail[] = [];
/** The provider's side of the world: records what left and answers an id, as Resend would. */
const provider: EmailProvider = {
  name: 'recorder',
  send: (mail) => (sent.push(mail), Promise.resolve({ providerId: `p-${sent.length}` })),
};
let processor: EmailProcessor;
/** The processor's own sweeps (unsent email among them), run here as the minute sweep would. */
const sweeps = new SweepRegistry();

beforeAll(async () => {
  ws = (await t.make.workspace()).id;
  person = (await t.make.person(ws)).id;
  queue = t.get<Queue>(getQueueToken(SEND_EMAIL.queue));
  expect(queue.opts.prefix).toBe(t.config.redisPrefix); // lt:<this file's database>
  processor = new EmailProcessor(
    t.get(MessagesRepository),
    provider,
    t.config,
    queue,
    sweeps,
    t.get(DoorReceiptsRepository),
    t.get(EmailStandingService),
  );
  processor.onModuleInit();
  // The worker's processing path: BullMQ hands the processor the job and its lock token, as WorkerHost does.
  worker = new Worker(SEND_EMAIL.queue, (job, token) => processor.process(job, token), {
    connection: queue.opts.connection,
    prefix: queue.opts.prefix,
  });
  await worker.waitUntilReady();
});

const queuedMessage = async () =>
  (await t.make.message(ws, person, { sendState: 'queued', address: 'ada@example.com' })).id as string;
const sendState = async (id: string) =>
  (await t.db.query(`SELECT send_state, provider_id FROM messages WHERE id = $1`, [id]))[0];
const stateOf = async (id: string) => (await queue.getJob(id))?.getState();

it('runs a payload without v, the shape the previous release queued, as version 1', async () => {
  const id = await queuedMessage();
  await queue.add(SEND_EMAIL_JOB, { workspaceId: ws, messageId: id }, enqueueOptions(id));
  await eventually(async () => (await sendState(id)).send_state === 'sent');
  expect(sent.filter((mail) => mail.headers?.['X-Lifeline-Message'] === id)).toHaveLength(1);
  expect((await sendState(id)).provider_id).toMatch(/^p-\d+$/);
});

it('leaves a payload of a newer version in Redis for a newer worker: not run, not completed, not failed', async () => {
  const id = await queuedMessage();
  const newer = { workspaceId: ws, messageId: id, v: SEND_EMAIL.version + 1, cc: 'grace@example.com' };
  await queue.add(SEND_EMAIL_JOB, newer, enqueueOptions(id));
  // Taken by this worker and put back: delayed, its attempts untouched, its payload as the newer release wrote it.
  await eventually(
    async () => (await stateOf(id)) === 'delayed' && ((await queue.getJob(id)) as Job).attemptsStarted > 0,
  );
  const job = (await queue.getJob(id)) as Job;
  expect(job.attemptsMade).toBe(0);
  expect(job.data).toEqual(newer);
  expect(job.failedReason).toBeUndefined();
  expect(await sendState(id)).toEqual({ send_state: 'queued', provider_id: null });
  expect(sent.some((mail) => mail.headers?.['X-Lifeline-Message'] === id)).toBe(false);
  // Due again, it is there for whichever worker takes it next.
  await job.promote();
  expect(['waiting', 'active', 'delayed']).toContain(await stateOf(id));
});

it('fails an unreadable payload of its own version without retry, and the sweep queues the message again', async () => {
  const id = await queuedMessage();
  await queue.add(SEND_EMAIL_JOB, { workspaceId: ws, id, v: SEND_EMAIL.version }, enqueueOptions(id));
  await eventually(async () => (await stateOf(id)) === 'failed');
  const job = (await queue.getJob(id)) as Job;
  expect(job.attemptsMade).toBe(1); // of enqueueOptions' 3: an UnrecoverableError is not retried
  expect(job.failedReason).toBe(
    'Job email/send-email: the payload is version 1 (this process serves version 1) and is not valid: ' +
      'messageId: Invalid input: expected string, received undefined.',
  );
  expect(await sendState(id)).toEqual({ send_state: 'queued', provider_id: null });

  // The message was never claimed: past STALE_QUEUED_MS the sweep drops the failed job and queues it anew.
  await t.make.age('messages', 'created_at', '2 minutes', { workspace_id: ws, id });
  expect((await sweeps.runAll())['unsent-email']).toBe(1);
  await eventually(async () => (await sendState(id)).send_state === 'sent');
});
