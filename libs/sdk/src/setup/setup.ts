// libs/sdk/README.md#setup-for-a-nextjs-project: `npx @lifeline/sdk setup [--dry-run] [--cwd DIR]`. Plans
// every step first and writes only when every step can be done; runs nothing, printing the install command
// instead.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { VERSION } from '../version.js';
import {
  addDependency,
  addToApp,
  addToLayout,
  appendEnvNames,
  ENV_NAMES,
  envNamesPresent,
  hasTag,
  newApp,
  PACKAGE_NAME,
  PackageJson,
} from './edits.js';

interface Change {
  /** Relative to the project folder. */
  file: string;
  text: string;
  created: boolean;
  /** One sentence, in the past tense. */
  said: string;
}

interface Plan {
  refusals: string[];
  changes: Change[];
  /** Sentences about what is already in and stays as it is. */
  kept: string[];
  installCommand: string;
}

const USAGE =
  `Usage: npx ${PACKAGE_NAME} setup [--dry-run] [--cwd DIR]: adds LifelineTag, the package and the environment ` +
  `names to a Next.js project.`;

class Project {
  readonly refusals: string[] = [];

  constructor(readonly dir: string) {}

  /** The file's text, null when it does not exist; a file that cannot be read is a refusal. */
  read(file: string): string | null {
    try {
      return fs.readFileSync(path.join(this.dir, file), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      this.refusals.push(
        `Cannot read ${file} (${(error as Error).message}): fix its permissions, then run setup again.`,
      );
      return null;
    }
  }

  isDir(file: string): boolean {
    try {
      return fs.statSync(path.join(this.dir, file)).isDirectory();
    } catch {
      return false;
    }
  }

  first(files: string[]): string | undefined {
    return files.find((file) => fs.existsSync(path.join(this.dir, file)));
  }
}

function installCommand(project: Project): string {
  if (project.first(['pnpm-lock.yaml'])) return 'pnpm install';
  if (project.first(['yarn.lock'])) return 'yarn install';
  if (project.first(['bun.lockb', 'bun.lock'])) return 'bun install';
  return 'npm install';
}

function planTag(project: Project, plan: Plan): void {
  const layout = project.first(['app/layout.tsx', 'app/layout.jsx', 'src/app/layout.tsx', 'src/app/layout.jsx']);
  const pagesDir = ['pages', 'src/pages'].find((dir) => project.isDir(dir));
  const app = pagesDir ? project.first(['tsx', 'jsx', 'ts', 'js'].map((ext) => `${pagesDir}/_app.${ext}`)) : undefined;
  if (!layout && !pagesDir) {
    plan.refusals.push(
      'Found neither app/layout.tsx (app router) nor a pages folder (pages router): run setup in the root of a ' +
        'Next.js project.',
    );
    return;
  }
  for (const [file, edit] of [
    [layout, addToLayout],
    [app, addToApp],
  ] as const) {
    if (!file) continue;
    const source = project.read(file);
    if (source === null) continue;
    if (hasTag(source)) {
      plan.kept.push(`LifelineTag is already in ${file}.`);
      continue;
    }
    const result = edit(source, file);
    if ('refusal' in result) plan.refusals.push(result.refusal);
    else plan.changes.push({ file, text: result.text, created: false, said: `Added <LifelineTag /> to ${file}.` });
  }
  if (pagesDir && !app) {
    const file = `${pagesDir}/_app.${project.first(['tsconfig.json']) ? 'tsx' : 'jsx'}`;
    plan.changes.push({
      file,
      text: newApp(file.endsWith('.tsx')),
      created: true,
      said: `Created ${file} rendering every page with <LifelineTag />.`,
    });
  }
}

function planEnv(project: Project, plan: Plan): void {
  const file = '.env.example';
  const refusedBefore = project.refusals.length;
  const text = project.read(file);
  if (project.refusals.length > refusedBefore) return;
  const present = envNamesPresent(text ?? '');
  const missing = ENV_NAMES.filter((name) => !present.has(name));
  if (present.size > 0)
    plan.kept.push(
      `${[...present].join(', ')} ${present.size === 1 ? 'is' : 'are'} already in ${file} and kept as written.`,
    );
  if (missing.length === 0) return;
  plan.changes.push({
    file,
    text: appendEnvNames(text ?? '', missing),
    created: text === null,
    said: `${text === null ? 'Created' : 'Appended to'} ${file}: ${missing.join(', ')}.`,
  });
}

/** Every step worked out, nothing written. */
function planSetup(dir: string): Plan {
  const project = new Project(dir);
  const plan: Plan = { refusals: project.refusals, changes: [], kept: [], installCommand: installCommand(project) };
  const pkgText = project.read('package.json');
  if (pkgText === null) {
    if (project.refusals.length === 0)
      plan.refusals.push(
        `There is no package.json in ${dir}: run setup in your Next.js project's folder, or pass --cwd DIR.`,
      );
    return plan;
  }
  let pkg: PackageJson;
  try {
    pkg = JSON.parse(pkgText) as PackageJson;
  } catch (error) {
    plan.refusals.push(`package.json is not valid JSON (${(error as Error).message}): fix it, then run setup again.`);
    return plan;
  }
  if (!pkg.dependencies?.next && !pkg.devDependencies?.next) {
    plan.refusals.push(
      'This project has no next in its package.json: setup is for Next.js projects; elsewhere, follow the ' +
        'package README by hand.',
    );
    return plan;
  }
  planTag(project, plan);
  const withDependency = addDependency(pkgText, pkg);
  if (withDependency === null) plan.kept.push(`${PACKAGE_NAME} is already in the dependencies in package.json.`);
  else
    plan.changes.push({
      file: 'package.json',
      text: withDependency,
      created: false,
      said: `Added ${PACKAGE_NAME} ^${VERSION} to the dependencies in package.json.`,
    });
  planEnv(project, plan);
  return plan;
}

/** Writes every change, or none: a failure puts back what was already written. */
function applyPlan(dir: string, changes: Change[]): string | null {
  for (const change of changes) {
    const target = path.join(dir, change.file);
    try {
      fs.accessSync(change.created ? path.dirname(target) : target, fs.constants.W_OK);
    } catch (error) {
      return `Cannot write ${change.file} (${(error as Error).message}): fix its permissions, then run setup again.`;
    }
  }
  const done: Array<{ target: string; before: string | null }> = [];
  for (const change of changes) {
    const target = path.join(dir, change.file);
    try {
      const before = change.created ? null : fs.readFileSync(target, 'utf8');
      fs.writeFileSync(target, change.text, { flag: change.created ? 'wx' : 'w' });
      done.push({ target, before });
    } catch (error) {
      for (const { target: written, before } of done.reverse()) {
        if (before === null) fs.rmSync(written, { force: true });
        else fs.writeFileSync(written, before);
      }
      return `Cannot write ${change.file} (${(error as Error).message}): fix it, then run setup again.`;
    }
  }
  return null;
}

export interface SetupIo {
  cwd: string;
  print(line: string): void;
  /** Refusals; the bin sends them to stderr. */
  refuse(line: string): void;
}

function refuse(io: SetupIo, sentences: string[]): number {
  for (const sentence of sentences) io.refuse(`Refused: ${sentence}`);
  io.refuse('Nothing was written.');
  return 1;
}

/** The command line: prints one sentence per change or refusal; answers the exit code. */
export function runSetup(argv: string[], io: SetupIo): number {
  const [command, ...rest] = argv;
  if (command === '--version' || command === '-v') return (io.print(VERSION), 0);
  if (command === '--help' || command === '-h' || command === 'help') return (io.print(USAGE), 0);
  let dryRun = false;
  let dir = io.cwd;
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--dry-run') dryRun = true;
    else if (rest[i] === '--cwd' && rest[i + 1] !== undefined) dir = path.resolve(io.cwd, rest[++i]);
    else if (rest[i].startsWith('--cwd=')) dir = path.resolve(io.cwd, rest[i].slice('--cwd='.length));
    else return refuse(io, [`unknown option ${rest[i]}. ${USAGE}`]);
  }
  if (command !== 'setup')
    return refuse(io, [`${command === undefined ? 'no command given' : `unknown command ${command}`}. ${USAGE}`]);

  const plan = planSetup(dir);
  if (plan.refusals.length > 0) return refuse(io, plan.refusals);
  for (const kept of plan.kept) io.print(kept);
  if (plan.changes.length === 0) {
    io.print('Lifeline is already in this project: nothing to change.');
    return 0;
  }
  if (dryRun) {
    for (const change of plan.changes) io.print(`Would do: ${change.said}`);
    io.print('Dry run: nothing was written.');
    return 0;
  }
  const failure = applyPlan(dir, plan.changes);
  if (failure) return refuse(io, [failure]);
  for (const change of plan.changes) io.print(change.said);
  if (plan.changes.some((change) => change.file === 'package.json'))
    io.print(`Now run ${plan.installCommand} to fetch ${PACKAGE_NAME}; setup runs nothing itself.`);
  io.print('Then put your keys in .env.local under the names listed in .env.example.');
  return 0;
}
