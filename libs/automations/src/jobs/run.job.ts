// The automations queue's job: advance one run from one step. Producers (the relay's follow-up, the
// start address, a wait, the poll) and the processor share it. The claim in PostgreSQL, not the job,
// decides whether a step runs, so a job that arrives twice, late or early does no harm.
import type { JobsOptions } from 'bullmq';
import { declareJob } from '@app/platform';

/** Advance one automation run from its next step. */
export const ADVANCE_RUN = declareJob('automations', 'advance-run');
export const ADVANCE_RUN_JOB = ADVANCE_RUN.name;

export interface RunJob {
  workspaceId: string;
  runId: string;
}

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
