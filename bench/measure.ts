// One measured round against a target service: CPU per process (bench/cpu.ts), WAL written, and
// wall time, from just before the load until the target has finished the work the load caused.
import { Client } from 'pg';
import { CpuMeter, Groups } from './cpu';
import { median } from './support';

export interface Target {
  name: string;
  /** Where the bench's own queries go (its database); its backend is left out of the CPU figures. */
  db: Client;
  /** The processes whose CPU counts, by name (e.g. api, worker, pg). */
  groups: Groups;
  /** Shared processes shown beside the figures but left out of the total (other databases use them too). */
  shared: string[];
  /** Resolves once the target has finished what the load started (e.g. the worker relayed the outbox). */
  settle(): Promise<void>;
}

export interface Round {
  target: string;
  /** Accepted events (2xx answers times events per post). */
  events: number;
  seconds: number;
  /** CPU-ms per accepted event, per group, and `total` over the groups not shared. */
  cpu: Record<string, number>;
  walBytes: number;
  /** Anything else the load reports (latencies, refusals). */
  notes: Record<string, number>;
}

export async function connect(url: string): Promise<Client> {
  const db = new Client({ connectionString: url });
  await db.connect();
  return db;
}

/** The backend process id of a client, to leave the bench's own queries out of PostgreSQL's CPU. */
export async function backendPid(db: Client): Promise<number> {
  return (await db.query(`SELECT pg_backend_pid() AS pid`)).rows[0].pid;
}

async function walLsn(db: Client): Promise<string> {
  return (await db.query(`SELECT pg_current_wal_insert_lsn()::text AS lsn`)).rows[0].lsn;
}

async function walSince(db: Client, from: string): Promise<number> {
  return Number(
    (await db.query(`SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1::pg_lsn)::bigint AS n`, [from])).rows[0].n,
  );
}

/**
 * Per table of the target's database, by PostgreSQL's statistics: rows written (inserted, updated,
 * deleted) and rows read (by sequential scans and index fetches). Backends send them at most once a
 * second and idle ones within 10 s, so compare readings taken after a quiet spell (`statsSettled`).
 */
export async function tableStats(db: Client): Promise<Record<string, { written: number; read: number }>> {
  const { rows } = await db.query(
    `SELECT relname, (n_tup_ins + n_tup_upd + n_tup_del)::bigint AS written, (COALESCE(seq_tup_read, 0) + COALESCE(idx_tup_fetch, 0))::bigint AS read
       FROM pg_stat_user_tables`,
  );
  return Object.fromEntries(rows.map((r) => [r.relname, { written: Number(r.written), read: Number(r.read) }]));
}

/** Rows written and read per event between two readings of tableStats, per table that changed. */
export function perEvent(
  before: Awaited<ReturnType<typeof tableStats>>,
  after: Awaited<ReturnType<typeof tableStats>>,
  events: number,
) {
  const tables: Record<string, { written: number; read: number }> = {};
  for (const [table, a] of Object.entries(after)) {
    const b = before[table] ?? { written: 0, read: 0 };
    if (a.written !== b.written || a.read !== b.read)
      tables[table] = { written: (a.written - b.written) / events, read: (a.read - b.read) / events };
  }
  return tables;
}

/** Long enough for idle backends to report their table statistics (PostgreSQL 15: 10 s). */
export const statsSettled = () => new Promise((r) => setTimeout(r, 11_000));

export async function measureRound(
  target: Target,
  load: () => Promise<{ events: number; seconds: number; notes: Record<string, number> }>,
): Promise<Round> {
  const wal = await walLsn(target.db);
  const meter = new CpuMeter(target.groups).start();
  const { events, seconds, notes } = await load();
  await target.settle();
  const { ms } = meter.stop();
  const walBytes = await walSince(target.db, wal);
  const per = (value: number) => (events > 0 ? value / events : NaN);
  const cpu: Record<string, number> = {};
  let total = 0;
  for (const [group, value] of Object.entries(ms)) {
    cpu[group] = per(value);
    if (!target.shared.includes(group)) total += value;
  }
  cpu.total = per(total);
  return { target: target.name, events, seconds, cpu, walBytes: per(walBytes), notes };
}

/** Medians over rounds of one target: events/s, CPU-ms per event per group, WAL bytes per event. */
export function medians(rounds: Round[]) {
  const groups = Object.keys(rounds[0]?.cpu ?? {});
  return {
    rate: median(rounds.map((r) => r.events / r.seconds)),
    cpu: Object.fromEntries(groups.map((g) => [g, median(rounds.map((r) => r.cpu[g]))])) as Record<string, number>,
    walBytes: median(rounds.map((r) => r.walBytes)),
  };
}
