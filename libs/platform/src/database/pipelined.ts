// A transaction whose BEGIN travels with its first statement and whose COMMIT travels with its last:
// PostgreSQL's extended protocol runs every message up to a Sync in order, so BEGIN, the
// first statement and their Sync go in one write and come back in one answer, and likewise the last
// statement, COMMIT and Sync. A transaction of a load and a write costs two round trips, not four.
// Under load each round trip also waits behind the HTTP work queued in the api's event loop, so the
// two saved are most of a shared single-event transaction's wait (docs/decisions.md#ingest-speed).
//
// The pg client (ScopedTimeoutClient) does the sending: `beginWithNext` and `commitWithNext` wrap the
// next statement in PipelinedQuery. The EntityManager handed to the work is TypeORM's own, marked as
// in a transaction, so any TypeORM call inside runs in it (a nested one as a savepoint).
import { Client } from 'pg';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';

type PgConnection = {
  parse(message: { text: string; name?: string }): void;
  bind(message: object): void;
  execute(message: { portal?: string; rows?: number }): void;
  sync(): void;
};

/** pg's own Query, whose protocol steps (prepare, _getRows) PipelinedQuery extends. */
const Query = (Client as unknown as { Query: new (config: object) => PgQuery }).Query;
interface PgQuery {
  portal: string;
  callback?: (error: Error | null, result?: unknown) => void;
  requiresPreparation(): boolean;
  prepare(connection: PgConnection): void;
  _getRows(connection: PgConnection, rows?: number): void;
  handleCommandComplete(message: unknown, connection: PgConnection): void;
}

/** One unnamed statement, executed with no Sync of its own: the next messages' Sync closes it. */
function executeUnsynced(connection: PgConnection, text: string): void {
  connection.parse({ text });
  connection.bind({});
  connection.execute({});
}

/** A statement sent after BEGIN, before COMMIT, or both, in one round trip; its answer is its own. */
export class PipelinedQuery extends (Query as unknown as new (config: object) => PgQuery) {
  /** CommandComplete messages still to come before the statement's own (BEGIN's). */
  private before: number;

  constructor(
    config: object,
    private readonly begins: boolean,
    /** Whether COMMIT follows: when the statement fails, PostgreSQL skips it and the transaction stays open, failed. */
    readonly commits: boolean,
  ) {
    super(config);
    this.before = begins ? 1 : 0;
  }

  override requiresPreparation(): boolean {
    // the extended protocol, even for a statement without parameters: only it carries several statements to one Sync
    return true;
  }

  override prepare(connection: PgConnection): void {
    if (this.begins) executeUnsynced(connection, 'BEGIN');
    super.prepare(connection);
  }

  override _getRows(connection: PgConnection, rows?: number): void {
    if (!this.commits || rows) return super._getRows(connection, rows);
    connection.execute({ portal: this.portal });
    executeUnsynced(connection, 'COMMIT');
    connection.sync();
  }

  override handleCommandComplete(message: unknown, connection: PgConnection): void {
    if (this.before > 0) {
      this.before--; // BEGIN's
      return;
    }
    if (this.before === 0) {
      this.before = -1;
      super.handleCommandComplete(message, connection); // the statement's own; COMMIT's (after it) is not the answer
    }
  }
}

/** What the client keeps of the transaction it is in: see ScopedTimeoutClient.query. */
export interface PipelinedClient {
  /** Inside pipelinedTransaction (commitWithNext is refused elsewhere, where another COMMIT would follow). */
  pipelining: boolean;
  beginWithNext: boolean;
  commitWithNext: boolean;
  /**
   * Set once COMMIT has gone with a statement: any statement after it is refused (it would run outside the
   * transaction).
   */
  committed: boolean;
}

type Runner = QueryRunner & {
  databaseConnection: PipelinedClient;
  transactionDepth: number;
  isTransactionActive: boolean;
};

/**
 * Runs `work` in one transaction whose BEGIN goes with its first statement. Within it, `commitWithNext(m)`
 * makes the next statement carry COMMIT (the work's last: a later one is refused); otherwise COMMIT is
 * sent at the end as usual. Any error rolls the transaction back (when one was begun) and is thrown.
 */
export async function pipelinedTransaction<T>(
  dataSource: DataSource,
  work: (m: EntityManager) => Promise<T>,
): Promise<T> {
  const runner = dataSource.createQueryRunner() as Runner;
  await runner.connect();
  const client = runner.databaseConnection;
  client.pipelining = client.beginWithNext = true;
  client.committed = false;
  runner.isTransactionActive = true;
  runner.transactionDepth = 1;
  try {
    const result = await work(runner.manager);
    if (!client.beginWithNext && !client.committed) await runner.query('COMMIT');
    return result;
  } catch (error) {
    // BEGIN went out (with a statement that may have failed): roll back, unless COMMIT ended it already
    if (!client.beginWithNext) await runner.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    runner.isTransactionActive = false;
    runner.transactionDepth = 0;
    client.pipelining = client.beginWithNext = client.commitWithNext = client.committed = false;
    await runner.release();
  }
}

/** Inside pipelinedTransaction: the next statement on `m` is the last, and COMMIT goes with it. */
export function commitWithNext(m: EntityManager): void {
  const client = (m.queryRunner as Runner | undefined)?.databaseConnection;
  if (!client?.pipelining || client.committed) throw new Error('commitWithNext: not inside a pipelinedTransaction');
  client.commitWithNext = true;
}
