// The automations queue's job: advance one run from one step. Producers (the relay's follow-up, the
// start address, a wait, the poll) and the processor share it. The claim in PostgreSQL, not the job,
// decides whether a step runs, so a job that arrives twice, late or early does no harm.
import type { JobsOptions } from 'bullmq';
import { z } from 'zod';
import { declareJob } from '@app/platform';

const runJob = z.object({ workspaceId: z.string().min(1), runId: z.string().min(1) });

/**
 * Advance one automation run from its next step. Version 1 is the first: a payload without `v` (queued
 * before versions) is version 1. A version that changes the shape brings version 1 to it in `readOlder`.
 */
export const ADVANCE_RUN = declareJob('automations', 'advance-run', { version: 1, schema: runJob });
export const ADVANCE_RUN_JOB = ADVANCE_RUN.name;

export type RunJob = z.infer<typeof runJob>;

/** One id per run and step: the poll queueing again a job still in Redis adds nothing. */
export function runJobId(runId: string, step: number): string {
  return `${runId}-${step}`;
}

export function runJobOptions(runId: string, step: number, delayMs = 0): JobsOptions {
  return {
    jobId: runJobId(runId, step),
    delay: Math.max(0, Math.round(delayMs)),
    attempts: 1,
    removeOnComplete: true,
    removeOnFail: true,
  };
}
