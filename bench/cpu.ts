// CPU time of processes from /proc, for the benches: utime + stime of every process a group names,
// summed between start() and stop(). Processes are polled while the meter runs, so one that appears
// during the measurement counts from zero and one that exits keeps what it had used when last seen.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat times (`getconf CLK_TCK`, 100 on Linux). */
export const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

export interface Proc {
  pid: number;
  ppid: number;
  comm: string;
  /** The command line with NULs as spaces; PostgreSQL backends show `postgres: <user> <database> <host> <state>`. */
  cmdline: string;
  /** utime + stime in clock ticks. */
  ticks: number;
}

function readProc(pid: number): Proc | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm is in parentheses and may hold spaces; the fields after it are space separated.
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    // After comm: state(0) ppid(1) ... utime(11) stime(12).
    const ticks = Number(fields[11]) + Number(fields[12]);
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
    return { pid, ppid: Number(fields[1]), comm, cmdline, ticks };
  } catch {
    return null; // gone between listing and reading
  }
}

/** Every process on the machine (that this user may read). */
export function processes(): Proc[] {
  const all: Proc[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const proc = readProc(Number(name));
    if (proc) all.push(proc);
  }
  return all;
}

/** Names a group of processes: the CPU of every process it accepts is summed under its name. */
export type Groups = Record<string, (proc: Proc, all: Map<number, Proc>) => boolean>;

/** A process by its id (and nothing else). */
export const byPid = (pid: number | undefined) => (proc: Proc) => proc.pid === pid;

/**
 * PostgreSQL's work for one database: its backends (the process title names the database), the
 * parallel workers of those backends and autovacuum workers on it.
 */
export function postgresOf(database: string) {
  const backendOf = (proc: Proc) => proc.comm === 'postgres' && proc.cmdline.split(' ').includes(database);
  return (proc: Proc, all: Map<number, Proc>) => {
    if (proc.comm !== 'postgres') return false;
    if (backendOf(proc)) return true;
    const leader = /parallel worker for PID (\d+)/.exec(proc.cmdline);
    const leaderProc = leader ? all.get(Number(leader[1])) : undefined;
    return leaderProc !== undefined && backendOf(leaderProc);
  };
}

/** PostgreSQL's shared helpers (WAL writer, checkpointer, background writer): shared by every database. */
export const postgresShared = (proc: Proc) =>
  proc.comm === 'postgres' && /: (walwriter|checkpointer|background writer)\s*$/.test(proc.cmdline);

export interface CpuReading {
  /** CPU milliseconds per group between start() and stop(). */
  ms: Record<string, number>;
  /** Wall-clock milliseconds between start() and stop(). */
  wallMs: number;
}

/** Measures the CPU of groups of processes between start() and stop(), polling every `everyMs`. */
export class CpuMeter {
  private first = new Map<number, number>();
  private last = new Map<number, { group: string; ticks: number }>();
  private timer: NodeJS.Timeout | undefined;
  private startedAt = 0;

  constructor(
    private readonly groups: Groups,
    private readonly everyMs = 500,
  ) {}

  private poll(starting: boolean): void {
    const all = new Map(processes().map((p) => [p.pid, p]));
    for (const proc of all.values()) {
      const group = Object.keys(this.groups).find((name) => this.groups[name](proc, all));
      if (!group) continue;
      // A process first seen after the start was started during the measurement: it counts from zero.
      if (!this.first.has(proc.pid)) this.first.set(proc.pid, starting ? proc.ticks : 0);
      this.last.set(proc.pid, { group, ticks: proc.ticks });
    }
  }

  start(): this {
    this.first.clear();
    this.last.clear();
    this.startedAt = Date.now();
    this.poll(true);
    this.timer = setInterval(() => this.poll(false), this.everyMs);
    return this;
  }

  stop(): CpuReading {
    clearInterval(this.timer);
    this.poll(false);
    const ms: Record<string, number> = Object.fromEntries(Object.keys(this.groups).map((g) => [g, 0]));
    for (const [pid, { group, ticks }] of this.last)
      ms[group] += ((ticks - (this.first.get(pid) ?? 0)) * 1000) / CLK_TCK;
    return { ms, wallMs: Date.now() - this.startedAt };
  }
}
