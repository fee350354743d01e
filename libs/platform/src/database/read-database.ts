// docs/decisions.md#read-replica: the reads DATABASE_READ_URL's streaming replica
// serves. A statement goes there only when both sides say so: its repository reads through ReadDatabase
// (charts, timelines, people, message pages: reads that decide nothing), and the request writes nothing
// (readsFromReplica: a GraphQL query operation, a messages page, a read tool of the tool door). A
// mutation reading back what it wrote, a worker, a guard checking a key: all read the primary.
import type { OnApplicationShutdown } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { AppConfig } from '../config/config';
import { DatabaseUnavailable } from '../errors/unavailable';
import { Outage } from '../runtime/outage';
import { replicaUnreachable } from '../runtime/unreachable';
import { contextsAtRest } from '../runtime/contexts-at-rest';
import { dataSourceOptions } from './database';
import { readScope } from './prepared';
import { commitWithNext, pipelinedTransaction } from './pipelined';

/** What serialQuery runs first in its transaction (a stand-in ReadDatabase in a test or bench runs it the same way). */
export const NO_PARALLEL_WORKERS = 'SET LOCAL max_parallel_workers_per_gather = 0';

/** The Nest token of the ReadDatabase. */
export const READ_DATABASE = Symbol('READ_DATABASE');

/** The replica's own outage: while it cannot be reached its reads go to the primary, which stays up. */
export const REPLICA_OUTAGE = new Outage('PostgreSQL read replica', 'the primary serves its reads until it is back');

export class ReadDatabase implements OnApplicationShutdown {
  constructor(
    private readonly primary: DataSource,
    private readonly replica: DataSource | null,
  ) {}

  /** The replica inside readsFromReplica while it answers; else (and always without DATABASE_READ_URL) the primary. */
  get source(): DataSource {
    return this.replica && readScope.getStore()?.replica && !REPLICA_OUTAGE.down ? this.replica : this.primary;
  }

  query<T = any>(text: string, values?: unknown[]): Promise<T[]> {
    return this.source.query(text, values);
  }

  /**
   * A read planned without parallel workers, for an interactive read whose parallel plan spends more
   * starting its workers than they save (people search's candidates for `user1` at 1,000,000
   * people, 75-84 ms with two workers against 30 ms without, on a host where starting them took about
   * 45 ms). The setting is its transaction's own; BEGIN goes with it and COMMIT with the read
   * (pipelinedTransaction), so it costs one round trip more than query().
   */
  serialQuery<T = any>(text: string, values?: unknown[]): Promise<T[]> {
    return pipelinedTransaction(this.source, async (m) => {
      await m.query(NO_PARALLEL_WORKERS);
      commitWithNext(m);
      return m.query(text, values);
    });
  }

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.source.transaction(work);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.replica?.isInitialized) await this.replica.destroy();
  }
}

/**
 * The ReadDatabase of the settings: the replica's pool has the primary's size and time limits. A replica
 * that cannot be reached at start stops the start, as the primary does, with a sentence naming its setting.
 */
export async function readDatabase(config: AppConfig, primary: DataSource): Promise<ReadDatabase> {
  if (!config.databaseReadUrl) return new ReadDatabase(primary, null);
  const replica = new DataSource(dataSourceOptions({ ...config, databaseUrl: config.databaseReadUrl }, REPLICA_OUTAGE));
  try {
    return new ReadDatabase(primary, await replica.initialize());
  } catch (error) {
    // the pool's watch wraps a connection failure; the sentence reads the failure itself
    throw (
      replicaUnreachable(error instanceof DatabaseUnavailable ? error.cause : error, config.databaseReadUrl) ?? error
    );
  }
}

/** Runs `work` as a request that writes nothing: ReadDatabase's reads in it may be served by the replica. */
export function readsFromReplica<T>(work: () => T): T {
  return contextsAtRest.holding(() =>
    readScope.run({ timeoutMs: readScope.getStore()?.timeoutMs ?? 0, replica: true }, work),
  );
}

/** Runs `work` on the primary even inside a read request (a read that must not lag). */
export function readsFromPrimary<T>(work: () => T): T {
  return contextsAtRest.holding(() =>
    readScope.run({ timeoutMs: readScope.getStore()?.timeoutMs ?? 0, replica: false }, work),
  );
}
