// The checker of a run (docs/operations.md#across-hosts): once the load has stopped and the workers have
// drained, it reads what PostgreSQL stored, what the webhook receiver and the SMTP server were given, and
// holds them against every answer the clients kept. What it saw is a table; a check that does not hold
// is a line of `failures`.
import type { DataSource } from 'typeorm';
// Each api may admit its local share of a window past the limit (docs/decisions.md#rate-limits).
import { LOCAL_SHARE } from '@app/platform';
import { allRelayed } from '../support/outbox';
import type { Received } from '../support/receiver';
import type { Mail } from '../support/smtp';
import type { Operation } from './clients';
import { until } from './postgres';

/** Posts of one delivery (one webhook-id) the receiver may see: at least once, and a second post after a crash (docs/webhooks.md#delivery-retries-and-the-log). */
export const POSTS_PER_DELIVERY = 2;

export interface Subject {
  db: DataSource;
  workspaceId: string;
  limitedWorkspaceId: string;
  operations: Operation[];
  /** The receiver's posts and the SMTP server's mails of this run only. */
  received: () => Received[];
  mails: () => Mail[];
  limit: number;
  apis: number;
}

export interface Report {
  table: string;
  failures: string[];
  figures: Figures;
}

export interface Figures {
  /** Longest time with no event or batch answered ok, from one ok answer to the next. */
  longestGapMs: number;
  /** Answers that were not ok while the service was away (503, a proxy's 502/504, no answer). */
  refused: number;
  answered: number;
}

const subjectOf = (mail: Mail) => /^Subject: hosts (m\d+)/im.exec(mail.raw)?.[1] ?? '';

async function storedCounts(s: Subject, workspaceId: string): Promise<Map<string, { n: number; ids: string[] }>> {
  // the load's events only: the recipient's signup is no part of it
  const rows: Array<{ seq: string; n: number; ids: string[] }> = await s.db.query(
    `SELECT properties->>'seq' AS seq, count(*)::int AS n, array_agg(id) AS ids FROM events
      WHERE workspace_id = $1 AND properties ? 'seq' GROUP BY 1`,
    [workspaceId],
  );
  return new Map(rows.map((r) => [r.seq, { n: r.n, ids: r.ids }]));
}

/** Waits until the outbox is drained, every stored event reached the receiver and every sent message the SMTP server. */
export async function drained(s: Subject, timeoutMs: number): Promise<void> {
  await until(
    async () => {
      if (!(await allRelayed(s.db))) return false;
      const [left] = await s.db.query(
        `SELECT count(*)::int AS n FROM deliveries WHERE workspace_id = $1 AND state <> 'succeeded'`,
        [s.workspaceId],
      );
      if (left.n > 0) return false;
      const stored = await storedCounts(s, s.workspaceId);
      const posted = new Set(s.received().map((r) => r.body?.data?.id));
      const ids = [...stored.values()].flatMap((v) => v.ids);
      const sent = new Set(s.mails().map(subjectOf));
      const messages = s.operations.filter((o) => o.kind === 'message' && o.outcome === 'ok');
      return ids.every((id) => posted.has(id)) && messages.every((m) => sent.has(m.id));
    },
    timeoutMs,
    'the drain (outbox relayed, deliveries received, emails sent)',
  );
}

export async function check(s: Subject): Promise<Report> {
  const failures: string[] = [];
  const rows: string[][] = [];
  const fail = (line: string) => failures.push(line);
  const stored = await storedCounts(s, s.workspaceId);

  // every item answered ok stored exactly once; an item without a final answer at most once
  for (const kind of ['event', 'batch'] as const) {
    const ops = s.operations.filter((o) => o.kind === kind);
    const items = (outcome: string) => ops.filter((o) => o.outcome === outcome).flatMap((o) => o.items);
    const acked = items('ok');
    const lost = acked.filter((i) => (stored.get(i)?.n ?? 0) === 0);
    const twice = [...acked, ...items('unknown'), ...items('refused')].filter((i) => (stored.get(i)?.n ?? 0) > 1);
    const unknownStored = items('unknown').filter((i) => stored.has(i)).length;
    if (lost.length) fail(`${lost.length} ${kind} items answered ok are not stored: ${lost.slice(0, 5).join(', ')}`);
    if (twice.length) fail(`${twice.length} ${kind} items are stored twice: ${twice.slice(0, 5).join(', ')}`);
    rows.push([
      kind,
      ...tally(ops),
      `${acked.length} ok items, ${lost.length} lost, ${twice.length} twice`,
      `${unknownStored} of ${items('unknown').length} unanswered stored`,
    ]);
  }

  // every stored event delivered, once per event, each delivery posted at most POSTS_PER_DELIVERY times
  const posts = s.received();
  const byEvent = new Map<string, Set<string>>();
  const byDelivery = new Map<string, number>();
  for (const p of posts) {
    const id = String(p.headers['webhook-id']);
    byDelivery.set(id, (byDelivery.get(id) ?? 0) + 1);
    byEvent.set(p.body?.data?.id, (byEvent.get(p.body?.data?.id) ?? new Set()).add(id));
  }
  const storedIds = [...stored.values()].flatMap((v) => v.ids);
  const undelivered = storedIds.filter((id) => !byEvent.has(id));
  const splitDeliveries = [...byEvent.values()].filter((d) => d.size > 1).length;
  const overPosted = [...byDelivery.values()].filter((n) => n > POSTS_PER_DELIVERY).length;
  const repeats = [...byDelivery.values()].filter((n) => n > 1).length;
  if (undelivered.length)
    fail(`${undelivered.length} stored events were never delivered: ${undelivered.slice(0, 5).join(', ')}`);
  if (splitDeliveries) fail(`${splitDeliveries} events made more than one delivery to the one address`);
  if (overPosted) fail(`${overPosted} deliveries were posted more than ${POSTS_PER_DELIVERY} times`);
  rows.push([
    'webhook',
    `${storedIds.length} events, ${byDelivery.size} deliveries, ${posts.length} posts`,
    `${repeats} posted twice, ${undelivered.length} missing`,
  ]);

  // each email sent once: an ok message exactly once, any other at most once (told apart by their subjects)
  const mails = s.mails();
  const bySubject = new Map<string, number>();
  for (const m of mails) {
    bySubject.set(subjectOf(m), (bySubject.get(subjectOf(m)) ?? 0) + 1);
  }
  const messages = s.operations.filter((o) => o.kind === 'message');
  const okMessages = messages.filter((o) => o.outcome === 'ok');
  const unsent = okMessages.filter((o) => !bySubject.has(o.id));
  const sentTwice = [...bySubject.values()].filter((n) => n > 1).length;
  if (unsent.length)
    fail(
      `${unsent.length} messages answered ok were never sent: ${unsent
        .slice(0, 5)
        .map((o) => o.id)
        .join(', ')}`,
    );
  if (sentTwice) fail(`${sentTwice} emails were sent twice`);
  rows.push([
    'message',
    ...tally(messages),
    `${mails.length} emails, ${unsent.length} ok unsent`,
    `${sentTwice} twice`,
  ]);

  // the rate limit: what the limited workspace was admitted within the documented overshoot
  const limited = s.operations.filter((o) => o.kind === 'limited');
  const admitted = limited.filter((o) => o.outcome === 'ok').length;
  const bound = s.limit + Math.ceil(s.apis * LOCAL_SHARE * s.limit);
  if (admitted > bound) fail(`the limited workspace was admitted ${admitted} posts, past ${bound} (limit ${s.limit})`);
  rows.push(['limited', ...tally(limited), `${admitted} admitted of limit ${s.limit}`, `bound ${bound}`]);

  // the outbox drained and the relay passed every committed happening
  const left = Number(
    (
      await s.db.query(`SELECT count(*) AS n FROM deliveries WHERE workspace_id = $1 AND state <> 'succeeded'`, [
        s.workspaceId,
      ])
    )[0].n,
  );
  const relayed = await allRelayed(s.db);
  if (!relayed) fail('the outbox was not drained: the relay has rows left');
  if (left) fail(`${left} deliveries are not succeeded`);
  rows.push(['outbox', relayed ? 'drained' : 'rows left', `${left} deliveries not succeeded`]);

  const figures = figuresOf(s.operations);
  return { table: render(rows, figures), failures, figures };
}

/** Operations, ok, refused, unknown, answers (by status, and the refusal's code). */
function tally(ops: Operation[]): string[] {
  const statuses = new Map<string, number>();
  for (const a of ops.flatMap((o) => o.answers)) {
    const label = a.status === 0 ? 'none' : a.status < 300 || !a.code ? String(a.status) : `${a.status} ${a.code}`;
    statuses.set(label, (statuses.get(label) ?? 0) + 1);
  }
  const answers = [...statuses].sort(([a], [b]) => a.localeCompare(b)).map(([label, n]) => `${label}:${n}`);
  const of = (outcome: string) => String(ops.filter((o) => o.outcome === outcome).length);
  return [String(ops.length), of('ok'), of('refused'), of('unknown'), answers.join(' ')];
}

function figuresOf(operations: Operation[]): Figures {
  const answers = operations.filter((o) => o.kind === 'event' || o.kind === 'batch').flatMap((o) => o.answers);
  const oks = answers
    .filter((a) => a.status >= 200 && a.status < 300)
    .map((a) => a.at)
    .sort((a, b) => a - b);
  let longestGapMs = 0;
  for (let i = 1; i < oks.length; i++) longestGapMs = Math.max(longestGapMs, oks[i] - oks[i - 1]);
  const refused = answers.filter((a) => a.status === 0 || a.status >= 500).length;
  return { longestGapMs, refused, answered: answers.length };
}

function render(rows: string[][], figures: Figures): string {
  const head = ['what', 'operations', 'ok', 'refused', 'unknown', 'answers (status:count)', 'seen', 'checked'];
  const pad = (r: string[]) => [r[0], ...Array<string>(head.length - r.length).fill(''), ...r.slice(1)];
  const lines = [head, ...rows.map(pad)];
  const table = lines.map((r) => `| ${r.join(' | ')} |`);
  table.splice(1, 0, `|${head.map(() => '---').join('|')}|`);
  table.push(
    '',
    `Longest time with no event answered ok: ${(figures.longestGapMs / 1000).toFixed(1)} s; ` +
      `answers refused for the service being away (503, 502/504, none): ${figures.refused} of ${figures.answered}.`,
  );
  return table.join('\n');
}
