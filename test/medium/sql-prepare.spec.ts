// Every SQL statement the libs keep whole, and every snapshot statement of test/sql, prepared against a database
// cloned from the migrated template (docs/architecture.md#sql-snapshots): a renamed or missing column, table or
// function fails here at once, naming the statement's file and PostgreSQL's error, before any test reaches the code
// that sends it. PREPARE parses and analyses a statement without running it; a `$n` takes the type its place implies.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Client } from 'pg';
import ts from 'typescript';
import { sqlSnapshots } from '../../scripts/sql-snapshot';
import { dropDatabase, testConfig } from '../harness';
import { ROOT, sourceFiles } from '../support/tables';
import { cloneTemplate } from '../support/template';

interface Statement {
  /** Where it is written: `file NAME` for a constant, `file:line` for a literal, test/sql/… for a snapshot. */
  where: string;
  sql: string;
}

const STATEMENT = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/;
// A little under what was found (7, 137, 25) as the libs move code about: a finder that stops finding fails.
const FLOORS = { constants: 7, literals: 125, snapshots: 25 };

const LIBS = readdirSync(join(ROOT, 'libs')).filter((lib) => existsSync(join(ROOT, 'libs', lib, 'src', 'index.ts')));

/** Each lib's source file with its parsed text, specs and migrations left out. */
function parsedSources(): Array<{ file: string; source: ts.SourceFile }> {
  return LIBS.flatMap((lib) => sourceFiles(join(ROOT, 'libs', lib, 'src'))).map((path) => ({
    file: relative(ROOT, path),
    source: ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2022, true),
  }));
}

/** The text of a literal without holes, or of a `+` chain of them (a long statement split across lines), else null. */
function literalText(node: ts.Node): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isParenthesizedExpression(node)) return literalText(node.expression);
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const [left, right] = [literalText(node.left), literalText(node.right)];
    return left !== null && right !== null ? left + right : null;
  }
  return null;
}

/** A file's top-level `const` declarations (exported or not) by name. */
function topConstants(source: ts.SourceFile): Array<{ name: string; exported: boolean; value: ts.Expression }> {
  return source.statements.filter(ts.isVariableStatement).flatMap((statement) => {
    if (!(statement.declarationList.flags & ts.NodeFlags.Const)) return [];
    const exported = !!statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    return statement.declarationList.declarations.flatMap((d) =>
      ts.isIdentifier(d.name) && d.initializer ? [{ name: d.name.text, exported, value: d.initializer }] : [],
    );
  });
}

/**
 * Exported constants whose value is a statement: those written as literals, read from the source, and those built
 * from parts (a template with holes, a call), read from each lib's public index and light entries as the apps load
 * them, and named by the file that declares them.
 */
function exportedStatements(sources: ReturnType<typeof parsedSources>): Statement[] {
  const found = new Map<string, Statement>();
  const declared = new Map<string, string>();
  for (const { file, source } of sources) {
    for (const constant of topConstants(source).filter((c) => c.exported)) {
      declared.set(constant.name, file);
      const text = literalText(constant.value);
      if (text !== null && STATEMENT.test(text))
        found.set(constant.name, { where: `${file} ${constant.name}`, sql: text });
    }
  }
  for (const lib of LIBS) {
    const entries = join(ROOT, 'libs', lib, 'src', 'entries');
    const modules = [join('libs', lib, 'src'), ...(existsSync(entries) ? readdirSync(entries) : [])];
    for (const module of modules.map((m) => (m.endsWith('.ts') ? join(entries, m) : join(ROOT, m)))) {
      for (const [name, value] of Object.entries(require(module) as Record<string, unknown>)) {
        if (typeof value !== 'string' || !STATEMENT.test(value) || found.has(name)) continue;
        found.set(name, { where: `${declared.get(name) ?? `@app/${lib}`} ${name}`, sql: value });
      }
    }
  }
  return [...found.values()];
}

/** Whether a call sends its arguments as SQL: `query`, `preparedQuery`, `serialQuery` and the like. */
function isQueryCall(node: ts.Node): node is ts.CallExpression {
  if (!ts.isCallExpression(node)) return false;
  const callee = node.expression;
  const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : ts.isIdentifier(callee) ? callee.text : '';
  return /query$/i.test(name);
}

/**
 * Statements handed whole to a query call: a literal (or a `+` chain of literals) there, or a top-level constant of
 * the same file that is one.
 */
function queriedStatements(sources: ReturnType<typeof parsedSources>): Statement[] {
  const found: Statement[] = [];
  for (const { file, source } of sources) {
    const constants = new Map(topConstants(source).map((c) => [c.name, c]));
    const visit = (node: ts.Node): void => {
      if (isQueryCall(node)) {
        for (const argument of node.arguments) {
          const constant = ts.isIdentifier(argument) ? constants.get(argument.text) : undefined;
          const text = literalText(constant?.value ?? argument);
          if (text === null || !STATEMENT.test(text) || constant?.exported) continue;
          const at = constant?.value ?? argument;
          const line = source.getLineAndCharacterOfPosition(at.getStart(source)).line + 1;
          found.push({ where: `${file}:${line}`, sql: text });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  // A constant sent from several calls is prepared once.
  return [...new Map(found.map((s) => [s.where, s])).values()];
}

/** PostgreSQL's refusals of these statements, one sentence each naming where the statement is written. */
async function refusals(client: Client, statements: Statement[]): Promise<string[]> {
  const refused: string[] = [];
  for (const { where, sql } of statements) {
    try {
      await client.query(`PREPARE s AS ${sql.trim().replace(/;$/, '')}`);
      await client.query('DEALLOCATE s');
    } catch (error) {
      refused.push(`${where}: ${(error as Error).message}`);
    }
  }
  return refused;
}

let client: Client;
let database: string;
let constants: Statement[];
let literals: Statement[];
let snapshots: Statement[];
beforeAll(async () => {
  const made = await testConfig();
  database = made.database;
  await cloneTemplate(database);
  client = new Client({ connectionString: made.config.databaseUrl });
  await client.connect();
  const sources = parsedSources();
  constants = exportedStatements(sources);
  literals = queriedStatements(sources);
  snapshots = (await sqlSnapshots()).map((s) => ({ where: `test/sql/${s.file} (${s.builtBy})`, sql: s.sql }));
}, 60_000);
afterAll(async () => {
  await client?.end();
  await dropDatabase(database);
});

test('every exported SQL constant of the libs prepares against the migrated schema', async () => {
  expect(await refusals(client, constants)).toEqual([]);
  console.log(`prepared ${constants.length} exported SQL constants: ${constants.map((s) => s.where).join(', ')}`);
  expect(constants.length).toBeGreaterThanOrEqual(FLOORS.constants);
});

test('every statement the libs hand whole to a query call prepares against the migrated schema', async () => {
  expect(await refusals(client, literals)).toEqual([]);
  console.log(`prepared ${literals.length} statements written whole in query calls`);
  expect(literals.length).toBeGreaterThanOrEqual(FLOORS.literals);
});

test('every snapshot statement of test/sql prepares against the migrated schema', async () => {
  expect(await refusals(client, snapshots)).toEqual([]);
  console.log(`prepared ${snapshots.length} snapshot statements`);
  expect(snapshots.length).toBeGreaterThanOrEqual(FLOORS.snapshots);
});

test("a statement naming a renamed column is refused with its file and PostgreSQL's error", async () => {
  const original = snapshots.find((s) => s.where.startsWith('test/sql/delivery-claim.sql'))!;
  const planted = {
    where: `${original.where}, a copy`,
    sql: original.sql.replace(/\bd\.claimed_until\b/g, 'd.claimed'),
  };
  expect(planted.sql).not.toBe(original.sql);
  expect(await refusals(client, [planted])).toEqual([`${planted.where}: column d.claimed does not exist`]);
  expect(await refusals(client, [original])).toEqual([]);
});
