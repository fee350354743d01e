// Which migrations have run: read by readiness, `npm run migrate -- --show` and the CLI, which runs
// migrate.ts (and so loads TypeORM) only when this finds one pending.
import { MIGRATIONS } from './migrations';

export interface MigrationState {
  name: string;
  applied: boolean;
}

/** Names of the migrations recorded as run (none on a database never migrated). */
export async function appliedMigrations(db: { query(text: string): Promise<any[]> }): Promise<string[]> {
  const [{ present }] = await db.query(`SELECT to_regclass('migrations') IS NOT NULL AS present`);
  if (!present) return [];
  return (await db.query('SELECT name FROM migrations ORDER BY id')).map((row: { name: string }) => row.name);
}

/** Every migration the code knows, oldest first, with whether it has run. */
export function migrationStates(applied: string[]): MigrationState[] {
  const done = new Set(applied);
  return MIGRATIONS.map((migration) => ({ name: migration.name, applied: done.has(migration.name) }));
}
