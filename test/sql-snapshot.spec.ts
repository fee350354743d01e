// The statements assembled from several parts, as their builders make them now, against their snapshots in test/sql
// (docs/architecture.md#sql-snapshots): a change to any part shows in review as a change of SQL.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SQL_DIR, type SqlSnapshot, sqlSnapshots, snapshotText } from '../scripts/sql-snapshot';

/** What is wrong with the snapshot file of `snapshot` as `text` holds it, or null when it is the statement built. */
function drift(snapshot: SqlSnapshot, text: string | null): string | null {
  if (text === snapshotText(snapshot)) return null;
  const what = text === null ? 'is missing' : `is not the statement ${snapshot.builtBy} builds now`;
  return `test/sql/${snapshot.file} ${what}: run \`npm run sql:snapshot\` and review the SQL it changes.`;
}

let snapshots: SqlSnapshot[];
beforeAll(async () => {
  snapshots = await sqlSnapshots();
});

test('every test/sql file is the statement its builder makes now', () => {
  const read = (file: string) => (existsSync(join(SQL_DIR, file)) ? readFileSync(join(SQL_DIR, file), 'utf8') : null);
  expect(snapshots.map((snapshot) => drift(snapshot, read(snapshot.file))).filter(Boolean)).toEqual([]);
  expect(snapshots.length).toBeGreaterThanOrEqual(25);
});

test('test/sql holds no file of a statement no longer snapshotted', () => {
  const made = new Set(snapshots.map((snapshot) => snapshot.file));
  const stale = readdirSync(SQL_DIR).filter((name) => name.endsWith('.sql') && !made.has(name));
  expect(stale.map((name) => `test/sql/${name} is built by nothing: run \`npm run sql:snapshot\`.`)).toEqual([]);
});

test('a statement changed since its snapshot is named, with the command that rewrites its file', () => {
  const [first] = snapshots;
  const changed = { ...first, sql: first.sql.replace(/workspace_id/, 'workspace') };
  expect(drift(changed, snapshotText(first))).toBe(
    `test/sql/${first.file} is not the statement ${first.builtBy} builds now: run \`npm run sql:snapshot\` and ` +
      `review the SQL it changes.`,
  );
  expect(drift(first, snapshotText(first))).toBeNull();
  expect(drift(first, null)).toMatch(/is missing: run `npm run sql:snapshot`/);
});

test('each snapshot file begins with a comment naming the function that builds it', () => {
  for (const snapshot of snapshots) expect(snapshotText(snapshot)).toMatch(/^-- Built by \w+(\.\w+)? \(@app\/\w+/);
});
