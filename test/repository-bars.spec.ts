// The bars the tree keeps (docs/testing.md#gates): lines that fit Prettier's width, references a reader of
// the repository can open, the house's words defined, and no path of the machine a figure was measured on.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..');
const SKIP = new Set(['node_modules', 'dist', '.git', '.data', 'coverage', 'artifacts']);

/** Every file under `dir` whose name matches `pattern`, outside build output and dependencies. */
function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name)) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path, pattern);
    return pattern.test(name) ? [path] : [];
  });
}

const CODE = /\.(ts|tsx|js|mjs|cjs)$/;
// This file names what it looks for, so it reads everything but itself.
const code = ['apps', 'libs', 'test', 'bench', 'scripts', '.ci']
  .flatMap((top) => filesUnder(join(ROOT, top), top === '.ci' ? /./ : CODE))
  .concat(
    readdirSync(ROOT)
      .filter((name) => CODE.test(name) || name === 'Dockerfile')
      .map((name) => join(ROOT, name)),
  )
  .filter((file) => !file.endsWith('graphql-env.d.ts') && file !== __filename);
const production = code.filter((file) => /^(apps|libs)\//.test(relative(ROOT, file)) && !/\.(spec|d)\.ts$/.test(file));
const docs = [
  join(ROOT, 'README.md'),
  ...filesUnder(join(ROOT, 'docs'), /\.md$/),
  ...filesUnder(join(ROOT, 'libs'), /\.md$/),
];
const bench = filesUnder(join(ROOT, 'bench'), /\.md$/);

/** `path:line text` of each line of `files` that `test` picks. */
function linesWhere(files: string[], test: (line: string) => boolean): string[] {
  return files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => (test(line) ? [`${relative(ROOT, file)}:${i + 1} ${line.trim().slice(0, 100)}`] : [])),
  );
}

/** A citation a reader of the repository cannot follow: an issue's number, the outside specification, its numbered decisions. */
export function citesOutside(line: string): boolean {
  return /\bissues? #?\d+|\binterface\.md\b|\bdecisions\.md (?:§|sections? \d)|§ ?\d/i.test(line);
}

/** GitHub's anchor of a heading: lower case, punctuation other than - and _ dropped, spaces to hyphens. */
export function slugOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown page: one per heading, a repeated one numbered as GitHub numbers it. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^```/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = slugOf(heading[1]);
    const n = seen.get(slug) ?? 0;
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
    seen.set(slug, n + 1);
  }
  return anchors;
}

/**
 * Each `docs/<page>.md#<anchor>` (or page alone) a text names, and each Markdown link to a page beside it
 * (`](page.md#anchor)`, as the docs pages link each other), that the repository does not have.
 */
export function brokenReferences(text: string, pageText: (page: string) => string | null): string[] {
  const broken: string[] = [];
  for (const [, page, anchor] of text.matchAll(/(?:\bdocs\/|\]\()([a-z0-9-]+\.md)(?:#([a-z0-9_-]+))?/g)) {
    const markdown = pageText(page);
    if (markdown === null) broken.push(`docs/${page} (no such page)`);
    else if (anchor && !anchorsOf(markdown).has(anchor)) broken.push(`docs/${page}#${anchor} (no such heading)`);
  }
  return broken;
}

const pageText = (page: string) => {
  const path = join(ROOT, 'docs', page);
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
};

describe('lines fit the width Prettier keeps', () => {
  it('at most 50 production lines are over 120 characters (long SQL and page styles that read better whole)', () => {
    const long = linesWhere(production, (line) => line.length > 120);
    expect({ count: long.length, within: long.length <= 50 }).toEqual({ count: long.length, within: true });
  });
});

describe('every reference resolves in the repository', () => {
  it('no code line cites an issue number, the outside specification or its numbered decisions', () => {
    expect(linesWhere(code.concat(docs, bench), citesOutside)).toEqual([]);
  });

  it('every docs page and anchor named in code and docs exists', () => {
    const broken = code
      .concat(docs)
      .flatMap((file) =>
        brokenReferences(readFileSync(file, 'utf8'), pageText).map((b) => `${relative(ROOT, file)}: ${b}`),
      );
    expect(broken).toEqual([]);
  });

  it('no file names a path of the machine it was measured on', () => {
    const machinePath = (line: string) => /(?:^|[\s`'"(=])\/(?:work|root|home|farm)\/|\bwt-base\b/.test(line);
    expect(linesWhere(code.concat(docs, bench), machinePath)).toEqual([]);
  });

  it.each(['docs/glossary.md', 'docs/testing.md'])('%s exists', (page) => {
    expect(existsSync(join(ROOT, page))).toBe(true);
  });
});

// The readers themselves, on planted cases, so a change to them cannot pass everything silently.
describe('the checks catch what they are for', () => {
  it.each([
    ['// Issue 34 item 2: the reference page', true],
    ['// (issue 16)', true],
    ['// interface.md "Events endpoint"', true],
    ['// decisions.md section 6', true],
    ['// §4 says so', true],
    ['// docs/decisions.md#charts-from-rollups', false],
    ['// the issues of a GitHub repository', false],
  ])('reads %j as citing outside: %s', (line, cites) => {
    expect(citesOutside(line)).toBe(cites);
  });

  it('makes anchors as GitHub does', () => {
    const page = '# Title\n## Events endpoint (`POST /api/v1/events`)\n```\n# not a heading\n```\n## Notes\n## Notes\n';
    expect([...anchorsOf(page)]).toEqual(['title', 'events-endpoint-post-apiv1events', 'notes', 'notes-1']);
  });

  it('finds a missing page and a missing heading, and passes one that exists', () => {
    const pages: Record<string, string> = { 'rest.md': '## Events endpoint\n' };
    const text = 'see docs/rest.md#events-endpoint, docs/rest.md#nowhere and docs/gone.md';
    expect(brokenReferences(text, (page) => pages[page] ?? null)).toEqual([
      'docs/rest.md#nowhere (no such heading)',
      'docs/gone.md (no such page)',
    ]);
  });
});
