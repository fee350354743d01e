// The ingest load cannot go bad. Its plan is made while the tables are empty (as on a
// fresh database, where pooled connections keep the first generic plan), then the workspace grows to
// 100,000 people; with a generic plan forced, every table is read only through an index probe by the
// named keys, and reads no more rows than the keys name.
import { Client } from 'pg';
import { WorkspaceEntity, WorkspacesService } from '@app/workspaces';
import { INGEST_LOAD, INGEST_WRITE } from '@app/events';
import { Medium, startMedium } from './medium';

const PEOPLE = 100_000;
const MEMBERS = 2_000;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

let t: Medium;
let workspace: WorkspaceEntity;
let client: Client;
beforeAll(async () => {
  t = await startMedium();
  const made = await t.get(WorkspacesService).create({ slug: 'medium-plan', owner: 'owner@example.com' });
  workspace = await t.get(WorkspacesService).get(made.workspace.id);
  client = new Client({ connectionString: t.config.databaseUrl });
  await client.connect();
  await client.query(`SET plan_cache_mode = force_generic_plan`);
  await client.query(`PREPARE load(text, text[], text[]) AS ${INGEST_LOAD}`);
  await client.query(`PREPARE write(text, text) AS ${INGEST_WRITE}`);
  // The plans are made (and kept) now, while the workspace has nobody, in a transaction as the ingest runs them.
  await client.query('BEGIN');
  await client.query(execute([['email', 'nobody@example.com']]));
  await client.query(write('per_nobody', [])); // (its key recheck planned too, with no keys to check)
  await client.query('COMMIT');
  await t.db.query(
    `INSERT INTO people (workspace_id, id, email, last_seen_at)
     SELECT $1, 'per_plan' || n, 'p' || n || '@example.com', now() FROM generate_series(1, $2) n`,
    [workspace.id, PEOPLE],
  );
  await t.db.query(
    `INSERT INTO identities (workspace_id, kind, value, person_id, person_created_at)
     SELECT $1, 'email', 'p' || n || '@example.com', p.id, p.created_at FROM generate_series(1, $2) n JOIN people p ON p.workspace_id = $1 AND p.id = 'per_plan' || n`,
    [workspace.id, PEOPLE],
  );
  // Members, each with a key: the write's key recheck must probe one of each, not read the workspace's.
  await t.db.query(
    `INSERT INTO members (workspace_id, id, email, role) SELECT $1, 'mem_plan' || n, 'm' || n || '@example.com', 'member' FROM generate_series(1, $2) n`,
    [workspace.id, MEMBERS],
  );
  await t.db.query(
    `INSERT INTO api_keys (workspace_id, id, member_id, key_hash, hint) SELECT $1, 'key_plan' || n, 'mem_plan' || n, 'hash_plan' || n, 'xxxx' FROM generate_series(1, $2) n`,
    [workspace.id, MEMBERS],
  );
}, 120_000);
afterAll(async () => {
  await client.end();
  await t.close();
});

/** EXECUTE takes no bound parameters: the call's values as literals (the plan stays the generic one). */
function execute(keys: Array<[string, string]>): string {
  const array = (values: string[]) => `ARRAY[${values.map((v) => client.escapeLiteral(v)).join(', ')}]::text[]`;
  return `EXECUTE load(${client.escapeLiteral(workspace.id)}, ${array(keys.map((k) => k[0]))}, ${array(keys.map((k) => k[1]))})`;
}

/** The write of one changed person and one idempotency answer, with a key to recheck (the statements that join on a key). */
function write(personId: string, keys = ['key_plan17']): string {
  const person = {
    workspace_id: workspace.id,
    id: personId,
    name: 'Ada',
    email: null,
    stage: null,
    stage_changed_at: null,
    purchases: 1,
    engaged_at: null,
    os: null,
    fields: {},
    first_touch: null,
    first_touch_at: null,
    created_at: new Date(),
    last_seen_at: new Date(),
    revenue: '0',
  };
  const doc = {
    keys,
    newPeople: [],
    changedPeople: [person],
    identities: [],
    rows: [],
    names: [],
    answers: [{ key: 'k-1', status: 'recorded', record_id: personId }],
    happenings: [],
  };
  return `EXECUTE write(${client.escapeLiteral(JSON.stringify(doc))}, ${client.escapeLiteral(workspace.id)})`;
}

async function plan(keys: Array<[string, string]>): Promise<PlanNode[]> {
  const [
    {
      'QUERY PLAN': [root],
    },
  ] = (await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${execute(keys)}`)).rows;
  return nodes(root.Plan);
}

describe('the ingest load with a generic plan made on empty tables, over 100,000 people', () => {
  const keys: Array<[string, string]> = [
    ['email', 'p17@example.com'],
    ['email', 'p99999@example.com'],
    ['anon_id', 'not-seen-yet'],
  ];

  it('reads identities and people only by index probes on their keys', async () => {
    const scans = (await plan(keys)).filter((n) => n['Relation Name']);
    expect(scans.map((n) => [n['Relation Name'], n['Node Type'], n['Index Name']])).toEqual([
      ['identities', 'Index Scan', 'identities_pkey'],
      ['people', 'Index Scan', 'people_pkey'],
    ]);
    // Generic: the conditions name parameters, not the values of this call.
    expect(scans[0]['Index Cond']).toMatch(/workspace_id = \$1.*kind = k\.kind.*value = k\.value/);
    expect(scans[1]['Index Cond']).toMatch(/workspace_id = \$1.*id = \w+\.person_id/);
  });

  it('touches no more rows than the keys name', async () => {
    const scans = (await plan(keys)).filter((n) => n['Relation Name']);
    // One probe per key named, one per person found, each answering at most one row (EXPLAIN shows rows per loop).
    expect(scans.map((n) => [n['Relation Name'], n['Actual Loops'], n['Actual Rows']! <= 1])).toEqual([
      ['identities', 3, true],
      ['people', 2, true],
    ]);
  });

  it('the write that follows in the transaction probes people, idempotency keys, keys and members by key too', async () => {
    await client.query('BEGIN');
    try {
      await client.query(execute(keys));
      const [
        {
          'QUERY PLAN': [root],
        },
      ] = (await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${write('per_plan17')}`)).rows;
      const tables = ['people', 'idempotency_keys', 'api_keys', 'members'];
      const scans = nodes(root.Plan).filter(
        (n) => n['Node Type'].endsWith('Scan') && tables.includes(n['Relation Name'] ?? ''),
      );
      // people twice: the changed person's row, and a known person's created_at for the identity it gains.
      expect(scans.map((n) => [n['Relation Name'], n['Node Type'], n['Index Name']])).toEqual([
        ['people', 'Index Scan', 'people_pkey'],
        ['people', 'Index Scan', 'people_pkey'],
        ['idempotency_keys', 'Index Scan', 'idempotency_keys_pkey'],
        ['api_keys', 'Index Scan', 'api_keys_pkey'],
        ['members', 'Index Scan', 'members_pkey'],
      ]);
      expect(scans.every((n) => n['Actual Rows']! <= 1 && (n['Actual Loops'] ?? 1) <= 1)).toBe(true);
    } finally {
      await client.query('ROLLBACK');
    }
  });

  it('answers the people the keys name, each once', async () => {
    const { rows } = await client.query(execute(keys));
    expect(rows.map((r) => [r.identity_value, r.id])).toEqual([
      ['p17@example.com', 'per_plan17'],
      ['p99999@example.com', 'per_plan99999'],
    ]);
  });
});
