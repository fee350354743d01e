// Which migrations have run: read by readiness, `npm run migrate -- --show` and the CLI, which runs
// migrate.ts (and so loads TypeORM) only when this finds one pending. Every lib keeps the migrations
// of its own tables; the list handed in here is all of them (@app/schema), merged by timestamp.
import type { MigrationInterface } from 'typeorm';

/** A migration class: `name` ends in its 13-digit timestamp; `splitFrom` names the one it was cut out of. */
export type Migration = (new () => MigrationInterface) & { splitFrom?: string };

/** Nest token of every lib's migrations (PlatformModule.forRoot), read by readiness. */
export const MIGRATION_LIST = 'MIGRATION_LIST';

export interface MigrationState {
  name: string;
  applied: boolean;
}

/** The name of a migration class (TypeORM's: the instance's `name`, else the class name). */
export const migrationName = (migration: Migration): string => new migration().name ?? migration.name;

/** The timestamp a migration's name ends with. */
export const migrationTimestamp = (name: string): number => Number(/(\d{13})$/.exec(name)?.[1] ?? NaN);

/** Every lib's migrations as one list, oldest first; refuses two with one timestamp or one without. */
export function mergeMigrations(...lists: Migration[][]): Migration[] {
  const all = lists.flat().map((migration) => ({ migration, at: migrationTimestamp(migrationName(migration)) }));
  const seen = new Map<number, string>();
  for (const { migration, at } of all) {
    const name = migrationName(migration);
    if (Number.isNaN(at)) throw new Error(`migration ${name} does not end with a 13-digit timestamp`);
    if (seen.has(at)) throw new Error(`migrations ${seen.get(at)} and ${name} share the timestamp ${at}`);
    seen.set(at, name);
  }
  const names = new Set(all.map(({ migration }) => migrationName(migration)));
  const kept = all.find(({ migration }) => migration.splitFrom && names.has(migration.splitFrom));
  // A split retires the old name: while it stays, a piece reverted later would be recorded again.
  if (kept)
    throw new Error(
      `migration ${migrationName(kept.migration)} is split from ${kept.migration.splitFrom}, which is still a ` +
        `migration: rename every piece`,
    );
  return all.sort((a, b) => a.at - b.at).map(({ migration }) => migration);
}

/** Names of the migrations recorded as run (none on a database never migrated). */
export async function appliedMigrations(db: { query(text: string): Promise<any[]> }): Promise<string[]> {
  const [{ present }] = await db.query(`SELECT to_regclass('migrations') IS NOT NULL AS present`);
  if (!present) return [];
  return (await db.query('SELECT name FROM migrations ORDER BY id')).map((row: { name: string }) => row.name);
}

/** Every migration the code knows, oldest first, with whether it has run (a piece of a split one that ran has). */
export function migrationStates(migrations: Migration[], applied: string[]): MigrationState[] {
  const done = new Set(applied);
  const ran = (migration: Migration) =>
    done.has(migrationName(migration)) || (migration.splitFrom !== undefined && done.has(migration.splitFrom));
  return migrations.map((migration) => ({ name: migrationName(migration), applied: ran(migration) }));
}

/**
 * The rows that record split migrations as run: the pieces cut out of a migration a database already
 * ran (`splitFrom`) count as run there, in place of its name, so a database migrated before a split
 * migrates on with no change of its schema. Once the old name is gone this records nothing again.
 */
export function splitRecords(
  migrations: Migration[],
  applied: string[],
): { insert: Array<{ name: string; timestamp: number }>; remove: string[] } {
  const done = new Set(applied);
  const split = migrations.filter((m) => m.splitFrom && done.has(m.splitFrom));
  const insert = split
    .filter((m) => !done.has(migrationName(m)))
    .map((m) => ({ name: migrationName(m), timestamp: migrationTimestamp(migrationName(m)) }));
  return { insert, remove: [...new Set(split.map((m) => m.splitFrom!))] };
}
