// HAProxy (Debian's haproxy) in two roles. The clients' load balancer, on a host of its own, in front of
// the apis: an api whose /health/ready fails (its database or Redis away) takes no new requests, and a
// request it could not even connect to goes to the other. And beside each api and worker, on its loopback,
// the way to the PostgreSQL primary: both data nodes listed, the one that answers
// `transaction_read_only = off` is the one used; a node that stops taking writes has its sessions cut
// (on-marked-down shutdown-sessions). The apps name 127.0.0.1:5432 in DATABASE_URL.
import { ChildProcess, spawn } from 'node:child_process';
import { openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataNode } from './postgres';
import { Host, sh } from './network';
import { until } from './postgres';

export const BALANCER_PORT = 8080;
export const LOCAL_POSTGRES_PORT = 5432;

/** Checks every second; two failures mark a server down, one success up. */
const CHECK = 'check inter 1s fall 2 rise 1';

const DEFAULTS = `defaults
  timeout connect 3s
  timeout client 120s
  timeout server 120s
  timeout check 2s
`;

export interface Proxy {
  child: ChildProcess;
  stop(): void;
}

function start(host: Host, dir: string, name: string, config: string): Proxy {
  const file = join(dir, `${name}.cfg`);
  writeFileSync(file, config);
  const log = openSync(join(dir, `${name}.log`), 'a');
  const [program, ...args] = [...host.exec, 'haproxy', '-db', '-f', file];
  const child = spawn(program, args, { stdio: ['ignore', log, log] });
  return { child, stop: () => child.kill('SIGKILL') };
}

export function startBalancer(host: Host, dir: string, apis: Array<{ host: Host; port: number }>): Proxy {
  const servers = apis.map((api) => `  server ${api.host.name} ${api.host.address}:${api.port} ${CHECK}`);
  return start(
    host,
    dir,
    'balancer',
    `global\n  maxconn 4096\n${DEFAULTS}
frontend clients
  mode http
  bind 0.0.0.0:${BALANCER_PORT}
  default_backend apis
backend apis
  mode http
  balance roundrobin
  option httpchk GET /health/ready
  # only a request that was never sent goes again, to the other api: a post cut off mid-way may have been
  # done (a message has no idempotency key); the client decides
  retry-on conn-failure
  option redispatch 1
${servers.join('\n')}
`,
  );
}

/**
 * The check of a primary in PostgreSQL's own protocol (trust authentication): a startup message as user
 * postgres to database postgres, the query `SHOW transaction_read_only` and a terminate, in one send; a
 * server that takes writes answers the data row 'off' (one column of three bytes), as libpq's
 * target_session_attrs=read-write asks. A standby answers 'on', and so does a promoted standby while
 * pg_auto_failover keeps it read-only until the monitor has confirmed the promotion (stop_replication);
 * a server starting or stopping answers an error: each fails the check.
 */
const STARTUP_QUERY_TERMINATE =
  '00000029000300007573657200706f73746772657300646174616261736500706f7374677265730000' +
  '510000001f53484f57207472616e73616374696f6e5f726561645f6f6e6c79005800000004';
const PRIMARY_ROW = '440000000d0001000000036f6666';

export function startPostgresRoute(host: Host, dir: string, nodes: DataNode[]): Proxy {
  const servers = nodes.map((n) => `  server ${n.host.name} ${n.host.address}:${n.port} ${CHECK}`);
  return start(
    host,
    dir,
    `postgres-${host.name}`,
    `global\n  maxconn 1024\n${DEFAULTS}
listen postgres
  mode tcp
  bind 127.0.0.1:${LOCAL_POSTGRES_PORT}
  # a pooled connection may sit idle for long; the check, not a timeout, decides when it is cut
  timeout client 1h
  timeout server 1h
  option tcp-check
  tcp-check connect
  tcp-check send-binary ${STARTUP_QUERY_TERMINATE}
  tcp-check expect binary ${PRIMARY_ROW}
  default-server on-marked-down shutdown-sessions
${servers.join('\n')}
`,
  );
}

/** Waits until the host's route leads to a primary (its first checks passed). */
export async function routeReady(host: Host): Promise<void> {
  const psql = [...host.exec, 'psql', `host=127.0.0.1 port=${LOCAL_POSTGRES_PORT} user=postgres dbname=postgres`];
  await until(
    async () => sh(psql[0], [...psql.slice(1), '-tAc', 'SELECT 1'], { quiet: true }).trim() === '1',
    30_000,
    `${host.name}'s route`,
  );
}
