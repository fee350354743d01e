// Queues and jobs: each lib declares its own in its jobs/<thing>.job.ts (declareJob), imported by its
// producers and its processor; the catalogue is what was declared, so platform names no lib above it.
// Metrics read every declared queue's depth. A job's payload has a zod schema and a version stamped in it
// (`v`), so during a rolling deploy a process never runs a payload it does not understand
// (docs/architecture.md#job-payloads).
import type { Job } from 'bullmq';
import { z } from 'zod';
import { readPayload, takePayload } from './job-payload';

/** How a job's payload looks at the version this release produces and serves. */
export interface JobPayloadSpec<S extends z.ZodType<object>> {
  /** Raised when a producer's payload changes in a way an older worker must not run. */
  readonly version: number;
  /** The payload without its `v`. Unknown keys are dropped: a key that matters takes a new version. */
  readonly schema: S;
  /**
   * Brings a payload of an older version (no `v` is version 1) to this version's shape before the schema
   * reads it; without one the schema reads the older payload as it is.
   */
  readonly readOlder?: (data: Record<string, unknown>, version: number) => unknown;
}

/** A payload as it goes on the queue: the data and the version it was written in. */
export type Stamped<T> = T & { readonly v: number };

/** A job: the queue it goes on, its name there, and its payload's version and shape. */
export interface JobDefinition<T extends object = object> {
  readonly queue: string;
  readonly name: string;
  readonly version: number;
  /** The payload a producer queues: `data` stamped with this version. */
  payload(data: T): Stamped<T>;
  /** The payload's data, or a JobPayloadError (NewerJobPayload, UnreadableJobPayload) saying why not. */
  read(job: Pick<Job, 'data'>): T;
  /**
   * The processor's read: the data; or the job put back for a newer worker (BullMQ's DelayedError); or,
   * for a payload no version of the code can read, failed for good (UnrecoverableError), logged.
   */
  take(job: Job, token: string | undefined): Promise<T>;
}

const declared = new Set<string>();

/** Declares a job of a lib's queue (once, at import of the lib's job file). */
export function declareJob<S extends z.ZodType<object>>(
  queue: string,
  name: string,
  spec: JobPayloadSpec<S>,
): JobDefinition<z.infer<S>> {
  if (!Number.isInteger(spec.version) || spec.version < 1) throw new Error(`${queue}/${name}: version must be >= 1`);
  declared.add(queue);
  const definition: JobDefinition<z.infer<S>> = {
    queue,
    name,
    version: spec.version,
    payload: (data) => ({ ...data, v: spec.version }),
    read: (job) => readPayload(definition, spec, job.data) as z.infer<S>,
    take: (job, token) => takePayload(definition, job, token),
  };
  return definition;
}

/** Every queue declared so far: in an app, every lib it loaded. */
export function declaredQueues(): string[] {
  return [...declared];
}

/** Every registered sweep (SweepRegistry), from one repeatable job. Its payload carries nothing yet. */
export const SWEEP_JOB = declareJob('sweeps', 'sweep', { version: 1, schema: z.object({}) });

/** The repeatable job the worker schedules at start. */
export const SWEEP_SCHEDULE = { id: 'sweep-every-minute', job: SWEEP_JOB, everyMs: 60_000 } as const;
