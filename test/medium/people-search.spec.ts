// Search by a fragment of a name or identity at 1,000,000 people reads the trigram
// indexes or a short ordered window, never a whole table, and answers what the plain statement answers:
// the same people, newest first, paging by cursor, the count bounded at COUNT_BOUND.
import {
  COUNT_BOUND,
  PeopleReadRepository,
  PersonFilter,
  PersonListRow,
  SEARCH_CANDIDATES,
  SEARCH_RECENT,
} from '@app/people';
import { NO_PARALLEL_WORKERS, type ReadDatabase } from '@app/platform';
import { fillPeople, SEARCH_FRAGMENTS } from '../support/people-search';
import { Medium, startMedium } from './medium';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];
const PEOPLE = 1_000_000;
const PAGE = 21;

let t: Medium;
let workspaceId: string;
/** Every plan the repository's statements ran with, since the last reset. */
let plans: PlanNode[][] = [];
let repo: PeopleReadRepository;
beforeAll(async () => {
  t = await startMedium();
  workspaceId = (await t.make.workspace()).id;
  const runner = t.db.createQueryRunner();
  try {
    await fillPeople(runner, workspaceId, PEOPLE);
  } finally {
    await runner.release();
  }
  // The repository as the app builds it, but each statement is explained (and so run) before it runs;
  // serialQuery's in a transaction without parallel workers, as ReadDatabase runs it.
  const explained = async (
    db: { query: (text: string, args?: unknown[]) => Promise<any> },
    text: string,
    args?: unknown[],
  ) => {
    const [row] = await db.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, args);
    plans.push(nodes(row['QUERY PLAN'][0].Plan));
    return db.query(text, args);
  };
  repo = new PeopleReadRepository({
    query: (text: string, args?: unknown[]) => explained(t.db, text, args),
    serialQuery: (text: string, args?: unknown[]) =>
      t.db.transaction(async (m) => {
        await m.query(NO_PARALLEL_WORKERS);
        return explained(m, text, args);
      }),
  } as unknown as ReadDatabase);
}, 240_000);
afterAll(() => t.close());

/**
 * The plain statement: every person matching by name or identity, read in full by one hash join (run by
 * `plain`). The `id IN (…)` of the statement before the trigram indexes runs its subquery once per person when the
 * matching identities outgrow work_mem, and a nested loop here would too.
 */
function everyMatchSql(fragment: string, tail: string): string {
  return `SELECT p.id FROM people p
            LEFT JOIN (SELECT DISTINCT person_id FROM identities WHERE workspace_id = $1 AND value ILIKE '%${fragment}%') k ON k.person_id = p.id
           WHERE p.workspace_id = $1 AND p.merged_into IS NULL AND (p.name ILIKE '%${fragment}%' OR k.person_id IS NOT NULL) ${tail}`;
}

function plain<T>(sql: string, args: unknown[]): Promise<T[]> {
  return t.db.transaction(async (m) => {
    await m.query('SET LOCAL enable_nestloop = off');
    return m.query(sql, args);
  });
}

async function everyMatch(filter: PersonFilter, limit: number, after?: PersonListRow): Promise<string[]> {
  const position = after ? `AND (p.created_at, p.id) < ($3::timestamptz, $4)` : '';
  const rows = await plain<{ id: string }>(
    everyMatchSql(filter.search!, `${position} ORDER BY p.created_at DESC, p.id DESC LIMIT $2`),
    after ? [workspaceId, limit, after.created_at, after.id] : [workspaceId, limit],
  );
  return rows.map((r) => r.id);
}

/**
 * The most rows one scan of a table read. A trigram bitmap is not counted: it is read whole (a few posting
 * lists, cheap even for a common fragment); the heap rows it leads to are.
 */
const rowsRead = (all: PlanNode[]) =>
  Math.max(
    ...all
      .filter((n) => /Scan$/.test(n['Node Type']) && !['CTE Scan', 'Bitmap Index Scan'].includes(n['Node Type']))
      .map((n) => n['Actual Rows'] * n['Actual Loops']),
  );

describe.each(Object.entries(SEARCH_FRAGMENTS))('a %s fragment (%s)', (kind, fragment) => {
  const filter = { search: fragment };

  it('pages through the same people, newest first, with no sequential scan', async () => {
    plans = [];
    const first = await repo.page(workspaceId, { filter, limit: PAGE });
    const last = first[first.length - 1];
    const second = last
      ? await repo.page(workspaceId, { filter, limit: PAGE, after: { atMicros: last.at_micros, id: last.id } })
      : [];
    expect(first.map((r) => r.id)).toEqual(await everyMatch(filter, PAGE));
    if (last) expect(second.map((r) => r.id)).toEqual(await everyMatch(filter, PAGE, last));
    expect(first.length).toBeGreaterThan(0);

    const all = plans.flat();
    expect(all.map((n) => n['Node Type'])).not.toContain('Seq Scan');
    if (kind === 'short') {
      // No trigram: the ordered read on people_created, stopping at the page.
      expect(all.filter((n) => n['Index Name'] === 'people_created').length).toBeGreaterThan(0);
      return;
    }
    if (kind === 'common' || kind === 'name') {
      // Many recent matches: the window of the newest people fills the page, one statement per page.
      expect(plans).toHaveLength(2);
      expect(rowsRead(all)).toBeLessThanOrEqual(SEARCH_RECENT);
      return;
    }
    // Few recent matches: the window, then the candidates of both trigram indexes.
    expect([...new Set(all.map((n) => n['Index Name']))]).toEqual(
      expect.arrayContaining(['people_created', 'people_name_trgm', 'identities_value_trgm']),
    );
    // Under the cap one capped read answers; a common fragment among old people reads all its matches.
    const bound = kind === 'oldCommon' ? 60_000 : SEARCH_CANDIDATES;
    expect(rowsRead(all)).toBeLessThanOrEqual(bound);
    // The candidates carry their person's created_at: only the pages' people are read, not every match's.
    const probes = all
      .filter((n) => n['Relation Name'] === 'people' && n['Index Name'] === 'people_pkey')
      .reduce((sum, n) => sum + n['Actual Loops'], 0);
    expect(probes).toBeLessThanOrEqual(4 * PAGE);
  });

  it('counts up to the bound on the trigram indexes (or in order without a trigram), exactly below it', async () => {
    plans = [];
    const n = await repo.count(workspaceId, filter);
    const [{ exact }] = await plain<{ exact: number }>(
      `SELECT count(*)::int AS exact FROM (${everyMatchSql(fragment, `LIMIT ${COUNT_BOUND + 1}`)}) m`,
      [workspaceId],
    );
    expect(Math.min(n, COUNT_BOUND + 1)).toBe(exact);
    const all = plans.flat();
    if (kind === 'short') {
      // No trigram: the names are read in order until the cap, and the identities not at all once it is reached.
      expect(plans).toHaveLength(1);
      expect(all.map((node) => node['Index Name'])).not.toContain('people_name_trgm'); // a trigram index without a trigram is read whole
      expect(
        all.filter((node) => node['Relation Name'] === 'identities').every((node) => node['Actual Loops'] === 0),
      ).toBe(true);
      expect(rowsRead(all)).toBeLessThanOrEqual(PEOPLE / 10);
      return;
    }
    expect(all.map((node) => node['Node Type'])).not.toContain('Seq Scan');
    expect([...new Set(all.map((node) => node['Index Name']))]).toEqual(
      expect.arrayContaining(['people_name_trgm', 'identities_value_trgm']),
    );
    expect(plans).toHaveLength(1);
    expect(rowsRead(all)).toBeLessThanOrEqual(SEARCH_CANDIDATES);
  });
});

describe('a search with another filter', () => {
  it('reads past the newest candidates when too few of them pass the filter', async () => {
    // About one in fifteen of user1's old matches is an Olivia: the newest SEARCH_TOP_PER_ROW × limit
    // candidates hold too few, and the page must come from all of them.
    const filter = { search: SEARCH_FRAGMENTS.oldCommon, name: 'olivia' };
    const page = await repo.page(workspaceId, { filter, limit: PAGE });
    const expected = await plain<{ id: string }>(
      everyMatchSql(filter.search, `AND p.name ILIKE '%olivia%' ORDER BY p.created_at DESC, p.id DESC LIMIT $2`),
      [workspaceId, PAGE],
    );
    expect(page.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    expect(page).toHaveLength(PAGE);
  });
});
