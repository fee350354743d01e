// A Redis Cluster of one test file's own: three masters and three replicas, each a
// `redis-server --cluster-enabled yes` on a loopback port in a temporary folder, joined by
// `redis-cli --cluster create`. A node also listens on its port + 10000 (the cluster bus), so both
// must be free. remove() kills every node and deletes the folders; a jest worker that exits without
// it kills them on its way out.
import { ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@app/platform';
import { eventually } from '../harness';

const run = promisify(execFile);

/** A node's port + BUS_OFFSET is its cluster bus port (Redis's fixed offset). */
const BUS_OFFSET = 10_000;
/** How long a node may be silent before the others deem it failed and its replica takes over: 3 s, so a node
 * stalled a second by a busy machine is not taken for dead. */
const NODE_TIMEOUT_MS = 3_000;

export interface ClusterNode {
  port: number;
  role: 'master' | 'slave';
  /** For a replica, the port of its master. */
  masterPort: number | null;
}

export interface RedisCluster {
  /** REDIS_CLUSTER_NODES for the service: every node, host:port, comma-separated. */
  nodes: string;
  ports: number[];
  /** redis-cli against one node (-c follows redirections). */
  cli(port: number, args: string[]): Promise<string>;
  /** The nodes as the cluster sees them now, from a node still up. */
  topology(): Promise<ClusterNode[]>;
  /** The port of the master serving the key's slot. */
  masterOf(key: string): Promise<number>;
  /** SIGKILL to one node, as a crash; its replica is promoted once the others deem it failed. */
  kill(port: number): void;
  /** Waits until a node up serves every slot (cluster_state:ok) with `port` no longer a master. */
  failedOver(port: number): Promise<void>;
  /**
   * A planned master change: CLUSTER FAILOVER on a replica of the master on `port` (which waits for the replica to
   * have all the master wrote), until the replica serves the slots; answers the replica's port.
   */
  failover(port: number): Promise<number>;
  remove(): Promise<void>;
}

function free(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Ports whose bus port (+10000) is free too; freePort's range (below 32768) keeps that under 65536. */
async function clusterPorts(n: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < n) {
    const port = await freePort();
    if (port + BUS_OFFSET <= 65_535 && !ports.includes(port) && (await free(port + BUS_OFFSET))) ports.push(port);
  }
  return ports;
}

export async function startRedisCluster(): Promise<RedisCluster> {
  const dirs: string[] = [];
  const children = new Map<number, ChildProcess>();
  const ports = await clusterPorts(6);
  const onExit = () => {
    for (const child of children.values()) child.kill('SIGKILL');
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', onExit);

  const cli = async (port: number, args: string[]) =>
    (await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args])).stdout;
  const up = () =>
    ports.filter((port) => children.get(port)?.exitCode === null && children.get(port)?.signalCode === null);

  for (const port of ports) {
    const dir = mkdtempSync(join(tmpdir(), 'lifeline-redis-cluster-'));
    dirs.push(dir);
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        'nodes.conf',
        '--cluster-node-timeout',
        String(NODE_TIMEOUT_MS),
        '--save',
        '',
        '--appendonly',
        'no',
        // A replica's first copy goes at once rather than after the default 5 s wait for more replicas.
        '--repl-diskless-sync-delay',
        '0',
      ],
      { stdio: 'ignore' },
    );
    children.set(port, child);
  }
  const cluster: RedisCluster = {
    nodes: ports.map((port) => `127.0.0.1:${port}`).join(','),
    ports,
    cli,
    async topology() {
      const text = await cli(up()[0], ['cluster', 'nodes']);
      const lines = text
        .trim()
        .split('\n')
        .map((line) => line.split(' '));
      const portOf = new Map(lines.map(([id, address]) => [id, Number(address.split(':')[1].split('@')[0])]));
      return lines
        .filter(([, , flags]) => !flags.includes('fail') && !flags.includes('noaddr'))
        .map(([, address, flags, master]) => ({
          port: Number(address.split(':')[1].split('@')[0]),
          role: flags.includes('master') ? ('master' as const) : ('slave' as const),
          masterPort: master === '-' ? null : (portOf.get(master) ?? null),
        }));
    },
    async masterOf(key) {
      const slot = Number((await cli(up()[0], ['cluster', 'keyslot', key])).trim());
      const range = (await slotRanges(cli, up()[0])).find((r) => r.from <= slot && slot <= r.to);
      if (!range) throw new Error(`no master serves slot ${slot}`);
      return range.port;
    },
    kill(port) {
      children.get(port)?.kill('SIGKILL');
    },
    async failedOver(port) {
      await eventually(
        async () => {
          for (const node of up()) if (!/cluster_state:ok/.test(await cli(node, ['cluster', 'info']))) return false;
          const masters = (await cluster.topology()).filter((n) => n.role === 'master').map((n) => n.port);
          return masters.length === 3 && !masters.includes(port);
        },
        30_000,
        100,
      );
    },
    async failover(port) {
      const replica = (await cluster.topology()).find((n) => n.role === 'slave' && n.masterPort === port);
      if (!replica) throw new Error(`no replica of the master on ${port}`);
      const answer = (await cli(replica.port, ['cluster', 'failover'])).trim();
      if (answer !== 'OK') throw new Error(`CLUSTER FAILOVER on ${replica.port} answered ${answer}`);
      await cluster.failedOver(port);
      await eventually(async () => /role:master/.test(await cli(replica.port, ['info', 'replication'])), 30_000, 100);
      return replica.port;
    },
    async remove() {
      process.removeListener('exit', onExit);
      const exits = [...children.values()]
        .filter((c) => c.exitCode === null && c.signalCode === null)
        .map((c) => new Promise((r) => c.once('exit', r)));
      for (const child of children.values()) child.kill('SIGKILL');
      await Promise.all(exits);
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    // Six servers starting at once while other files start theirs: 10 s was once too short on CI.
    await eventually(async () => {
      for (const port of ports) if ((await cli(port, ['ping']).catch(() => '')).trim() !== 'PONG') return false;
      return true;
    }, 30_000);
    await run('redis-cli', [
      '--cluster',
      'create',
      ...ports.map((port) => `127.0.0.1:${port}`),
      '--cluster-replicas',
      '1',
      '--cluster-yes',
    ]);
    await eventually(
      async () => {
        for (const port of ports) if (!/cluster_state:ok/.test(await cli(port, ['cluster', 'info']))) return false;
        // Every replica has its master's copy: a replica that never had one does not take over.
        const replicas = (await cluster.topology()).filter((n) => n.role === 'slave');
        if (replicas.length !== 3) return false;
        for (const { port } of replicas)
          if (!/master_link_status:up/.test(await cli(port, ['info', 'replication']))) return false;
        return true;
      },
      30_000,
      100,
    );
  } catch (error) {
    await cluster.remove();
    throw error;
  }
  return cluster;
}

/** The slot ranges of the masters up and the port of each, from CLUSTER NODES. */
async function slotRanges(
  cli: RedisCluster['cli'],
  port: number,
): Promise<Array<{ from: number; to: number; port: number }>> {
  const nodes = (await cli(port, ['cluster', 'nodes']))
    .trim()
    .split('\n')
    .map((line) => line.split(' '));
  const ranges: Array<{ from: number; to: number; port: number }> = [];
  for (const [, address, flags, , , , , , ...slots] of nodes) {
    if (!flags.includes('master') || flags.includes('fail')) continue;
    for (const range of slots) {
      if (range.startsWith('[')) continue;
      const [from, to = from] = range.split('-').map(Number);
      ranges.push({ from, to, port: Number(address.split(':')[1].split('@')[0]) });
    }
  }
  return ranges;
}

/**
 * Reruns spec files on a Redis Cluster of the calling file's own: `register` requires
 * them, so their apps, started in their own beforeAll after this one's, take REDIS_CLUSTER_NODES
 * (test/harness.ts), and their Redis clients too (test/medium/rate-limits.spec.ts).
 */
export function onRedisCluster(register: () => void): void {
  let cluster: RedisCluster | undefined;
  beforeAll(async () => {
    cluster = await startRedisCluster();
    process.env.REDIS_CLUSTER_NODES = cluster.nodes;
  }, 120_000);
  afterAll(async () => {
    delete process.env.REDIS_CLUSTER_NODES;
    await cluster?.remove();
  });
  describe('on a Redis Cluster', () => {
    register();
    // The suites' apps wrote to the cluster, not to the shared Redis: their queues' keys are there.
    it('kept the queues on the cluster, each under its hash tag', async () => {
      const keys = (
        await Promise.all(cluster!.ports.map((port) => cluster!.cli(port, ['--scan', '--pattern', '{lt:*}:*'])))
      ).join('\n');
      expect(keys).toMatch(/^\{lt:lifeline_test_\w+:[\w-]+\}:/m);
    });
  });
}
