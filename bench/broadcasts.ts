// npm run bench:broadcasts — one broadcast to a big list (docs/graphql.md#broadcasts), unthrottled
// (BROADCAST_MESSAGES_PER_SECOND=0), through an SMTP sink on this machine that counts what it is given. One Lifeline
// (api + worker, NODE_ENV=production) on a fresh database; BENCH_SUBSCRIBERS (100,000) engaged people subscribed
// to one list, written with SQL. Figures: the send's time (finishedAt - startedAt, target ≤ 5 min), that the sink
// got exactly one email per recipient (none missing, none twice), the CPU of the api, worker and PostgreSQL over
// the send; and single-event posts on the same workspace, at BENCH_RATE (200) posts/s on 16 connections, their
// p99 in BENCH_ROUNDS (3) quiet rounds of BENCH_SECONDS (10) before the send (and one after) against rounds
// while it sends (target: the median of those ≤ 1.5× the quiet median). A send still going after BENCH_DEADLINE_S
// (600) is cancelled and reported unfinished; BENCH_ANALYZE=1 analyzes broadcast_recipients once sending starts.
import { loadavg } from 'node:os';
import type { Client } from 'pg';
import { SMTPServer } from 'smtp-server';
import { freePort } from '@app/platform';
import { byPid, CpuMeter, postgresOf } from './cpu';
import { connect } from './measure';
import { postRound, type PostRound as IngestRound, type PostTarget, POSTS_PER_KEY } from './post-rounds';
import { benchDatabase, gql, median, sleep, startService, workspaceWithKeys, writeResults } from './support';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_S ?? 600) * 1000;
const ANALYZE = process.env.BENCH_ANALYZE === '1';
/** BENCH_SENDS_IN_FLIGHT: the worker's BROADCAST_SENDS_IN_FLIGHT and nodemailer's pool (?maxConnections) together. */
const IN_FLIGHT = process.env.BENCH_SENDS_IN_FLIGHT;
const DATABASE = benchDatabase('lifeline_bench_broadcasts');
/** Keys enough that none is used for more than 500 posts (the limit is 600 per key per ten minutes). */
const KEYS = 2 + Math.ceil(((2 * ROUNDS + 2) * SECONDS * RATE) / POSTS_PER_KEY);

/** An SMTP server that keeps only how many emails each recipient got (100,000 raw emails would not fit). */
async function countingSink() {
  const byRecipient = new Map<string, number>();
  let emails = 0;
  const port = await freePort();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    closeTimeout: 1000,
    maxClients: 1000,
    onData(stream, session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        emails++;
        for (const { address } of session.envelope.rcptTo)
          byRecipient.set(address.toLowerCase(), (byRecipient.get(address.toLowerCase()) ?? 0) + 1);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    byRecipient,
    emails: () => emails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const address = (n: number) => `r${n}@bench.test`;

/** People 1..n, engaged, each with an email identity, every one subscribed to the list `news`. */
async function fillSubscribers(db: Client, ws: string, n: number): Promise<number> {
  const started = Date.now();
  const id = `'per_b' || lpad(n::text, 9, '0')`;
  await db.query(`SET statement_timeout = 0; SET synchronous_commit = off`);
  await db.query(
    `INSERT INTO people (workspace_id, id, email, engaged_at, fields, created_at, updated_at)
     SELECT $1, ${id}, 'r' || n || '@bench.test', now() - interval '1 day', '{}'::jsonb, now() - interval '2 days', now()
       FROM generate_series(1, $2::int) AS n`,
    [ws, n],
  );
  await db.query(
    `INSERT INTO identities (workspace_id, kind, value, person_id, created_at, person_created_at)
     SELECT $1, 'email', 'r' || n || '@bench.test', ${id}, now() - interval '2 days', now() - interval '2 days'
       FROM generate_series(1, $2::int) AS n ORDER BY 3`,
    [ws, n],
  );
  await db.query(
    `INSERT INTO subscriptions (workspace_id, list_id, person_id, status, consent, consent_text, granted_at)
     SELECT $1, l.id, ${id}, 'subscribed', jsonb_build_object('text', 'News.'), 'News.', now() - interval '1 day'
       FROM generate_series(1, $2::int) AS n, lists l WHERE l.workspace_id = $1 AND l.address = 'news'`,
    [ws, n],
  );
  await db.query(`VACUUM (ANALYZE) people, identities, subscriptions`);
  await db.query(`RESET statement_timeout; RESET synchronous_commit`);
  return (Date.now() - started) / 1000;
}

/** One round of single events at RATE posts/s on the workspace: its latency percentiles and answers. */
const ingestRound = (target: PostTarget, seconds = SECONDS) =>
  postRound(target, { rate: RATE, seconds, email: (n) => address(1 + (n % SUBSCRIBERS)) });

const PROGRESS = `query($id: ID!) { broadcast(id: $id) { state audience sent failed skipped pending startedAt finishedAt } }`;

/** Rounds of posts while the broadcast sends (up to ROUNDS, none begun once it is over); then waits for its end. */
async function duringSend(url: string, key: string, id: string, target: PostTarget, log: (s: string) => void) {
  const rounds: IngestRound[] = [];
  const until = Date.now() + DEADLINE_MS;
  let progress = (await gql(url, PROGRESS, { id }, key)).broadcast;
  while (progress.state === 'sending' && Date.now() < until) {
    if (rounds.length < ROUNDS) {
      rounds.push(await ingestRound(target));
      log(`during ${rounds.length}: p50 ${rounds.at(-1)!.p50} ms, p99 ${rounds.at(-1)!.p99} ms`);
    } else await sleep(2_000);
    progress = (await gql(url, PROGRESS, { id }, key)).broadcast;
    log(`  ${progress.state}: sent ${progress.sent}, skipped ${progress.skipped}, failed ${progress.failed}`);
  }
  return { rounds, progress };
}

/** Waits until the sink has as many emails as were sent (SMTP answers before the worker records), up to 30 s. */
async function settled(sink: Awaited<ReturnType<typeof countingSink>>, sent: number): Promise<void> {
  for (let i = 0; i < 300 && sink.emails() < sent; i++) await sleep(100);
  await sleep(1_000);
}

function tally(byRecipient: Map<string, number>, n: number) {
  let missing = 0;
  let twice = 0;
  for (let i = 1; i <= n; i++) {
    const got = byRecipient.get(address(i)) ?? 0;
    if (got === 0) missing++;
    else if (got > 1) twice++;
  }
  const strangers = [...byRecipient.keys()].filter((a) => !/^r\d+@bench\.test$/.test(a)).length;
  return { missing, twice, strangers };
}

async function prepare(url: string, owner: string, db: Client, workspaceId: string) {
  await gql(
    url,
    'mutation($i: UpdateWorkspaceSettingsInput!) { updateWorkspaceSettings(input: $i) { id } }',
    {
      i: { postalAddress: '1 Bench Street\n12345 Testville' },
    },
    owner,
  );
  await gql(
    url,
    'mutation($i: CreateListInput!) { createList(input: $i) { id } }',
    {
      i: { address: 'news', name: 'News' },
    },
    owner,
  );
  const fill = await fillSubscribers(db, workspaceId, SUBSCRIBERS);
  const made = await gql(
    url,
    'mutation($i: CreateBroadcastInput!) { createBroadcast(input: $i) { id } }',
    {
      i: {
        name: 'Bench',
        list: 'news',
        subject: 'News for {{ person.email }}',
        body: 'Hello {{ person.email }}.\n\nA **bench**.',
      },
    },
    owner,
  );
  return { fill, id: made.createBroadcast.id as string };
}

async function run(log: (s: string) => void): Promise<string> {
  const sink = await countingSink();
  const service = await startService(DATABASE, ['api', 'worker'], {
    SMTP_URL: IN_FLIGHT ? `${sink.url}?maxConnections=${IN_FLIGHT}` : sink.url,
    BROADCAST_MESSAGES_PER_SECOND: '0',
    ...(IN_FLIGHT ? { BROADCAST_SENDS_IN_FLIGHT: IN_FLIGHT } : {}),
  });
  const db = await connect(service.databaseUrl);
  try {
    const made = await workspaceWithKeys(service.url, 'bench', KEYS);
    const [owner, ...keys] = made.secretKeys;
    const { fill, id } = await prepare(service.url, owner, db, made.workspaceId);
    log(`${SUBSCRIBERS} subscribers in ${fill.toFixed(1)} s`);
    const target: PostTarget = { url: service.url, keys, posts: 0 };
    await ingestRound(target, 5); // warm-up: connections open, statements planned
    const quiet: IngestRound[] = [];
    for (let r = 0; r < ROUNDS; r++) quiet.push(await ingestRound(target));
    log(`quiet p99s ${quiet.map((q) => q.p99).join(', ')} ms`);
    const meter = new CpuMeter({
      api: byPid(service.pids.api),
      worker: byPid(service.pids.worker),
      pg: postgresOf(DATABASE),
    }).start();
    const asked = Date.now();
    await gql(service.url, 'mutation($id: ID!) { sendBroadcast(id: $id) { id } }', { id }, owner);
    const sendAnswerMs = Date.now() - asked;
    // BENCH_ANALYZE=1: the recipients' statistics read once the audience is written (the send's own plans then know it).
    if (ANALYZE) await db.query('ANALYZE broadcast_recipients');
    const during = await duringSend(service.url, owner, id, target, log);
    const cpu = meter.stop();
    // Past the deadline the rest is cancelled, so the round after is quiet; the figures say so.
    if (during.progress.state === 'sending') {
      await gql(service.url, 'mutation($id: ID!) { cancelBroadcast(id: $id) { id } }', { id }, owner);
      await sleep(2_000);
      during.progress = (await gql(service.url, PROGRESS, { id }, owner)).broadcast;
    }
    await settled(sink, during.progress.sent);
    const after = await ingestRound(target);
    return report({ fill, sendAnswerMs, during, quiet: [...quiet, after], cpu: cpu.ms, sink });
  } finally {
    await db.end();
    await service.stop();
    await sink.close();
  }
}

interface Outcome {
  fill: number;
  sendAnswerMs: number;
  during: Awaited<ReturnType<typeof duringSend>>;
  quiet: IngestRound[];
  cpu: Record<string, number>;
  sink: Awaited<ReturnType<typeof countingSink>>;
}

function report({ fill, sendAnswerMs, during, quiet, cpu, sink }: Outcome): string {
  const p = during.progress;
  const seconds = ((p.finishedAt ? Date.parse(p.finishedAt) : Date.now()) - Date.parse(p.startedAt)) / 1000;
  const took =
    p.state === 'sent' ? `**${seconds.toFixed(1)} s**` : `**not finished**: ${p.state} after ${seconds.toFixed(0)} s`;
  const { missing, twice, strangers } = tally(sink.byRecipient, SUBSCRIBERS);
  const late = p.state === 'sent' ? '' : ` (missing: the ${(SUBSCRIBERS - p.sent).toLocaleString('en')} not sent)`;
  const exact = sink.emails() === SUBSCRIBERS && missing === 0 && twice === 0 && strangers === 0;
  const quietP99 = median(quiet.map((q) => q.p99));
  const duringP99 = median(during.rounds.map((r) => r.p99));
  const perEmail = (ms: number) => (ms / Math.max(p.sent, 1)).toFixed(3);
  const ms = (rounds: IngestRound[], key: 'p50' | 'p99') => rounds.map((r) => r[key]).join(' / ');
  const refused = [...quiet, ...during.rounds].reduce((n, r) => n + r.other, 0);
  return `One broadcast to ${SUBSCRIBERS.toLocaleString('en')} engaged subscribers of one list (written with SQL in ${fill.toFixed(0)} s),
BROADCAST_MESSAGES_PER_SECOND=0, ${IN_FLIGHT ? `BROADCAST_SENDS_IN_FLIGHT=${IN_FLIGHT} with the SMTP pool as large` : 'the default sends in flight (5) and SMTP pool (5)'},
one Lifeline (api + worker) and an SMTP sink in the bench's process, all on this machine. Load average ${loadavg()[0].toFixed(1)} at the end.

- The send: ${took} from sendBroadcast to the last recipient (${(p.sent / seconds).toFixed(0)} emails/s; target ≤ 300 s),
  state ${p.state}; sendBroadcast itself (the audience of ${p.audience?.toLocaleString('en')} fixed) answered in ${sendAnswerMs} ms.
- Recipients: ${p.sent} sent, ${p.skipped} skipped, ${p.failed} failed, ${p.pending} pending. The sink got
  **${sink.emails().toLocaleString('en')} emails** for ${sink.byRecipient.size.toLocaleString('en')} addresses: ${missing} missing${late}, ${twice} twice,
  ${strangers} to other addresses (${exact ? '**exactly one each**' : '**not exactly one each**'}).
- CPU over the send, per email sent: worker ${perEmail(cpu.worker)} ms, PostgreSQL ${perEmail(cpu.pg)} ms, api ${perEmail(cpu.api)} ms.
- Ingest on the same workspace, single events at ${RATE} posts/s on 16 connections, ${SECONDS} s rounds: p99 quiet
  **${quietP99} ms** (rounds ${ms(quiet, 'p99')}; the last after the send), while sending **${duringP99} ms**
  (rounds ${ms(during.rounds, 'p99')}): **${(duringP99 / quietP99).toFixed(2)}×** (target ≤ 1.5×); p50 ${ms(quiet, 'p50')} against
  ${ms(during.rounds, 'p50')} ms; ${refused} answers not 2xx.`;
}

async function main() {
  const started = new Date().toISOString();
  const body = await run((line) => console.log(line));
  const env = Object.entries(process.env)
    .filter(([k]) => /^BENCH_/.test(k))
    .map(([k, v]) => `${k}=${v} `)
    .join('');
  writeResults('Broadcasts', `Command: \`${env}npm run bench:broadcasts\`, started ${started}.\n\n${body}`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
