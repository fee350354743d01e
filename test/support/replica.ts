// A streaming replica of a private PostgreSQL (private-postgres.ts), for the read
// replica's test: made from a base backup of the primary, waited for until it streams, and its replay
// paused and resumed, so a test can tell which server answered (a paused replica keeps answering what it
// last replayed).
import { Client } from 'pg';
import { PrivatePostgres, startPrivatePostgres } from './private-postgres';

export interface Replica extends PrivatePostgres {
  /** Waits until the replica has replayed everything the primary had written when called. */
  caughtUp(): Promise<void>;
  /** Catches up, then stops replaying: reads on the replica answer that moment until resumeReplay. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /**
   * Makes the primary wait for this standby at every commit (synchronous_standby_names, synchronous_commit on), so
   * what the primary acknowledged is on the standby when it is promoted.
   */
  synchronous(): Promise<void>;
  /** pg_ctl promote, as a failover engine does: waits until the server takes writes. */
  promote(): Promise<void>;
}

/** Answers one statement on a connection of its own (to the server's postgres database). */
async function ask<T = any>(server: PrivatePostgres, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: server.url('postgres') });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await check()); await new Promise((r) => setTimeout(r, 50))) {
    if (Date.now() > deadline) throw new Error(`The replica did not ${what} within ${timeoutMs} ms.`);
  }
}

export async function startReplica(primary: PrivatePostgres): Promise<Replica> {
  const server = await startPrivatePostgres({ replicaOf: primary });
  const replica: Replica = {
    ...server,
    async caughtUp() {
      // the insert position: the private server commits without waiting for its WAL (synchronous_commit=off)
      const [{ lsn }] = await ask(primary, 'SELECT pg_current_wal_insert_lsn()::text AS lsn');
      await until(
        'catch up',
        async () => (await ask(server, 'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done', [lsn]))[0].done,
      );
    },
    async pauseReplay() {
      await replica.caughtUp();
      await ask(server, 'SELECT pg_wal_replay_pause()');
      await until(
        'pause',
        async () => (await ask(server, 'SELECT pg_get_wal_replay_pause_state() AS state'))[0].state === 'paused',
      );
    },
    async resumeReplay() {
      await ask(server, 'SELECT pg_wal_replay_resume()');
    },
    async synchronous() {
      // the role's setting wins over the private server's synchronous_commit=off on its command line
      await ask(primary, `ALTER SYSTEM SET synchronous_standby_names = '*'`);
      await ask(primary, 'ALTER ROLE postgres SET synchronous_commit = on');
      await ask(primary, 'SELECT pg_reload_conf()');
      await until(
        'become synchronous',
        async () =>
          (await ask(primary, `SELECT count(*)::int AS n FROM pg_stat_replication WHERE sync_state = 'sync'`))[0].n ===
          1,
      );
    },
    async promote() {
      await server.control('promote');
      await until('take writes', async () => !(await ask(server, 'SELECT pg_is_in_recovery() AS r'))[0].r);
    },
  };
  await until(
    'stream',
    async () =>
      (await ask(server, `SELECT count(*)::int AS n FROM pg_stat_wal_receiver WHERE status = 'streaming'`))[0].n === 1,
  );
  return replica;
}
