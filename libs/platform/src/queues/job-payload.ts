// Reading a job's versioned payload (docs/architecture.md#job-payloads). A payload of a newer version than
// this process serves is put back for a worker of the newer release, never run nor dropped here; an older
// one is upgraded (readOlder) and read; one that no version reads fails for good, logged: its work is
// still due in PostgreSQL, and the poll or the sweep queues it again.
import { Logger } from '@nestjs/common';
import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import type { z } from 'zod';
import type { JobDefinition, JobPayloadSpec } from './queues';

/** A payload of a newer version goes back on the queue for this long, for a worker of the newer release. */
export const NEWER_PUT_BACK_MS = 5_000;
/**
 * A newer payload still not taken this long after it was due means no worker of its release runs (a
 * rollback): the job fails for good and the poll queues its work again, from PostgreSQL, in this version.
 */
export const NEWER_WAIT_MS = 15 * 60_000;

type Named = Pick<JobDefinition, 'queue' | 'name' | 'version'>;

const logger = new Logger('JobPayloads');

/** Why a job's payload was not read: the job, the version it carried and the one this process serves. */
abstract class JobPayloadError extends Error {
  readonly job: string;
  readonly serves: number;

  constructor(
    definition: Named,
    readonly got: number | null,
    what: string,
  ) {
    super(`Job ${definition.queue}/${definition.name}: ${what}`);
    this.name = new.target.name;
    this.job = `${definition.queue}/${definition.name}`;
    this.serves = definition.version;
  }
}

/** The payload is of a version newer than this process serves: a worker of the newer release runs it. */
export class NewerJobPayload extends JobPayloadError {
  constructor(definition: Named, got: number) {
    super(
      definition,
      got,
      `the payload is version ${got} and this process serves version ${definition.version}; ` +
        'it is left for a worker of the newer release.',
    );
  }
}

/** The payload does not fit its version's shape (or carries no version one can read). */
export class UnreadableJobPayload extends JobPayloadError {
  constructor(
    definition: Named,
    got: number | null,
    readonly problems: string[],
  ) {
    super(
      definition,
      got,
      `the payload ${got === null ? 'has no readable version' : `is version ${got}`} ` +
        `(this process serves version ${definition.version}) and is not valid: ${problems.join('; ')}.`,
    );
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** zod's issues, one sentence each, at their path (`slotAt: Invalid input: expected number, received string`). */
function problemsOf(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : '(payload)'}: ${issue.message}`);
}

/** The payload's data at `definition.version`, or a JobPayloadError. No `v` is version 1 (queued before versions). */
export function readPayload(definition: Named, spec: JobPayloadSpec<z.ZodType<object>>, raw: unknown): unknown {
  if (!isRecord(raw)) throw new UnreadableJobPayload(definition, null, ['(payload): expected an object']);
  const { v = 1, ...data } = raw;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1)
    throw new UnreadableJobPayload(definition, null, [`v: expected a version (1 or more), received ${String(v)}`]);
  if (v > definition.version) throw new NewerJobPayload(definition, v);
  let current: unknown = data;
  if (v < definition.version && spec.readOlder) {
    try {
      current = spec.readOlder(data, v);
    } catch (error) {
      throw new UnreadableJobPayload(definition, v, [`its upgrade from version ${v}: ${(error as Error).message}`]);
    }
  }
  const parsed = spec.schema.safeParse(current);
  if (!parsed.success) throw new UnreadableJobPayload(definition, v, problemsOf(parsed.error));
  return parsed.data;
}

/** When the job was first due: its delays since (each put back) do not count. */
function dueSince(job: Job): number {
  return job.timestamp + (job.opts.delay ?? 0);
}

/** The processor's side of JobDefinition.read: see JobDefinition.take. */
export async function takePayload<T extends object>(
  definition: JobDefinition<T>,
  job: Job,
  token: string | undefined,
): Promise<T> {
  try {
    return definition.read(job);
  } catch (error) {
    if (!(error instanceof JobPayloadError)) throw error;
    if (error instanceof NewerJobPayload && Date.now() - dueSince(job) < NEWER_WAIT_MS) {
      await job.moveToDelayed(Date.now() + NEWER_PUT_BACK_MS, token);
      logger.debug(`${error.message} Job ${job.id} is put back for ${NEWER_PUT_BACK_MS} ms.`);
      throw new DelayedError(error.message);
    }
    const after =
      error instanceof NewerJobPayload
        ? `No worker of version ${error.got} took it in ${NEWER_WAIT_MS / 60_000} minutes:`
        : 'Its work is still due in PostgreSQL:';
    logger.error(`${error.message} ${after} job ${job.id} fails without retry and its work is queued again.`);
    throw new UnrecoverableError(error.message);
  }
}
