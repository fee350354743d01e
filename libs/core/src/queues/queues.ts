// Queue and job names, imported by producers (api) and processors (worker).
export const QUEUES = {
  webhookDelivery: 'webhook-delivery',
  automations: 'automations',
  sweeps: 'sweeps',
  email: 'email',
} as const;

export const SWEEP_JOB = 'sweep';
export const SWEEP_EVERY_MS = 60_000;
