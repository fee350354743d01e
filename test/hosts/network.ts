// Hosts of the test's own on one machine: each a network namespace (`ip netns`) with one link, a veth
// pair whose other end sits on a bridge in the machine's own namespace, which is the clients' host
// (the checker, the webhook receiver, the SMTP server). Faults are set on a host's link: `tc netem`
// on its egress (delay, loss, reordering; on a kernel without netem, delay.py doing the same from an
// NFQUEUE), the link down, or an iptables filter dropping what it sends to some hosts (a partition one
// way is a partition both ways for TCP).
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';

/** Every name this harness makes starts so, and every address is in SUBNET: a leftover is found and removed. */
const PREFIX = 'llh-';
const BRIDGE = `${PREFIX}br`;
const SUBNET = '10.77.0';
/** The bridge's address: the clients' host as the others reach it. */
export const CLIENTS_ADDRESS = `${SUBNET}.1`;

export interface Host {
  name: string;
  address: string;
  /** argv prefix that runs a program inside this host. */
  exec: string[];
}

export interface Faults {
  delayMs?: number;
  jitterMs?: number;
  lossPercent?: number;
  /** Percent of packets sent at once while the others wait the delay: they arrive out of order. */
  reorderPercent?: number;
}

export function sh(program: string, args: string[], options: { input?: string; quiet?: boolean } = {}): string {
  return execFileSync(program, args, {
    encoding: 'utf8',
    input: options.input,
    stdio: ['pipe', 'pipe', options.quiet ? 'ignore' : 'pipe'],
  });
}

function inside(host: Host, program: string, args: string[]): string {
  return sh('ip', ['netns', 'exec', namespaceOf(host.name), program, ...args]);
}

const namespaceOf = (name: string) => `${PREFIX}${name}`;

/**
 * Removes what an earlier run left: the processes still in its namespaces (only this harness starts any
 * there), the namespaces, the links of ours left on the bridge, and the bridge.
 */
export function removeNetwork(): void {
  for (const line of sh('ip', ['netns', 'list']).split('\n')) {
    const name = line.split(' ')[0];
    if (!name.startsWith(PREFIX)) continue;
    for (const pid of sh('ip', ['netns', 'pids', name]).split('\n').filter(Boolean)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // ended meanwhile
      }
    }
    sh('ip', ['netns', 'delete', name]);
  }
  for (const line of sh('ip', ['-o', 'link', 'show']).split('\n')) {
    const link = /^\d+: ([^:@]+)/.exec(line)?.[1];
    if (!link?.startsWith(PREFIX)) continue;
    try {
      sh('ip', ['link', 'delete', link], { quiet: true });
    } catch {
      // gone with its namespace meanwhile
    }
  }
}

export function createBridge(): void {
  removeNetwork();
  sh('ip', ['link', 'add', BRIDGE, 'type', 'bridge']);
  sh('ip', ['addr', 'add', `${CLIENTS_ADDRESS}/24`, 'dev', BRIDGE]);
  sh('ip', ['link', 'set', BRIDGE, 'up']);
}

/** A host numbered `n` (2 to 254): namespace, veth pair on the bridge, address 10.77.0.n, loopback up. */
export function createHost(name: string, n: number): Host {
  const ns = namespaceOf(name);
  const outside = `${PREFIX}${name}`.slice(0, 15);
  sh('ip', ['netns', 'add', ns]);
  sh('ip', ['link', 'add', outside, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', ns]);
  sh('ip', ['link', 'set', outside, 'master', BRIDGE, 'up']);
  const host: Host = { name, address: `${SUBNET}.${n}`, exec: ['ip', 'netns', 'exec', ns] };
  inside(host, 'ip', ['addr', 'add', `${host.address}/24`, 'dev', 'eth0']);
  inside(host, 'ip', ['link', 'set', 'eth0', 'up']);
  inside(host, 'ip', ['link', 'set', 'lo', 'up']);
  return host;
}

let netem: boolean | undefined;

/**
 * Whether this kernel has netem (sch_netem), asked once in a namespace of its own (the machine's own links
 * are left alone). A kernel built without it gets the same faults from delay.py (docs/decisions.md#delays-without-netem).
 */
export function hasNetem(): boolean {
  if (netem !== undefined) return netem;
  const probe = namespaceOf('probe');
  sh('ip', ['netns', 'add', probe]);
  try {
    sh('ip', ['netns', 'exec', probe, 'tc', 'qdisc', 'add', 'dev', 'lo', 'root', 'netem', 'delay', '1ms'], {
      quiet: true,
    });
    netem = true;
  } catch {
    netem = false;
  } finally {
    sh('ip', ['netns', 'delete', probe]);
  }
  return netem;
}

/** The iptables rule that hands delay.py every packet the host sends; with no reader bound they pass. */
const QUEUE_RULE = ['OUTPUT', '-o', 'eth0', '-j', 'NFQUEUE', '--queue-num', '0', '--queue-bypass'];
const delayers = new Map<string, ChildProcess>();

/**
 * Sets (or, with {}, clears) the host's faults on its egress; every packet between two hosts leaves one of
 * them. netem when the kernel has it; otherwise delay.py, reading the host's packets from an NFQUEUE.
 */
export async function setFaults(host: Host, faults: Faults): Promise<void> {
  await clearFaults(host);
  if (!faults.delayMs && !faults.lossPercent && !faults.reorderPercent) return;
  if (!hasNetem()) return startDelayer(host, faults);
  const args = ['qdisc', 'add', 'dev', 'eth0', 'root', 'netem', 'limit', '100000'];
  if (faults.delayMs) args.push('delay', `${faults.delayMs}ms`, ...(faults.jitterMs ? [`${faults.jitterMs}ms`] : []));
  if (faults.reorderPercent) args.push('reorder', `${faults.reorderPercent}%`);
  if (faults.lossPercent) args.push('loss', `${faults.lossPercent}%`);
  inside(host, 'tc', args);
}

async function clearFaults(host: Host): Promise<void> {
  const delayer = delayers.get(host.name);
  if (!delayer) {
    try {
      if (hasNetem()) sh('ip', [...host.exec.slice(1), 'tc', 'qdisc', 'del', 'dev', 'eth0', 'root'], { quiet: true });
    } catch {
      // no qdisc of ours yet
    }
    return;
  }
  inside(host, 'iptables', ['-D', ...QUEUE_RULE]);
  delayers.delete(host.name);
  const exited = new Promise((resolve) => delayer.once('exit', resolve));
  delayer.kill('SIGTERM'); // it lets go of what it holds first
  await exited;
}

async function startDelayer(host: Host, faults: Faults): Promise<void> {
  const figures = [faults.delayMs, faults.jitterMs, faults.lossPercent, faults.reorderPercent].map((f) =>
    String(f ?? 0),
  );
  const child = spawn(host.exec[0], [...host.exec.slice(1), 'python3', join(__dirname, 'delay.py'), ...figures], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`delay.py on ${host.name} ended (${code})`)));
  });
  delayers.set(host.name, child);
  inside(host, 'iptables', ['-A', ...QUEUE_RULE]);
}

/** Drops every packet the host sends to `others` (and so every connection between them) until healed. */
export function partition(host: Host, others: Host[]): void {
  for (const other of others) inside(host, 'iptables', ['-A', 'OUTPUT', '-d', other.address, '-j', 'DROP']);
}

export function heal(host: Host): void {
  inside(host, 'iptables', ['-F', 'OUTPUT']);
}

export function linkDown(host: Host): void {
  inside(host, 'ip', ['link', 'set', 'eth0', 'down']);
}

export function linkUp(host: Host): void {
  inside(host, 'ip', ['link', 'set', 'eth0', 'up']);
}

/** Pids of every process whose network namespace is this host's. */
export function processesOf(host: Host): number[] {
  return sh('ip', ['netns', 'pids', namespaceOf(host.name)])
    .split('\n')
    .filter(Boolean)
    .map(Number);
}
