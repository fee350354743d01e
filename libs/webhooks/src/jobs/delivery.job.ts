// The webhook-delivery queue's job: one attempt at one delivery. Producers (relay, api, sweeps) and
// the processor share it. The claim in the database, not the job, decides whether an attempt goes out,
// so a job that arrives twice, late or early does no harm.
import type { JobsOptions } from 'bullmq';
import { z } from 'zod';
import { declareJob } from '@app/platform';

const deliveryJob = z.object({
  workspaceId: z.string().min(1),
  deliveryId: z.string().min(1),
  /** A rate-limit slot reserved for this attempt (ms since the epoch), when the address has a limit. */
  slotAt: z.number().nonnegative().optional(),
});

/**
 * One attempt at one webhook delivery. Version 1 is the first: a payload without `v` (queued before
 * versions) is version 1. A version that changes the shape brings version 1 to it in `readOlder`.
 */
export const DELIVER = declareJob('webhook-delivery', 'deliver', { version: 1, schema: deliveryJob });
export const DELIVER_JOB = DELIVER.name;

export type DeliveryJob = z.infer<typeof deliveryJob>;

export interface DeliveryJobRequest extends DeliveryJob {
  jobId: string;
  delayMs?: number;
}

/**
 * The job id of the attempt that follows `attemptsMade` attempts: the delivery id for the first, then
 * `<id>-<number>`. Equal ids deduplicate in BullMQ, so the relay, the poll and a scheduled retry
 * never queue the same attempt twice. A manual retry gets an id of its own.
 */
export function attemptJobId(deliveryId: string, attemptsMade: number): string {
  return attemptsMade === 0 ? deliveryId : `${deliveryId}-${attemptsMade + 1}`;
}

export function manualRetryJobId(deliveryId: string): string {
  return `${deliveryId}-manual-${Date.now().toString(36)}`;
}

/** Our own schedule does the retrying: BullMQ makes one try per job and forgets it once done. */
export function deliveryJobOptions(jobId: string, delayMs = 0): JobsOptions {
  return { jobId, delay: Math.max(0, Math.round(delayMs)), attempts: 1, removeOnComplete: true, removeOnFail: true };
}
