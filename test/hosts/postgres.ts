// PostgreSQL across hosts with pg_auto_failover (Debian's postgresql-15-auto-failover): a monitor on
// a host of its own and two data nodes, each run by its `pg_autoctl run` keeper as the postgres user.
// The first node is the primary, the second a streaming standby in the write quorum (synchronous:
// a commit is answered once the standby has its WAL). The monitor elects; nothing here does. Its health
// checks are shortened so a dead primary is replaced in seconds (docs/operations.md#postgresql-failover).
import { ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, chownSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { Host, processesOf, sh } from './network';

const BIN = '/usr/lib/postgresql/15/bin';
/** Each server its own port: their Unix sockets share one folder. */
export const MONITOR_PORT = 6540;
export const DATABASE = 'lifeline';

/** The monitor's timings (its GUCs, in ms): a primary silent for about 3 s is deemed failed. */
const MONITOR_SETTINGS: Record<string, number> = {
  'pgautofailover.health_check_period': 1000,
  'pgautofailover.health_check_timeout': 1000,
  'pgautofailover.health_check_max_retries': 1,
  'pgautofailover.health_check_retry_delay': 500,
  'pgautofailover.node_considered_unhealthy_timeout': 3000,
  'pgautofailover.primary_demote_timeout': 5000,
};

export interface DataNode {
  host: Host;
  port: number;
}

export interface Failover {
  nodes: DataNode[];
  /** The node the monitor names primary now (asked of the servers themselves: not in recovery). */
  primary(): Promise<DataNode | null>;
  /** SIGKILL to every process of the node's host: its keeper and its PostgreSQL, as a crash. */
  kill(node: DataNode): void;
  /** Starts the node's keeper again: a former primary rejoins as a standby (pg_rewind). */
  restart(node: DataNode): void;
  /** Waits until both nodes are up, one primary and one secondary in sync. */
  settled(timeoutMs?: number): Promise<void>;
  state(): string;
  stop(): Promise<void>;
}

export function apt(packages: string[], probe: string): void {
  try {
    sh('sh', ['-c', `command -v ${probe}`]);
  } catch {
    sh('sh', [
      '-c',
      `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${packages.join(' ')}`,
    ]);
  }
}

export async function ask<T = any>(host: string, port: number, text: string, database = DATABASE): Promise<T[]> {
  const client = new Client({ host, port, user: 'postgres', database, connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function startFailover(dir: string, monitor: Host, data: Host[]): Promise<Failover> {
  apt(['postgresql-15-auto-failover'], 'pg_autoctl');
  const sockets = join(dir, 'sockets');
  mkdirSync(sockets, { recursive: true });
  const uid = Number(sh('id', ['-u', 'postgres']).trim());
  chownSync(dir, uid, uid);
  chownSync(sockets, uid, uid);
  const env = [
    `PATH=${BIN}:/usr/bin:/bin`,
    `XDG_CONFIG_HOME=${dir}/config`,
    `XDG_DATA_HOME=${dir}/share`,
    `XDG_RUNTIME_DIR=${dir}/run`,
    `PGHOST=${sockets}`,
  ];
  const as = (host: Host, args: string[]) => [...host.exec, 'runuser', '-u', 'postgres', '--', 'env', ...env, ...args];
  const keepers = new Map<string, ChildProcess>();
  const keeper = (host: Host, pgdata: string) => {
    const log = openSync(join(dir, `${host.name}.log`), 'a');
    const [program, ...args] = as(host, ['pg_autoctl', 'run', '--pgdata', pgdata]);
    keepers.set(host.name, spawn(program, args, { stdio: ['ignore', log, log], detached: true }));
  };
  const initdb = (pgdata: string) => {
    sh('runuser', ['-u', 'postgres', '--', join(BIN, 'initdb'), '-D', pgdata, '-A', 'trust', '-U', 'postgres']);
    // The shared machine's PostgreSQL keeps /var/run/postgresql: these keep to their own folder and stay small.
    appendFileSync(
      join(pgdata, 'postgresql.auto.conf'),
      `unix_socket_directories = '${sockets}'\nshared_buffers = '64MB'\nmax_connections = 200\nfsync = off\n`,
    );
    appendFileSync(join(pgdata, 'pg_hba.conf'), `host all all ${monitor.address.replace(/\d+$/, '0')}/24 trust\n`);
  };
  const create = (host: Host, args: string[]) => {
    const [program, ...rest] = as(host, ['pg_autoctl', 'create', ...args, '--auth', 'trust', '--no-ssl']);
    sh(program, rest);
  };

  const monitorData = join(dir, 'monitor');
  initdb(monitorData);
  create(monitor, [
    'monitor',
    '--pgctl',
    join(BIN, 'pg_ctl'),
    '--pgdata',
    monitorData,
    '--pgport',
    String(MONITOR_PORT),
  ]);
  keeper(monitor, monitorData);
  await until(() => ask(monitor.address, MONITOR_PORT, 'SELECT 1', 'pg_auto_failover').then(() => true), 20_000);
  for (const [name, value] of Object.entries(MONITOR_SETTINGS))
    await ask(monitor.address, MONITOR_PORT, `ALTER SYSTEM SET ${name} = ${value}`, 'pg_auto_failover');
  await ask(monitor.address, MONITOR_PORT, 'SELECT pg_reload_conf()', 'pg_auto_failover');

  const monitorUrl = `postgres://autoctl_node@${monitor.address}:${MONITOR_PORT}/pg_auto_failover?sslmode=disable`;
  const nodes = data.map((host, i) => ({ host, port: MONITOR_PORT + 1 + i }));
  for (const [i, node] of nodes.entries()) {
    const pgdata = join(dir, node.host.name);
    if (i === 0) initdb(pgdata); // the standby is a base backup of it, settings and rules included
    create(node.host, [
      'postgres',
      ...['--pgctl', join(BIN, 'pg_ctl'), '--pgdata', pgdata, '--pgport', String(node.port)],
      ...['--hostname', node.host.address, '--name', node.host.name, '--dbname', DATABASE, '--monitor', monitorUrl],
    ]);
    keeper(node.host, pgdata);
    if (i === 0) await until(async () => (await primaryOf(nodes.slice(0, 1))) !== null, 30_000);
  }

  const failover: Failover = {
    nodes,
    primary: () => primaryOf(nodes),
    kill(node) {
      for (const pid of processesOf(node.host)) signal(pid, 'SIGKILL');
    },
    restart(node) {
      keeper(node.host, join(dir, node.host.name));
    },
    async settled(timeoutMs = 60_000) {
      await until(async () => {
        const rows = await ask<{ s: string }>(
          monitor.address,
          MONITOR_PORT,
          `SELECT reportedstate || '/' || goalstate AS s FROM pgautofailover.node ORDER BY nodeid`,
          'pg_auto_failover',
        );
        const states = rows.map((r) => r.s).sort();
        return states.join(',') === 'primary/primary,secondary/secondary';
      }, timeoutMs);
    },
    state: () => sh(...split(as(monitor, ['pg_autoctl', 'show', 'state', '--pgdata', monitorData]))),
    async stop() {
      for (const host of [...data, monitor]) for (const pid of processesOf(host)) signal(pid, 'SIGKILL');
      await new Promise((r) => setTimeout(r, 500));
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await failover.settled();
  return failover;
}

const split = (argv: string[]): [string, string[]] => [argv[0], argv.slice(1)];

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // ended meanwhile
  }
}

async function primaryOf(nodes: DataNode[]): Promise<DataNode | null> {
  for (const node of nodes) {
    const rows = await ask(node.host.address, node.port, 'SELECT pg_is_in_recovery() AS standby').catch(() => null);
    if (rows && rows[0].standby === false) return node;
  }
  return null;
}

export async function until(check: () => Promise<boolean>, timeoutMs: number, what = 'the condition'): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; ; await new Promise((r) => setTimeout(r, 250))) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} did not hold within ${timeoutMs} ms`);
  }
}
