// The migrated schema can be distributed by workspace (Citus; the steps are in
// docs/scaling.md#toward-a-distributed-postgresql-citus). Read from the catalogue of a clone of the migrated
// template: every table is global (no workspace_id) for a reason written here, a reference table (a tenant
// table looked up by a global key, copied to every node) for a reason written here, or distributed by
// workspace_id, when every primary key and unique index leads with workspace_id; and no foreign key crosses
// tenants or points from a copied table into a distributed one.
import { Client } from 'pg';
import { dropDatabase, testConfig } from '../harness';
import { cloneTemplate, PG_ROOT } from '../support/template';

/** Tables with no workspace_id, and why. All are small, and become reference tables on Citus. */
const GLOBAL_TABLES: Record<string, string> = {
  workspaces: 'the tenants themselves: the reference table every tenant table points to',
  migrations: 'the schema history of the database',
  oauth_clients: 'OAuth clients register themselves before any workspace is chosen, and may connect to several',
  sign_in_links: 'a sign-in link is asked for by email, before the person picks one of their workspaces',
  door_receipts: "an inbound door's delivery ids, checked before the workspace is known",
  outbox_relay: "the relay's one position over the whole outbox",
  events_rollup_mark: "the chart fold's one position over the whole events table",
};

/**
 * Tenant tables found by a key that is unique across workspaces (a request brings the key, not the
 * workspace), or pointed to by such a table: small, read on every request, copied to every node.
 */
const REFERENCE_TABLES: Record<string, string> = {
  api_keys: 'a bearer key is found by its hash alone (api_keys_key_hash)',
  sessions: 'a session cookie is found by its id and token hash alone',
  oauth_codes: 'an OAuth code is found by its hash alone',
  connection_tokens: "a tool door's token is found by its hash alone",
  door_connections: "a third-party door's address carries only its token (door_connections_token)",
  automations: "an automation's own address carries only its id (automations_id)",
  members: 'api_keys, sessions, oauth_codes and connections point to their member',
  connections: 'connection_tokens point to their connection',
};

interface Index {
  table: string;
  index: string;
  columns: string[];
}
interface ForeignKey {
  name: string;
  from: string;
  to: string;
  pairs: Array<[string, string]>;
}

let tenant: Set<string>;
let all: string[];
let uniques: Index[];
let foreignKeys: ForeignKey[];
let database: string;
beforeAll(async () => {
  ({ database } = await testConfig());
  await cloneTemplate(database);
  const db = new Client({ connectionString: `${PG_ROOT}/${database}` });
  await db.connect();
  try {
    // Partitions are left out: their keys are their partitioned table's.
    const tables = await db.query(
      `SELECT c.relname AS name, EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'workspace_id' AND NOT a.attisdropped) AS tenant
         FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition`,
    );
    all = tables.rows.map((r) => r.name).sort();
    tenant = new Set(tables.rows.filter((r) => r.tenant).map((r) => r.name));
    uniques = (
      await db.query(
        `SELECT t.relname AS table, i.relname AS index,
                array(SELECT coalesce(a.attname::text, '(expression)') FROM unnest(x.indkey[0:x.indnkeyatts - 1]) WITH ORDINALITY k(attnum, n)
                        LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.n) AS columns
           FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid
          WHERE t.relnamespace = 'public'::regnamespace AND x.indisunique AND NOT t.relispartition`,
      )
    ).rows;
    foreignKeys = (
      await db.query(
        `SELECT c.conname AS name, f.relname AS from, t.relname AS to,
                array(SELECT json_build_array(fa.attname, ta.attname) FROM unnest(c.conkey, c.confkey) k(f, t)
                        JOIN pg_attribute fa ON fa.attrelid = c.conrelid AND fa.attnum = k.f
                        JOIN pg_attribute ta ON ta.attrelid = c.confrelid AND ta.attnum = k.t) AS pairs
           FROM pg_constraint c JOIN pg_class f ON f.oid = c.conrelid JOIN pg_class t ON t.oid = c.confrelid
          WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace AND NOT f.relispartition`,
      )
    ).rows;
  } finally {
    await db.end();
  }
}, 60_000);
afterAll(() => dropDatabase(database));

const distributed = () => [...tenant].filter((table) => !REFERENCE_TABLES[table]);
const copied = (table: string) => !tenant.has(table) || Boolean(REFERENCE_TABLES[table]);

it('the global tables are exactly those written here with a reason', () => {
  expect(all.filter((table) => !tenant.has(table))).toEqual(Object.keys(GLOBAL_TABLES).sort());
});

it('the reference tables are tenant tables', () => {
  expect(Object.keys(REFERENCE_TABLES).filter((table) => !tenant.has(table))).toEqual([]);
});

it('every primary key and unique index of a distributed table leads with workspace_id', () => {
  expect(distributed().length).toBeGreaterThan(15);
  const strays = uniques.filter((u) => distributed().includes(u.table) && u.columns[0] !== 'workspace_id');
  expect(strays.map((u) => `${u.table}.${u.index} (${u.columns.join(', ')})`)).toEqual([]);
});

it('every tenant table but the reference ones is distributed: a global key is named here, never added silently', () => {
  const global = uniques.filter((u) => tenant.has(u.table) && u.columns[0] !== 'workspace_id').map((u) => u.table);
  expect([...new Set(global)].filter((table) => !REFERENCE_TABLES[table])).toEqual([]);
});

it('no foreign key crosses tenants: between tenant tables it joins workspace_id to workspace_id', () => {
  const between = foreignKeys.filter((fk) => tenant.has(fk.from) && tenant.has(fk.to));
  expect(between.length).toBeGreaterThan(5);
  const strays = between.filter(
    (fk) => !fk.pairs.some(([from, to]) => from === 'workspace_id' && to === 'workspace_id'),
  );
  expect(strays.map((fk) => fk.name)).toEqual([]);
});

it('a foreign key into a global table comes from a table copied to every node, or is the workspace', () => {
  const strays = foreignKeys.filter((fk) => !tenant.has(fk.to) && fk.to !== 'workspaces' && !copied(fk.from));
  expect(strays.map((fk) => `${fk.from} -> ${fk.to}`)).toEqual([]);
});

it('no foreign key points from a copied table into a distributed one (Citus allows only the other way)', () => {
  const strays = foreignKeys.filter((fk) => copied(fk.from) && !copied(fk.to));
  expect(strays.map((fk) => `${fk.from} -> ${fk.to}`)).toEqual([]);
});
