// The text bench/ingest.ts prints: medians per target and kind, and Lifeline's
// figures as ratios to the thin service's in the same run (with --apis N: N apis' to one api's).
import { NODE_FLAGS } from '@app/platform/launcher';
import { medians, Round } from './measure';
import { median } from './support';

interface Report {
  command: string;
  started: Date;
  load: number[];
  ended: number[];
  seconds: number;
  rounds: number;
  prefilled: string;
  /** With --apis N: the baseline is Lifeline with one api, the subject with N; otherwise thin and lifeline. */
  apis: number;
  kinds: Array<{ name: string; label: string }>;
  /** Rounds by `${kind}:${target}`. */
  results: Record<string, Round[]>;
  /** Rows written and read per accepted event by kind, target and table (PostgreSQL's statistics over all rounds). */
  tables: Record<string, Record<string, Record<string, { written: number; read: number }>>>;
}

const ms = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? '' : value.toFixed(3));
const written = (tables: Record<string, { written: number }> = {}) =>
  Object.values(tables).reduce((n, t) => n + t.written, 0);
const byTable = (tables: Record<string, { written: number; read: number }> = {}) =>
  Object.entries(tables)
    .sort((a, b) => b[1].written + b[1].read - (a[1].written + a[1].read))
    .map(([table, t]) => `${table} ${t.written.toFixed(2)} / ${t.read.toFixed(1)}`)
    .join(', ');
const loads = (l: number[]) => l.map((x) => x.toFixed(2)).join(', ');

/** The two targets of a run, baseline first: their names in the results and as the text calls them. */
export function targetNames(apis: number): Array<{ name: string; label: string }> {
  return apis > 1
    ? [
        { name: 'one-api', label: '1 api' },
        { name: `${apis}-apis`, label: `${apis} apis` },
      ]
    : [
        { name: 'thin', label: 'thin' },
        { name: 'lifeline', label: 'Lifeline' },
      ];
}

function kindSection(report: Report, kind: { name: string; label: string }): string[] {
  const [base, subject] = targetNames(report.apis);
  const baseRounds = report.results[`${kind.name}:${base.name}`];
  const subjectRounds = report.results[`${kind.name}:${subject.name}`];
  const b = medians(baseRounds);
  const s = medians(subjectRounds);
  const redisPerEvent = (rounds: Round[]) =>
    rounds[0].notes.redisCommands === undefined
      ? ''
      : ` | ${median(rounds.map((r) => r.notes.redisCommands / r.events)).toFixed(2)}`;
  const row = (name: string, rounds: Round[], m: ReturnType<typeof medians>) =>
    `| ${name} | ${m.rate.toFixed(0)} | ${ms(m.cpu.api ?? m.cpu.thin)} | ${ms(m.cpu.worker)} | ${ms(m.cpu.pg)} | **${ms(m.cpu.total)}** | ${ms(m.cpu.pgShared)} | ${ms(m.cpu.redis)} | ${m.walBytes.toFixed(0)} | ${written(report.tables[kind.name]?.[name]).toFixed(2)} | ${median(rounds.map((r) => r.notes.p99))} ms | ${rounds.reduce((n, r) => n + r.notes.refused + r.notes.errors, 0)}${redisPerEvent(rounds)} |`;
  const perRound = (rounds: Round[]) =>
    rounds.map((r) => `${(r.events / r.seconds).toFixed(0)}/s ${r.cpu.total.toFixed(3)} ms`).join('; ');
  const redisColumn = baseRounds[0].notes.redisCommands === undefined ? ['', ''] : [' Redis commands/event |', '---|'];
  const apiLabel = report.apis > 1 ? 'api processes' : 'api+thin process';
  return [
    `### ${kind.label}`,
    '',
    `| service | events/s | api (thin: its process) | worker | PostgreSQL | total CPU-ms/event | PG shared | Redis | WAL bytes/event | rows/event | p99 | refused + errors |${redisColumn[0]}`,
    `|---|---|---|---|---|---|---|---|---|---|---|---|${redisColumn[1]}`,
    row(base.name, baseRounds, b),
    row(subject.name, subjectRounds, s),
    '',
    `${subject.label} / ${base.label}: **CPU per event ${(s.cpu.total / b.cpu.total).toFixed(2)}×** (${apiLabel} ${((s.cpu.api ?? NaN) / (b.cpu.api ?? b.cpu.thin)).toFixed(2)}×,` +
      ` PostgreSQL ${(s.cpu.pg / b.cpu.pg).toFixed(2)}×), **throughput ${(s.rate / b.rate).toFixed(2)}×**, WAL per event ${(s.walBytes / b.walBytes).toFixed(1)}×.`,
    '',
    `Rounds (events/s, total CPU-ms/event): ${base.label} ${perRound(baseRounds)}. ${subject.label} ${perRound(subjectRounds)}.`,
    '',
    `Rows per event by table (written / read): ${base.label}: ${byTable(report.tables[kind.name]?.[base.name])}. ${subject.label}: ${byTable(report.tables[kind.name]?.[subject.name])}.`,
    '',
  ];
}

const THIN_SETUP = [
  "Lifeline: api and worker as two processes from dist/ (NODE_ENV=production, node NODE_FLAGS, as they run in production); thin: bench/thin-server.ts (node:http + pg, pool of 10, node's defaults,",
  'one prepared INSERT per post into a minimal events table, a batch as one INSERT … SELECT FROM unnest). Same autocannon',
  'settings and bodies for both (single and batch: half the items name a new person, half one first seen 4,000 events earlier;',
  'probe: every item a new person, each post the next of 250 keys of the workspace).',
];
const APIS_SETUP = (apis: number) => [
  `Two Lifelines side by side, each on its own database, with one worker: one with a single api, one with ${apis} api processes on one`,
  `database and one Redis prefix (NODE_ENV=production, node NODE_FLAGS), the load spread evenly (one autocannon per api, the connections`,
  `divided between them). Both on a private redis-server the bench starts, so Redis commands/event (INFO commandstats, every command`,
  "from the start of a round until its outbox is relayed, divided by accepted events) counts only them (the idle one's timers included).",
];

export function report(r: Report): string {
  return [
    `Command: \`${r.command}\`` +
      ` (${r.seconds} s per round, ${r.rounds} rounds per service and kind, interleaved ${targetNames(r.apis)
        .map((t) => t.label)
        .join(', ')}, …${r.prefilled}).`,
    `Started ${r.started.toISOString().slice(0, 16).replace('T', ' ')} UTC; load average (uptime) ${loads(r.load)} at the start, ${loads(r.ended)} at the end.`,
    '',
    ...(r.apis > 1 ? APIS_SETUP(r.apis) : THIN_SETUP).map((line) => line.replace('NODE_FLAGS', NODE_FLAGS.join(' '))),
    'CPU-ms per accepted event, medians over rounds, from utime+stime in /proc from the start of a round until the worker has',
    "relayed the round's outbox: api, worker, and PostgreSQL's backends of the service's own database (by process title; the",
    "bench's own connection left out). Not in the total, shown for scale: PG shared (WAL writer, checkpointer, background",
    'writer) and Redis, which other databases and tests on this machine use too. WAL bytes are cluster-wide',
    '(pg_current_wal_insert_lsn), so other work on the machine adds to them; rows/event is inserts+updates+deletes in the',
    "service's database (pg_stat_user_tables) over all rounds of the kind, and rows read counts sequential-scan rows and",
    'index fetches (a plan that reads a whole table shows there). autocannon runs in the bench process (not counted).',
    '',
    ...r.kinds.flatMap((k) => kindSection(r, k)),
  ].join('\n');
}
