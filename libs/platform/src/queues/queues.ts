// Every queue, job and schedule in one typed catalog (like Immich's JOBS_TO_QUEUE), imported by
// producers (api) and processors (worker). A job's payload type lives beside its processor.
export const QUEUES = {
  webhookDelivery: 'webhook-delivery',
  automations: 'automations',
  sweeps: 'sweeps',
  email: 'email',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/** Each job: the queue it goes on and its name there. */
export const JOBS = {
  /** One attempt at one webhook delivery (libs/webhooks/src/jobs/delivery.job.ts). */
  deliver: { queue: QUEUES.webhookDelivery, name: 'deliver' },
  /** One stored message to send (libs/messaging/src/jobs/email.job.ts). */
  sendEmail: { queue: QUEUES.email, name: 'send-email' },
  /** Advance one automation run from its next step (libs/automations/src/jobs/run.job.ts). */
  advanceRun: { queue: QUEUES.automations, name: 'advance-run' },
  /** Every registered sweep (SweepRegistry). */
  sweep: { queue: QUEUES.sweeps, name: 'sweep' },
} as const satisfies Record<string, { queue: QueueName; name: string }>;

/** Repeatable jobs the worker schedules at start. */
export const SCHEDULES = {
  sweepEveryMinute: { id: 'sweep-every-minute', job: JOBS.sweep, everyMs: 60_000 },
} as const;

export const SWEEP_JOB = JOBS.sweep.name;
export const SWEEP_EVERY_MS = SCHEDULES.sweepEveryMinute.everyMs;
