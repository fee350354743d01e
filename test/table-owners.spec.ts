// One owner per table (docs/architecture.md): reads the SQL in every lib's source and fails when a
// lib writes (INSERT, UPDATE, DELETE, or a TypeORM repository write) a table another context owns,
// or a table this list does not name. Another context's rows change through its owner's repository,
// an owner-provided SQL fragment (peopleWriteCtes, outboxWriteCte) or a merge participant.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { entityTables, migrationFiles, ROOT, sourceFiles, TABLE_OWNERS, writtenTables } from './support/tables';

describe('one owner per table', () => {
  const libs = readdirSync(join(ROOT, 'libs')).filter((name) =>
    statSync(join(ROOT, 'libs', name, 'src')).isDirectory(),
  );
  const all = libs.flatMap((lib) => sourceFiles(join(ROOT, 'libs', lib, 'src')));
  const entities = entityTables(all);

  it.each(libs)('libs/%s writes only the tables it owns', (lib) => {
    const strays: string[] = [];
    for (const file of sourceFiles(join(ROOT, 'libs', lib, 'src'))) {
      for (const table of writtenTables(readFileSync(file, 'utf8'), entities)) {
        const owner = TABLE_OWNERS[table];
        if (owner !== lib)
          strays.push(
            `${relative(ROOT, file)} writes ${table} (${owner ? `owned by ${owner}` : 'a table TABLE_OWNERS does not name'})`,
          );
      }
    }
    expect(strays).toEqual([]);
  });

  it('every table of the schema has an owner', () => {
    const schema = migrationFiles()
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const created = [...schema.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?(\w+)/g)].map((m) => m[1]);
    expect(created.filter((table) => !TABLE_OWNERS[table])).toEqual([]);
  });

  // The reader itself, so a change to it cannot silently pass everything.
  it.each([
    ['INSERT INTO people (id) VALUES ($1)', ['people']],
    ['UPDATE events SET person_id = $2', ['events']],
    ['DELETE FROM subscriptions s USING subscriptions o', ['subscriptions']],
    ['SELECT * FROM people FOR UPDATE OF p', []],
    ['CREATE TRIGGER t AFTER UPDATE ON events REFERENCING OLD TABLE AS o', []],
    ['INSERT INTO heartbeat (a) VALUES (1) ON CONFLICT (a) DO UPDATE SET count = 1', ['heartbeat']],
  ])('reads %s as writing %j', (sql, tables) => {
    expect([...writtenTables(`const q = \`${sql}\`;`)]).toEqual(tables);
  });

  it('reads writes in a comment as nothing, and a TypeORM write as its entity table', () => {
    const text = `// UPDATE people is said here only\nrepo.getRepository(MemberEntity).update({ id }, {});`;
    expect([...writtenTables(text, new Map([['MemberEntity', 'members']]))]).toEqual(['members']);
  });
});
