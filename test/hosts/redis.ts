// A Redis Cluster across hosts: three hosts, each running two `redis-server --cluster-enabled yes`
// (REDIS_PORTS), joined by `redis-cli --cluster create --cluster-replicas 1`, which puts each master's
// replica on another host. A master change is `CLUSTER FAILOVER` asked of a replica: it takes over its
// master's slots once it has every write its master had (Redis's manual failover, no write lost).
import { ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { Host, sh } from './network';
import { until } from './postgres';

const REDIS_PORTS = [7000, 7001];

export interface ClusterHosts {
  /** REDIS_CLUSTER_NODES for the apps. */
  nodes: string;
  cli(address: string, args: string[]): string;
  /** Asks the replica of every master to take over; waits until each did and the cluster serves every slot. */
  failoverAll(): Promise<number>;
  stop(): void;
}

interface Node {
  id: string;
  address: string;
  master: boolean;
  masterId: string;
}

export async function startClusterHosts(dir: string, hosts: Host[]): Promise<ClusterHosts> {
  const children: ChildProcess[] = [];
  const addresses: string[] = [];
  for (const host of hosts)
    for (const port of REDIS_PORTS) {
      const data = join(dir, `${host.name}-${port}`);
      mkdirSync(data, { recursive: true });
      const log = openSync(join(data, 'log'), 'a');
      const [program, ...args] = [
        ...host.exec,
        'redis-server',
        ...['--port', String(port), '--bind', host.address, '--dir', data, '--protected-mode', 'no'],
        ...['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', '3000'],
        ...['--save', '', '--appendonly', 'no', '--repl-diskless-sync-delay', '0'],
      ];
      children.push(spawn(program, args, { stdio: ['ignore', log, log] }));
      addresses.push(`${host.address}:${port}`);
    }
  const cli = (address: string, args: string[]) => {
    const [h, p] = address.split(':');
    return sh('redis-cli', ['-h', h, '-p', p, ...args]);
  };
  const topology = (): Node[] =>
    cli(
      addresses.find((a) => cli(a, ['ping']).trim() === 'PONG')!,
      ['cluster', 'nodes'],
    )
      .trim()
      .split('\n')
      .map((line) => line.split(' '))
      .map(([id, address, flags, masterId]) => ({
        id,
        address: address.split('@')[0],
        master: flags.includes('master'),
        masterId,
      }));
  const healthy = async () => {
    for (const a of addresses) if (!/cluster_state:ok/.test(cli(a, ['cluster', 'info']))) return false;
    const replicas = topology().filter((n) => !n.master);
    return (
      replicas.length === 3 &&
      replicas.every((r) => /master_link_status:up/.test(cli(r.address, ['info', 'replication'])))
    );
  };
  await until(async () => addresses.every((a) => cli(a, ['ping']).trim() === 'PONG'), 20_000, 'redis up');
  sh('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '1', '--cluster-yes']);
  await until(healthy, 30_000, 'the cluster');
  return {
    nodes: addresses.join(','),
    cli,
    async failoverAll() {
      const replicas = topology().filter((n) => !n.master);
      const before = new Set(
        topology()
          .filter((n) => n.master)
          .map((n) => n.id),
      );
      for (const replica of replicas) cli(replica.address, ['cluster', 'failover']);
      await until(
        async () => {
          const masters = topology().filter((n) => n.master);
          return masters.length === 3 && masters.every((m) => !before.has(m.id)) && (await healthy());
        },
        30_000,
        'the master change',
      );
      return replicas.length;
    },
    stop() {
      for (const child of children) child.kill('SIGKILL');
    },
  };
}
