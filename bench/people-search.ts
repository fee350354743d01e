// npm run bench:search — people(filter: {search}) at 1,000,000 people and 1,500,000 identities in one
// workspace (test/support/people-search.ts), on the local PostgreSQL: a first page (50 people, as the
// console and GraphQL read it) and the bounded count, for each kind of fragment. Two phases in one run:
// before (the statement search ran until 2026-11-26, on the schema without the trigram indexes) and after
// (PeopleReadRepository as it runs now). Each figure is the median of RUNS runs after one warm-up run.
// BENCH_BASE_ROOT=<another checkout>: that checkout's PeopleReadRepository runs too, on the same data,
// each case timed with both in turn (a third pair of columns). BENCH_BEFORE=0 leaves out the before phase.
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { COUNT_BOUND, PeopleReadRepository, PersonFilter } from '@app/people';
import { NO_PARALLEL_WORKERS, type ReadDatabase } from '@app/platform';
import { MIGRATIONS } from '@app/schema';
import { fillPeople, searchIndexes, SEARCH_FRAGMENTS } from '../test/support/people-search';
import { benchDatabase, median, resetDatabase, writeResults } from './support';

const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const WS = 'ws_bench_search';
const PAGE = 51;
const BEFORE_LIMIT_S = 30; // first: 50, and one more to tell whether more remain
const BASE_ROOT = process.env.BENCH_BASE_ROOT;
/** BENCH_BEFORE=0 skips the former statement (about 8 minutes of the run): its cells read "–". */
const BEFORE = process.env.BENCH_BEFORE !== '0';

/** The search statement before the trigram indexes (commit 93dc7af), kept here only to measure against. */
function previousStatements(fragment: string) {
  const like = `%${fragment.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const where = `workspace_id = $1 AND merged_into IS NULL AND (name ILIKE $2 OR id IN (SELECT person_id FROM identities WHERE workspace_id = $1 AND value ILIKE $2))`;
  return {
    page: `SELECT id, created_at FROM people WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ${PAGE}`,
    count: `SELECT count(*)::int AS n FROM (SELECT 1 FROM people WHERE ${where} LIMIT ${COUNT_BOUND + 1}) AS matched`,
    args: [WS, like],
  };
}

/** The median of RUNS runs after a warm-up; Infinity when a run outlasts the statement timeout set. */
async function time(run: () => Promise<unknown>): Promise<number> {
  try {
    await run();
  } catch (error) {
    if (/statement timeout/.test(String(error))) return Infinity;
    throw error;
  }
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(times);
}

/** The medians of RUNS runs of each after a warm-up, the runs taken in turn (which goes first alternates). */
async function timeInTurn(runs: Array<() => Promise<unknown>>): Promise<number[]> {
  for (const run of runs) await run();
  const times: number[][] = runs.map(() => []);
  for (let i = 0; i < RUNS; i++) {
    const order = runs.map((_, k) => (i % 2 ? runs.length - 1 - k : k));
    for (const k of order) {
      const start = process.hrtime.bigint();
      await runs[k]();
      times[k].push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  return times.map(median);
}

async function main() {
  const url = await resetDatabase(benchDatabase('lifeline_bench_search'));
  const db = new Client({ connectionString: url });
  await db.connect();
  await db.query(
    `INSERT INTO workspaces (id, slug, name, public_key) VALUES ($1, 'search', 'search', 'wk_benchsearch0000000000000')`,
    [WS],
  );
  const filled = Date.now();
  await fillPeople(db, WS, PEOPLE);
  await db.query('VACUUM ANALYZE people, identities');
  const fillSeconds = (Date.now() - filled) / 1000;
  const query = async (text: string, args?: unknown[]) => (await db.query(text, args)).rows;
  // serialQuery as ReadDatabase runs it: in a transaction without parallel workers.
  const serialQuery = async (text: string, args?: unknown[]) => {
    await db.query(`BEGIN; ${NO_PARALLEL_WORKERS}`);
    try {
      return await query(text, args);
    } finally {
      await db.query('COMMIT');
    }
  };
  const reads = { query, serialQuery } as unknown as ReadDatabase;
  const repo = new PeopleReadRepository(reads);
  const baseRepo: PeopleReadRepository | null = BASE_ROOT
    ? new (require(join(BASE_ROOT, 'libs/people/src/people-read.repository.ts')).PeopleReadRepository)(reads)
    : null;
  const cases = Object.entries(SEARCH_FRAGMENTS);

  const migration = new (MIGRATIONS.find((m) => m.name === 'PeopleSearch1766800000000')!)();
  await migration.down(db as never);
  // The statement before runs its identity subquery once per person when the matches outgrow work_mem.
  await db.query(`SET statement_timeout = '${BEFORE_LIMIT_S}s'`);
  const before: Array<{ page: number; count: number; found: number; n: number }> = [];
  for (const [kind, fragment] of BEFORE ? cases : []) {
    const { page, count, args } = previousStatements(fragment);
    let found = 0;
    let n = 0;
    before.push({
      page: await time(async () => (found = (await db.query(page, args)).rowCount ?? 0)),
      count: await time(async () => (n = (await db.query(count, args)).rows[0].n)),
      found,
      n,
    });
    console.log(
      `before ${kind} (${fragment}): page ${before.at(-1)!.page.toFixed(1)} ms, count ${before.at(-1)!.count.toFixed(1)} ms`,
    );
  }
  const loadBefore = loadavg()[0];

  await db.query('RESET statement_timeout');
  await searchIndexes(db);
  // The base checkout's statements match identities under the database's collation (before 1767150000000).
  if (baseRepo) await db.query(`CREATE INDEX identities_value_base_trgm ON identities USING gin (value gin_trgm_ops)`);
  await db.query('ANALYZE people, identities');
  const after: typeof before = [];
  const base: typeof before = [];
  for (const [kind, fragment] of cases) {
    const filter: PersonFilter = { search: fragment };
    const found = [0, 0];
    const n = [0, 0];
    // The base checkout's repository (when there is one) and this one's, each case timed in turn.
    const repos = baseRepo ? [baseRepo, repo] : [repo];
    const pages = await timeInTurn(
      repos.map((r, k) => async () => (found[k] = (await r.page(WS, { filter, limit: PAGE })).length)),
    );
    const counts = await timeInTurn(repos.map((r, k) => async () => (n[k] = await r.count(WS, filter))));
    if (baseRepo) {
      base.push({ page: pages[0], count: counts[0], found: found[0], n: n[0] });
      console.log(
        `base ${kind} (${fragment}): page ${base.at(-1)!.page.toFixed(1)} ms, count ${base.at(-1)!.count.toFixed(1)} ms`,
      );
    }
    const k = repos.length - 1;
    after.push({ page: pages[k], count: counts[k], found: found[k], n: n[k] });
    console.log(
      `after ${kind} (${fragment}): page ${after.at(-1)!.page.toFixed(1)} ms, count ${after.at(-1)!.count.toFixed(1)} ms`,
    );
  }
  const loadAfter = loadavg()[0];
  await db.end();

  if (!BEFORE) before.push(...cases.map(() => ({ page: NaN, count: NaN, found: NaN, n: NaN })));
  const ms = (n: number) =>
    Number.isNaN(n) ? '–' : n === Infinity ? `> ${BEFORE_LIMIT_S} s` : `${n < 10 ? n.toFixed(1) : n.toFixed(0)} ms`;
  const counted = (n: number) => (n > COUNT_BOUND ? `${COUNT_BOUND.toLocaleString('en')}+` : n.toLocaleString('en'));
  const rows = cases.map(([kind, fragment], i) => {
    const timedOut = !BEFORE || before[i].page === Infinity || before[i].count === Infinity;
    const same =
      timedOut ||
      (before[i].found === after[i].found &&
        Math.min(before[i].n, COUNT_BOUND + 1) === Math.min(after[i].n, COUNT_BOUND + 1));
    const baseSame = !base[i] || (base[i].found === after[i].found && base[i].n === after[i].n);
    const baseCells = base[i] ? ` ${ms(base[i].page)}${baseSame ? '' : ' (differs!)'} | ${ms(base[i].count)} |` : '';
    return `| ${kind} \`${fragment}\` | ${counted(after[i].n)}${same ? '' : ' (differs!)'} | ${ms(before[i].page)} | ${ms(after[i].page)} | ${ms(before[i].count)} | ${ms(after[i].count)} |${baseCells}`;
  });
  const baseHead = baseRepo ? ` page ${BASE_ROOT} | count ${BASE_ROOT} |` : '';
  writeResults(
    'People search (people(filter: {search}) at 1,000,000 people)',
    `Command: \`npm run bench:search\` (${PEOPLE.toLocaleString('en')} people and ${(PEOPLE * 1.5).toLocaleString('en')} identities in one workspace,
test/support/people-search.ts; filled in ${fillSeconds.toFixed(0)} s). Each figure is the median of ${RUNS} runs after a warm-up, from a client
on the same machine, in one run: before is the statement search ran until 2026-11-26 without the trigram indexes (stopped after
${BEFORE_LIMIT_S} s); after is
PeopleReadRepository's page (first 50) and count (bounded at ${COUNT_BOUND.toLocaleString('en')}) as they run now, every statement in the figure.
Load average ${loadBefore.toFixed(1)} after the before phase, ${loadAfter.toFixed(1)} after the after phase.

| fragment | matches | page before | page after | count before | count after |${baseHead}
|---|---|---|---|---|---|${baseRepo ? '---|---|' : ''}
${rows.join('\n')}`,
  );
}

void main();
