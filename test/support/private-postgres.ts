// A PostgreSQL server of one test file's own, on a loopback port, for the tests that freeze, stop or
// restore it: initdb into a temporary folder (as the postgres user when run as root, which
// PostgreSQL refuses to run as), started with pg_ctl. remove() always runs a frozen server on first,
// stops it and deletes the folder; a jest worker that exits without it kills the server on its way out.
// `nextXid` starts the new server's transaction counter there (pg_resetwal), as on a server that has run
// that many transactions: a restore onto a fresh server is a restore onto one whose counter is behind.
// `replicaOf` makes the new server a streaming replica of another (pg_basebackup -R instead of initdb;
// test/support/replica.ts).
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@app/platform';
import { descendants } from './processes';

const run = promisify(execFile);

export interface PrivatePostgres {
  port: number;
  /** The server's temporary folder (its data, its log; the postgres user may write files here). */
  dir: string;
  /** The address of a database on it (created by the service, or by pg_restore's --create). */
  url(database: string): string;
  /** Runs one of PostgreSQL's programs (pg_dump, pg_restore, psql) against this server, as the postgres user. */
  tool(name: string, args: string[]): Promise<string>;
  /** SIGSTOP to the postmaster and every process of it: connections stay open, nothing answers. */
  freeze(): void;
  thaw(): void;
  /**
   * A fast stop (clients are disconnected) and a start on the same port and data; `immediate`: as a crash, no
   * checkpoint and no goodbye to the clients.
   */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Runs pg_ctl on the server's data folder (promote, for a standby), as the postgres user. */
  control(action: string): Promise<void>;
  start(): Promise<void>;
  remove(): Promise<void>;
}

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  if (!versions.length) throw new Error('No PostgreSQL server programs in /usr/lib/postgresql: install postgresql.');
  return join(root, versions[0], 'bin');
}

/** pg_resetwal's safe values for its next transaction id: the start of a pg_xact segment (docs of pg_resetwal -x). */
const XACT_SEGMENT = 1_048_576;
const EPOCH = 2 ** 32;

export async function startPrivatePostgres(
  wanted: { nextXid?: number; replicaOf?: PrivatePostgres } = {},
): Promise<PrivatePostgres> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'lifeline-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(stdout.trim()));
  }
  const as = (program: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, program), ...args]) : run(join(bin, program), args);
  if (wanted.replicaOf) {
    // initdb's trust rules admit replication connections from loopback, and wal_level is replica by default
    const from = ['-h', '127.0.0.1', '-p', String(wanted.replicaOf.port), '-U', 'postgres'];
    await as('pg_basebackup', [...from, '-D', data, '-R', '-X', 'stream', '--checkpoint=fast', '--no-sync']);
  } else {
    await as('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  }
  if (wanted.nextXid !== undefined) {
    const [epoch, xid] = [Math.floor(wanted.nextXid / EPOCH), wanted.nextXid % EPOCH];
    if (xid % XACT_SEGMENT !== 0 || xid === 0)
      throw new Error(`nextXid ${wanted.nextXid}: give a multiple of ${XACT_SEGMENT} (plus any multiple of 2^32).`);
    await as('pg_resetwal', ['-x', String(xid), '-e', String(epoch), '-D', data]);
  }
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  let frozen = false;
  let pid = 0;

  const postmaster = () => Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  // Each backend is a session of its own (setsid), so the signal goes to every process below the postmaster,
  // the postmaster first: a stopped postmaster starts no new one meanwhile.
  const signal = (name: NodeJS.Signals) => {
    if (!pid) return;
    for (const each of [pid, ...descendants(pid)]) {
      try {
        process.kill(each, name);
      } catch {
        // ended meanwhile
      }
    }
  };
  const onExit = () => {
    try {
      signal('SIGCONT');
      signal('SIGKILL');
    } catch {
      // gone already
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', onExit);

  const server: PrivatePostgres = {
    port,
    dir,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async tool(name, args) {
      return (await as(name, ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', ...args])).stdout;
    },
    freeze() {
      signal('SIGSTOP');
      frozen = true;
    },
    thaw() {
      signal('SIGCONT');
      frozen = false;
    },
    async start() {
      await as('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
      pid = postmaster();
    },
    async stop(mode = 'fast') {
      if (frozen) server.thaw();
      await as('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
      pid = 0;
    },
    async control(action) {
      await as('pg_ctl', ['-D', data, '-w', action]);
    },
    async remove() {
      process.removeListener('exit', onExit);
      try {
        if (frozen) server.thaw();
        if (pid) await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => signal('SIGKILL'));
      } finally {
        pid = 0;
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
  await server.start();
  return server;
}
