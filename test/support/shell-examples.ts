// The examples of README.md and docs/*.md, read and run as a reader would. A block
// that runs is a fenced block right after an HTML comment naming its part (`<!-- tour -->`,
// `<!-- example -->`); a line `# → text` inside a shell block is what the command above it prints,
// where `…` stands for anything (ids, times), and the output must show the lines in order.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

export interface Block {
  /** The file, relative to the repository. */
  file: string;
  /** The line of the opening fence, 1-based. */
  line: number;
  /** The comment right above it (`tour`, `tour: start`, `example`…), or null. */
  marker: string | null;
  lang: string;
  code: string;
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function readDoc(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8');
}

/** README.md and every page of docs/. */
export function documentFiles(): string[] {
  return [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
}

/** Every fenced block of a markdown file, with the comment on the line above it. */
export function blocksOf(file: string): Block[] {
  const lines = readDoc(file).split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
    if (end < 0) throw new Error(`${file}:${i + 1}: a code block is never closed`);
    const above = /^<!--\s*(.+?)\s*-->$/.exec(lines[i - 1] ?? '');
    blocks.push({
      file,
      line: i + 1,
      marker: above ? above[1] : null,
      lang: open[1],
      code: lines.slice(i + 1, end).join('\n'),
    });
    i = end;
  }
  return blocks;
}

/** The `# → ` lines of a shell block: what it says it prints. */
export function expectedOutput(code: string): string[] {
  return code
    .split('\n')
    .map((l) => /^# → (.*)$/.exec(l.trim())?.[1])
    .filter((l): l is string => l !== undefined);
}

function lineMatcher(expected: string): RegExp {
  const parts = expected.split('…').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(parts.join('[\\s\\S]*?'));
}

/** The first expected line the output does not show (in order), or null when it shows them all. */
export function missingOutput(output: string, expected: string[]): string | null {
  let rest = output;
  for (const line of expected) {
    const found = lineMatcher(line).exec(rest);
    if (!found) return line;
    rest = rest.slice(found.index + found[0].length);
  }
  return null;
}

/** Runs a block with bash, as a reader pasting it would, with the variables the docs tell them to set. */
export function runShell(code: string, env: Record<string, string>, timeoutMs = 20_000): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-o', 'pipefail', '-c', code],
      { cwd: ROOT, env: { ...process.env, ...env }, timeout: timeoutMs },
      (error, stdout, stderr) => {
        const exit = error ? (error as { code?: unknown }).code : 0;
        resolve({ code: typeof exit === 'number' ? exit : 1, stdout, stderr });
      },
    );
  });
}

/** Why a run of a block does not do what its page says, or null when it does. */
export function shortfall(block: Block, ran: Ran): string | null {
  const where = `${block.file}:${block.line}`;
  if (ran.code !== 0)
    return `${where} exited ${ran.code}:\n${block.code}\nstdout: ${ran.stdout}\nstderr: ${ran.stderr}`;
  const missing = missingOutput(ran.stdout, expectedOutput(block.code));
  return missing === null ? null : `${where} does not print\n  ${missing}\nbut:\n  ${ran.stdout}`;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

/** The anchors of a markdown file's headings. */
export function anchorsOf(file: string): Set<string> {
  const headings = readDoc(file)
    .replace(/```[\s\S]*?```/g, '')
    .split('\n')
    .map((l) => /^#{1,6}\s+(.*)$/.exec(l)?.[1])
    .filter((h): h is string => !!h);
  return new Set(headings.map(anchorOf));
}
