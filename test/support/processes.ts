// Helpers for tests that run the service as real processes (production build, process tree).
import { ChildProcess, spawn, SpawnOptions } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  waitFor(pattern: RegExp | string, timeoutMs?: number): Promise<void>;
}

export function run(command: string, args: string[], options: SpawnOptions): Running {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    output: () => output,
    exited,
    async waitFor(pattern, timeoutMs = 120_000) {
      const until = Date.now() + timeoutMs;
      const seen = () => (typeof pattern === 'string' ? output.includes(pattern) : pattern.test(output));
      while (!seen()) {
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`exited before ${pattern}:\n${output}`);
        if (Date.now() > until) throw new Error(`no ${pattern} within ${timeoutMs} ms:\n${output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}

/** Every process below pid (children, their children...), from /proc. */
export function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const walk = (p: number) => {
    for (const c of parents.get(p) ?? []) {
      found.push(c);
      walk(c);
    }
  };
  walk(pid);
  return found;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'; // a zombie has stopped running
  } catch {
    return false;
  }
}

export async function waitUntilGone(pids: number[], withinMs: number): Promise<number[]> {
  const until = Date.now() + withinMs;
  while (Date.now() < until && pids.some(alive)) await new Promise((r) => setTimeout(r, 100));
  return pids.filter(alive);
}

export async function waitForHealth(url: string, timeoutMs = 120_000): Promise<Response> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const answer = await fetch(url).catch(() => null);
    if (answer?.ok) return answer;
    if (Date.now() > until) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
