// The pages of docs/ describe only what the code does. Their marked shell examples
// run against the app and print what they say; their GraphQL is valid against schema.graphql; the
// routes, refusal statuses, settings, tools and GraphQL fields they list are the code's, all of them;
// their links and npm scripts exist; the README's layout names the apps and libs there are.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { buildSchema, parse, validate } from 'graphql';
import { REFUSAL_STATUS } from '@app/wire';
import { ADMIN_TOKEN, useApp } from './harness';
import {
  anchorsOf,
  Block,
  blocksOf,
  documentFiles,
  readDoc,
  ROOT,
  runShell,
  shortfall,
} from './support/shell-examples';

const pages = documentFiles().filter((file) => file.startsWith('docs/'));
const examplesOf = (page: string) => blocksOf(page).filter((b) => b.marker === 'example');
const schema = buildSchema(readDoc('schema.graphql'));

/** The rows of the table right after `<!-- marker -->` in a file, as cells, header left out. */
function tableAfter(file: string, marker: string): string[][] {
  const lines = readDoc(file).split('\n');
  const at = lines.indexOf(`<!-- ${marker} -->`);
  if (at < 0) throw new Error(`${file} has no <!-- ${marker} --> table`);
  const rows: string[][] = [];
  for (let i = at + 3; lines[i]?.startsWith('|'); i++)
    rows.push(
      lines[i]
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  return rows;
}

const namesIn = (cell: string) => [...cell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]);

/** Every environment variable read (as process.env's property) under dirs, by name; spec files and node_modules left out. */
function environmentReads(dirs: string[], leaveOut: (file: string) => boolean = () => false): Map<string, string> {
  const reads = new Map<string, string>();
  const visit = (path: string) => {
    if (path.includes('node_modules') || leaveOut(relative(ROOT, path))) return;
    if (statSync(path).isDirectory()) return readdirSync(path).forEach((entry) => visit(join(path, entry)));
    if (!/\.(ts|tsx|js)$/.test(path) || /\.spec\.ts$/.test(path)) return;
    for (const [, name] of readFileSync(path, 'utf8').matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g))
      reads.set(name, relative(ROOT, path));
  };
  dirs.forEach((dir) => visit(join(ROOT, dir)));
  return reads;
}

describe('against the app', () => {
  const t = useApp();

  describe('the examples of each page run as the page shows', () => {
    it.each(pages.filter((page) => examplesOf(page).length > 0))('%s', async (page) => {
      const ws = await t.workspace({ origins: ['http://localhost:*'] });
      const env = {
        LIFELINE_URL: t.url,
        SECRET_KEY: ws.secretKey,
        PUBLIC_KEY: ws.publicKey,
        ADMIN_TOKEN,
        // The operator CLI and npm run migrate work on the app's database.
        DATABASE_URL: t.config.databaseUrl,
        APP_SECRET: t.config.appSecret,
        BASE_URL: t.url,
      };
      for (const block of examplesOf(page)) {
        expect(block.lang).toBe('sh');
        expect(shortfall(block, await runShell(block.code, env))).toBeNull();
      }
    });
  });

  describe('docs/rest.md routes', () => {
    type Route = { method: string; segments: string[] };
    const param = (segment: string) => segment.includes('{');
    /** A route named in the page stands for a served one: literal segments equal, any value where a parameter is. */
    const standsFor = (named: Route, served: Route) =>
      named.method === served.method &&
      named.segments.length === served.segments.length &&
      served.segments.every((s, i) => (param(s) ? true : s === named.segments[i] && !param(named.segments[i])));
    const named: Route[] = [
      ...readDoc('docs/rest.md').matchAll(/\b(GET|POST|PUT|PATCH|DELETE|OPTIONS) (\/(?:[^\s`),{]|\{[^}]*\})*)/g),
    ].map(([, method, path]) => ({ method, segments: path.split('/') }));
    const show = (r: Route) => `${r.method} ${r.segments.join('/')}`;

    it('names every route of /api/openapi.json, and no route the document does not have', async () => {
      const doc = (await t.request('GET', '/api/openapi.json')).body as {
        paths: Record<string, Record<string, unknown>>;
      };
      const served: Route[] = Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => ({ method: m.toUpperCase(), segments: path.split('/') })),
      );
      expect(named.length).toBeGreaterThan(10);
      expect(named.filter((n) => !served.some((s) => standsFor(n, s))).map(show)).toEqual([]);
      expect(served.filter((s) => !named.some((n) => standsFor(n, s))).map(show)).toEqual([]);
    });
  });

  it('docs/mcp.md lists exactly the tools the tool door answers', async () => {
    const ws = await t.workspace();
    const answer = await t.request('POST', '/api/mcp', {
      key: ws.secretKey,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    const served = (answer.body.result.tools as Array<{ name: string }>).map((tool) => tool.name).sort();
    const listed = tableAfter('docs/mcp.md', 'tools').map(([tool]) => tool.replace(/`/g, ''));
    expect(listed.sort()).toEqual(served);
  });
});

describe('GraphQL in the README and docs is valid against schema.graphql', () => {
  const blocks = documentFiles().flatMap(blocksOf);
  /** The queries posted with curl -d '{"query": …}' in shell blocks. */
  const posted = blocks
    .filter((b) => b.lang === 'sh')
    .flatMap((b) =>
      [...b.code.matchAll(/-d '(\{"query"[^']*\})'/g)].map((m): Block => ({ ...b, code: JSON.parse(m[1]).query })),
    );
  const documents = [...blocks.filter((b) => b.lang === 'graphql'), ...posted];

  it('there are GraphQL examples to check', () => expect(documents.length).toBeGreaterThan(10));

  it.each(documents.map((b) => [`${b.file}:${b.line}`, b.code] as const))('%s', (_where, code) => {
    expect(validate(schema, parse(code)).map((e) => e.message)).toEqual([]);
  });
});

describe('docs/rest.md', () => {
  it('gives every refusal code its HTTP status, and no other code', () => {
    const documented = Object.fromEntries(
      tableAfter('docs/rest.md', 'refusal statuses').flatMap(([status, codes]) =>
        [...codes.matchAll(/`([a-z_]+)`/g)].map((m) => [m[1], Number(status)]),
      ),
    );
    expect(documented).toEqual(REFUSAL_STATUS);
  });
});

describe('docs/configuration.md', () => {
  const configText = [
    'config/config.ts',
    'config/email-settings.ts',
    'config/outbox-settings.ts',
    'rate-limits/limit-settings.ts',
  ]
    .map((f) => readDoc(`libs/platform/src/${f}`))
    .join('\n');
  const read = new Set(
    [...configText.matchAll(/env\.([A-Z][A-Z0-9_]*)|\(env, '([A-Z][A-Z0-9_]*)'/g)].map((m) => m[1] ?? m[2]),
  );
  const settings = tableAfter('docs/configuration.md', 'settings').flatMap(([variable]) => namesIn(variable));
  const outside = tableAfter('docs/configuration.md', 'outside settings');
  const tests = tableAfter('docs/configuration.md', 'test settings');

  it('lists every variable config.ts reads as a setting, and only those', () => {
    expect(read.size).toBeGreaterThan(15);
    expect([...settings].sort()).toEqual([...read].sort());
  });

  it('names, for each variable outside the settings, a file that reads it', () => {
    for (const row of [...outside, ...tests]) {
      const file = /`([^`]+)`$/.exec(row[row.length - 1])![1];
      for (const name of namesIn(row[0]))
        expect(`${name} read in ${file}: ${readDoc(file).includes(name)}`).toBe(`${name} read in ${file}: true`);
    }
  });

  it('lists every variable the service and scripts read (the client package has its own README)', () => {
    const listed = new Set([...settings, ...outside.flatMap(([v]) => namesIn(v))]);
    const reads = environmentReads(['apps', 'libs', 'scripts'], (file) => file.startsWith('libs/sdk'));
    expect([...reads].filter(([name]) => !listed.has(name))).toEqual([]);
  });

  it('lists every variable the tests read', () => {
    // Set by jest, the shell, or global-setup.ts for the test files: nothing to set by hand.
    const handedOver = new Set(['PATH', 'JEST_WORKER_ID', 'LIFELINE_NO_CONSOLE', 'LIFELINE_NO_BROWSER']);
    const listed = new Set(tests.flatMap(([v]) => namesIn(v)));
    expect([...environmentReads(['test'])].filter(([name]) => !listed.has(name) && !handedOver.has(name))).toEqual([]);
  });
});

it('docs/graphql.md names every query and mutation of the schema', () => {
  const page = readDoc('docs/graphql.md');
  const fields = [schema.getQueryType()!, schema.getMutationType()!].flatMap((type) => Object.keys(type.getFields()));
  expect(fields.filter((field) => !page.includes(`\`${field}\``) && !page.includes(`\`${field}(`))).toEqual([]);
});

it('every link of the README and docs reaches a file, and every #anchor a heading', () => {
  const broken: string[] = [];
  for (const file of documentFiles()) {
    const text = readDoc(file).replace(/```[\s\S]*?```/g, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const [path, anchor] = target.split('#');
      const linked = path ? relative(ROOT, join(ROOT, dirname(file), path)) : file;
      if (!existsSync(join(ROOT, linked))) broken.push(`${file}: ${target} (no file)`);
      else if (anchor && linked.endsWith('.md') && !anchorsOf(linked).has(anchor))
        broken.push(`${file}: ${target} (no heading)`);
    }
  }
  expect(broken).toEqual([]);
});

it('every npm script the README and docs name is in package.json', () => {
  const scripts = JSON.parse(readDoc('package.json')).scripts as Record<string, string>;
  const named = documentFiles().flatMap((file) =>
    [...readDoc(file).matchAll(/npm (?:run (?:-s )?([a-z][a-z:-]*)|(start|test)\b)/g)].map((m) => m[1] ?? m[2]),
  );
  expect(named.length).toBeGreaterThan(5);
  expect([...new Set(named)].filter((name) => !scripts[name])).toEqual([]);
});

it("the README's layout names every app and lib, and only folders that exist", () => {
  const layout = blocksOf('README.md').find((b) => b.marker === 'layout')!;
  const named = layout.code.split('\n').map((line) => line.split(/\s+/)[0]);
  expect(named.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  const folders = ['apps', 'libs'].flatMap((top) => readdirSync(join(ROOT, top)).map((name) => `${top}/${name}/`));
  expect(folders.filter((folder) => !named.includes(folder))).toEqual([]);
});
