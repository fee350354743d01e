// The shape of the libs (docs/architecture.md): each lib imports only libs below it, and only through
// their public entries (`@app/<lib>`, or a light entry `@app/<lib>/<name>` from src/entries/); no lib
// reaches into another's files by path; no lib's SQL names a table another lib owns (the owner exports
// the read or the write); each table's migrations sit in its owner. Beside test/table-owners.spec.ts.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { literals, migrationFiles, ROOT, sourceFiles, TABLE_OWNERS } from './support/tables';

/** Each lib's floor: a lib may import libs on lower floors only. */
export const LAYERS: Record<string, number> = {
  wire: 0,
  platform: 1,
  sdk: 1,
  outbox: 2,
  workspaces: 2,
  edge: 3,
  people: 4,
  events: 5,
  messaging: 6,
  webhooks: 6,
  automations: 7,
  access: 7,
  integrations: 8,
  mcp: 8,
  schema: 9,
};

/** Every module a file imports: static imports, exports from, import() and require(). */
export function importsOf(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|^import\s+)'([^']+)'/gm)].map((m) => m[1]);
}

/** What is wrong with one import of a file of `lib` (null when nothing is). */
export function importProblem(
  lib: string,
  file: string,
  specifier: string,
  layers = LAYERS,
  entryExists = defaultEntryExists,
): string | null {
  const aliased = /^@app\/([a-z-]+)(?:\/([a-z-]+))?$/.exec(specifier);
  if (aliased) {
    const [, target, entry] = aliased;
    if (target === lib) return `imports its own lib through ${specifier}: use a relative path`;
    if (!(target in layers)) return `imports ${specifier}, a lib LAYERS does not place`;
    if (layers[target] >= layers[lib]) return `imports ${specifier}, which is not below ${lib}`;
    if (entry && !entryExists(target, entry))
      return `imports ${specifier}, which is not an entry of ${target} (src/entries/${entry}.ts)`;
    return null;
  }
  if (specifier.startsWith('@app/')) return `imports ${specifier}: only @app/<lib> and @app/<lib>/<entry> are public`;
  if (specifier.startsWith('.')) {
    const target = resolve(dirname(file), specifier);
    const own = join(ROOT, 'libs', lib, 'src');
    if (!target.startsWith(own + '/') && target !== own)
      return `reaches ${relative(ROOT, target)} by path: import its lib's entry instead`;
  }
  return null;
}

function defaultEntryExists(lib: string, entry: string): boolean {
  return existsSync(join(ROOT, 'libs', lib, 'src', 'entries', `${entry}.ts`));
}

/** Tables a file's SQL names (reads, writes, DDL): SQL keywords are upper case here, prose is not. */
export function namedTables(text: string): Set<string> {
  const tables = new Set<string>();
  for (const sql of literals(text)) {
    for (const m of sql.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE|TABLE|ON)\s+([a-z_]+)\b/g))
      if (m[1] in TABLE_OWNERS) tables.add(m[1]);
  }
  return tables;
}

const libs = readdirSync(join(ROOT, 'libs')).filter((name) => existsSync(join(ROOT, 'libs', name, 'src', 'index.ts')));

describe('libs depend downward, through public entries', () => {
  it('LAYERS places every lib', () => {
    expect(libs.filter((lib) => !(lib in LAYERS))).toEqual([]);
  });

  it.each(libs)('libs/%s imports only libs below it, never by path', (lib) => {
    const problems: string[] = [];
    for (const file of sourceFiles(join(ROOT, 'libs', lib, 'src'), true)) {
      for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
        const problem = importProblem(lib, file, specifier);
        if (problem) problems.push(`${relative(ROOT, file)} ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it.each(['api', 'worker', 'launcher'])('apps/%s reaches libs only through their entries', (app) => {
    const problems: string[] = [];
    for (const file of sourceFiles(join(ROOT, 'apps', app, 'src'))) {
      for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
        if (specifier.startsWith('.') && resolve(dirname(file), specifier).startsWith(join(ROOT, 'libs')))
          problems.push(`${relative(ROOT, file)} reaches ${specifier} by path`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('each lib names only its own tables', () => {
  it.each(libs)("libs/%s's SQL names no other lib's table", (lib) => {
    const strays: string[] = [];
    for (const file of sourceFiles(join(ROOT, 'libs', lib, 'src'), true)) {
      for (const table of namedTables(readFileSync(file, 'utf8'))) {
        if (TABLE_OWNERS[table] !== lib)
          strays.push(`${relative(ROOT, file)} names ${table} (owned by ${TABLE_OWNERS[table]})`);
      }
    }
    expect(strays).toEqual([]);
  });
});

describe("each table's migrations sit in its owner", () => {
  it.each(Object.keys(TABLE_OWNERS).filter((table) => table !== 'migrations'))(
    '%s is created by its owner',
    (table) => {
      const creators = migrationFiles()
        .filter((file) => new RegExp(`CREATE TABLE (?:IF NOT EXISTS )?${table}\\b`).test(readFileSync(file, 'utf8')))
        .map((file) => relative(ROOT, file).split('/')[1]);
      expect(creators).toEqual([TABLE_OWNERS[table]]);
    },
  );
});

/** Functions longer than `most` lines in a file's text, as `name:line (n lines)`. */
export function longFunctions(text: string, most = 60): string[] {
  const file = ts.createSourceFile('x.ts', text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body) {
      const first = file.getLineAndCharacterOfPosition(node.getStart()).line;
      const lines = file.getLineAndCharacterOfPosition(node.end).line - first + 1;
      if (lines > most)
        found.push(
          `${(node as ts.FunctionLikeDeclaration).name?.getText() ?? '(anonymous)'}:${first + 1} (${lines} lines)`,
        );
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('files and functions fit on a screen', () => {
  const sources = ['apps', 'libs'].flatMap((top) => sourceFiles(join(ROOT, top)));

  it('no source file is over 300 lines', () => {
    const lines = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0); // as wc -l counts
    const long = sources
      .map((file) => [relative(ROOT, file), lines(readFileSync(file, 'utf8'))] as const)
      .filter(([, n]) => n > 300);
    expect(long).toEqual([]);
  });

  it('no function is over 60 lines', () => {
    expect(
      sources.flatMap((file) => longFunctions(readFileSync(file, 'utf8')).map((f) => `${relative(ROOT, file)} ${f}`)),
    ).toEqual([]);
  });
});

// The readers themselves, on planted violations, so a change to them cannot silently pass everything.
describe('the checks catch what they are for', () => {
  const file = join(ROOT, 'libs/events/src/ingest/x.ts');
  it.each([
    ['platform', '@app/events', 'not below platform'],
    ['events', '@app/events', 'its own lib'],
    ['events', '@app/messaging', 'not below events'],
    ['events', '@app/people/internals', 'not an entry of people'],
    ['events', '@app/nowhere', 'does not place'],
    ['events', '../../../people/src/people.repository', 'by path'],
  ])('a file of %s importing %s is refused (%s)', (lib, specifier, why) => {
    expect(importProblem(lib, file, specifier, LAYERS, () => false)).toContain(why);
  });

  it.each([
    ['events', '@app/people'],
    ['events', '@app/platform/plain'],
    ['events', './ingest.repository'],
    ['events', '../domain'],
  ])('a file of %s may import %s', (lib, specifier) => {
    expect(
      importProblem(lib, file, specifier, LAYERS, (target, entry) => target === 'platform' && entry === 'plain'),
    ).toBeNull();
  });

  it('reads the imports of every form', () => {
    expect(
      importsOf(
        `import { a } from '@app/x';\nexport * from './y';\nconst z = await import('@app/z');\nrequire('w');\nimport 'v';`,
      ),
    ).toEqual(['@app/x', './y', '@app/z', 'w', 'v']);
  });

  it.each([
    ['SELECT p.email FROM people p JOIN identities i ON i.person_id = p.id', ['people', 'identities']],
    ['UPDATE deliveries SET state = $1', ['deliveries']],
    ['CREATE TABLE lists (workspace_id text REFERENCES workspaces(id))', ['lists']],
    ['Read emails sent to and received from people, newest first', []],
  ])('reads %s as naming %j', (sql, tables) => {
    expect([...namedTables(`const q = \`${sql}\`;`)]).toEqual(tables);
  });

  it('finds a function over 60 lines, and not one of 60', () => {
    const body = (n: number) => `function f() {\n${'  x();\n'.repeat(n - 2)}}`;
    expect(longFunctions(body(61))).toEqual(['f:1 (61 lines)']);
    expect(longFunctions(body(60))).toEqual([]);
  });
});
