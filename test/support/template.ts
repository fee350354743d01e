// Test databases are clones of one migrated template (CREATE DATABASE ... TEMPLATE): the migrations run
// once per jest run (global-setup.ts builds it) instead of once per test file. The template is named by
// a hash of the migrations (names and files), so a changed schema gets a new one; it allows no
// connections, so a clone never finds it in use.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Client } from 'pg';
import { migrate, randomBase62 } from '@app/platform';
import { MIGRATIONS } from '@app/schema';
import { migrationFiles } from './tables';

export const PG_ROOT = process.env.TEST_DATABASE_ROOT ?? 'postgres://postgres@127.0.0.1:5432';

const PREFIX = 'lifeline_tpl_';
/** pg_advisory_lock key (in the postgres database) of building and dropping templates. */
const BUILD_LOCK = '7811666963486590566';
const IN_USE = '55006'; // source database is being accessed by other users
const MISSING = '3D000'; // the template is gone (dropped by a run of another schema)
// PostgreSQL itself waits up to 5 s for other sessions to leave before answering 55006.
const ATTEMPTS = 6;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The template of the current migrations. */
export function templateName(): string {
  const hash = createHash('sha256').update(MIGRATIONS.map((m) => m.name).join('\n'));
  for (const file of schemaFiles()) hash.update(readFileSync(file));
  return PREFIX + hash.digest('hex').slice(0, 16);
}

/**
 * The migration files and what they import of the tree, transitively (the events by month migration
 * runs statements kept in libs/events/src/partitions): a change to any of them is a new schema.
 */
function schemaFiles(): string[] {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
      const target = resolve(dirname(file), spec);
      const found = [`${target}.ts`, `${target}/index.ts`].find(existsSync);
      if (found) visit(found);
    }
  };
  migrationFiles().forEach(visit);
  return [...seen].sort();
}

async function onRoot<T>(work: (root: Client) => Promise<T>): Promise<T> {
  const root = new Client({ connectionString: `${PG_ROOT}/postgres` });
  await root.connect();
  try {
    return await work(root);
  } finally {
    await root.end();
  }
}

/** Runs a statement that needs a database nobody is connected to, again after a short wait while one is. */
async function whenUnused(root: Client, sql: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await root.query(sql);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== IN_USE || attempt >= ATTEMPTS) throw error;
      await sleep(50 * attempt + Math.random() * 50);
    }
  }
}

async function exists(root: Client, name: string): Promise<boolean> {
  return (await root.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount! > 0;
}

/** Lifeline templates of other schemas, and half-built ones a stopped run left. */
async function dropOthers(root: Client, keep: string): Promise<void> {
  const { rows } = await root.query(
    `SELECT datname FROM pg_database WHERE datname LIKE 'lifeline\\_tpl\\_%' AND datname <> $1`,
    [keep],
  );
  for (const { datname } of rows) {
    await root.query(`ALTER DATABASE ${quote(datname)} WITH IS_TEMPLATE false`);
    await root.query(`DROP DATABASE IF EXISTS ${quote(datname)} WITH (FORCE)`);
  }
}

/** Migrates under a scratch name, then renames: a run stopped mid-way never leaves a half-made template. */
async function build(root: Client, name: string): Promise<void> {
  const scratch = `${name}_${randomBase62(8).toLowerCase()}`;
  await migrate({ databaseUrl: `${PG_ROOT}/${scratch}`, databasePoolSize: 1 }, MIGRATIONS);
  await whenUnused(root, `ALTER DATABASE ${quote(scratch)} RENAME TO ${quote(name)}`);
  await root.query(`ALTER DATABASE ${quote(name)} WITH ALLOW_CONNECTIONS false IS_TEMPLATE true`);
}

/**
 * Makes the template of the current migrations unless it exists, under a lock so runs at once build it
 * once; with `prune`, drops the other lifeline templates. Answers its name.
 */
export async function ensureTemplate(options: { prune: boolean }): Promise<string> {
  const name = templateName();
  await onRoot(async (root) => {
    await root.query('SELECT pg_advisory_lock($1::bigint)', [BUILD_LOCK]);
    try {
      if (options.prune) await dropOthers(root, name);
      if (!(await exists(root, name))) await build(root, name);
    } finally {
      await root.query('SELECT pg_advisory_unlock($1::bigint)', [BUILD_LOCK]);
    }
  });
  return name;
}

/** A new database with the whole schema migrated, cloned from the template (made first if missing). */
export async function cloneTemplate(database: string): Promise<void> {
  const clone = `CREATE DATABASE ${quote(database)} TEMPLATE ${quote(templateName())}`;
  try {
    await onRoot((root) => whenUnused(root, clone));
  } catch (error) {
    if ((error as { code?: string }).code !== MISSING) throw error;
    await ensureTemplate({ prune: false });
    await onRoot((root) => whenUnused(root, clone));
  }
}
