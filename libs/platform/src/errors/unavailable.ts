// A request that cannot finish because the database or Redis cannot be reached
// (or does not answer in time), or because the process already answers all it may, is refused 503
// unavailable with Retry-After and the spec's sentence, and counted against the outage, not logged.
import { DATABASE_OUTAGE, Outage, REDIS_OUTAGE } from '../runtime/outage';
import { Refusal } from './refusal';

/** Seconds a client is asked to wait before sending again while the database or Redis is away. */
export const UNAVAILABLE_RETRY_AFTER = 5;

/** A statement or connection given up on because the database cannot be reached or does not answer. */
export class DatabaseUnavailable extends Error {
  constructor(
    message: string,
    /** The database stopped answering while a COMMIT was on its way: the change may have been written. */
    readonly uncertain = false,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DatabaseUnavailable';
  }
}

/** Errors of the connection itself (pg and Node), not of a statement: the server went away or never answered. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
// 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now; class 08: connection exceptions.
const SERVER_GOING = /^(57P0[123]|08...)$/;
// (not pg's plain 'Connection terminated': the pool's own end of a connection)
const CONNECTION_MESSAGES =
  /^(Connection terminated (unexpectedly|due to connection timeout)|timeout exceeded when trying to connect|Client has encountered a connection error|timeout expired)/;
const POOL_WAIT = /^timeout exceeded when trying to connect/;
const REDIS_MESSAGES =
  /^(Command timed out|Stream isn't writeable|Connection is closed|Reached the max retries per request limit)/;

/** True when the error says the database connection failed (not that a statement was refused). */
export function isConnectionFailure(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  return CONNECTION_CODES.has(code ?? '') || SERVER_GOING.test(code ?? '') || CONNECTION_MESSAGES.test(message ?? '');
}

/**
 * SQLSTATE 25006 read_only_sql_transaction on a connection of the primary's pool: its server has become a standby (a
 * primary demoted in a failover, docs/operations.md#failover), so the write was refused and nothing changed.
 */
export function isReadOnlyRefusal(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === '25006';
}

/** The error and what it wraps (TypeORM's driverError, an Error's cause), outermost first. */
function* chain(error: unknown): Generator<unknown> {
  for (let depth = 0; error && depth < 5; depth++) {
    yield error;
    const e = error as { driverError?: unknown; cause?: unknown };
    error = e.driverError ?? e.cause;
  }
}

/** Which outage refused this, or null when the error is of another kind. */
export function unavailableOutage(
  error: unknown,
): { outage: Outage; what: 'database' | 'redis'; uncertain: boolean } | null {
  for (const link of chain(error)) {
    if (link instanceof DatabaseUnavailable)
      return { outage: DATABASE_OUTAGE, what: 'database', uncertain: link.uncertain };
    // pg-pool's own: no pooled connection came free in time, all being held by statements that wait
    if (POOL_WAIT.test((link as { message?: string })?.message ?? ''))
      return { outage: DATABASE_OUTAGE, what: 'database', uncertain: false };
    const name = (link as { name?: string })?.name;
    if (name === 'MaxRetriesPerRequestError' || REDIS_MESSAGES.test((link as { message?: string })?.message ?? '')) {
      return { outage: REDIS_OUTAGE, what: 'redis', uncertain: false };
    }
  }
  return null;
}

export function isUnavailable(error: unknown): boolean {
  return unavailableOutage(error) !== null;
}

const SENTENCE = {
  database: 'The service cannot reach its database just now; nothing was changed; send it again in a few seconds.',
  redis: 'The service cannot reach Redis just now; nothing was changed; send it again in a few seconds.',
  uncertain:
    'The database stopped answering while the change was being committed, so it may have been written: send it ' +
    'again in a few seconds (a post with the same idempotency_key is written once).',
};

/** The 503 of an error of the database or Redis being away (counted against its outage), or null. */
export function unavailableRefusal(error: unknown): Refusal | null {
  const found = unavailableOutage(error);
  if (!found) return null;
  found.outage.refused();
  const sentence = found.uncertain ? SENTENCE.uncertain : SENTENCE[found.what];
  return new Refusal('unavailable', sentence, { retryAfter: UNAVAILABLE_RETRY_AFTER });
}

/** The 503 of a process that already answers as many requests as it may. */
export function busyRefusal(): Refusal {
  return new Refusal(
    'unavailable',
    'The service is answering as many requests as it can just now; nothing was changed; send it again in a second.',
    { retryAfter: 1 },
  );
}
