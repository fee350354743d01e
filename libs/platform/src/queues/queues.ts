// Queues and jobs: each lib declares its own in its jobs/<thing>.job.ts (declareJob), imported by its
// producers and its processor; the catalogue is what was declared, so platform names no lib above it.
// Metrics read every declared queue's depth.

/** A job: the queue it goes on and its name there. */
export interface JobDefinition {
  readonly queue: string;
  readonly name: string;
}

const declared = new Set<string>();

/** Declares a job of a lib's queue (once, at import of the lib's job file). */
export function declareJob(queue: string, name: string): JobDefinition {
  declared.add(queue);
  return { queue, name };
}

/** Every queue declared so far: in an app, every lib it loaded. */
export function declaredQueues(): string[] {
  return [...declared];
}

/** Every registered sweep (SweepRegistry), from one repeatable job. */
export const SWEEP_JOB = declareJob('sweeps', 'sweep');

/** The repeatable job the worker schedules at start. */
export const SWEEP_SCHEDULE = { id: 'sweep-every-minute', job: SWEEP_JOB, everyMs: 60_000 } as const;
