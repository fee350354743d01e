// The setup command (libs/sdk/README.md#setup-for-a-nextjs-project) over fixture Next.js projects made
// in temporary folders.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { VERSION } from '../version';
import { ENV_NAMES } from './edits';
import { runSetup } from './setup';

const LAYOUT = `import type { Metadata } from 'next';
import { Inter } from 'next/font/google';
import './globals.css';

const inter = Inter({ subsets: ['latin'] });

export const metadata: Metadata = { title: 'Acme' };

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className={inter.className}>
        {children}
      </body>
    </html>
  );
}
`;

const APP = `import '@/styles/globals.css';
import type { AppProps } from 'next/app';

export default function App({ Component, pageProps }: AppProps) {
  return <Component {...pageProps} />;
}
`;

const PACKAGE = {
  name: 'acme-site',
  private: true,
  scripts: { dev: 'next dev' },
  dependencies: { next: '14.2.3', react: '18.3.1', 'react-dom': '18.3.1' },
};

type Files = Record<string, string>;

const made: string[] = [];
function project(files: Files): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeline-setup-'));
  made.push(dir);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}
afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/** Every file under dir (symlinks named, not followed), to prove what a run did or did not write. */
function snapshot(dir: string, under = ''): Files {
  const out: Files = {};
  for (const entry of fs.readdirSync(path.join(dir, under), { withFileTypes: true })) {
    const rel = path.join(under, entry.name);
    if (entry.isDirectory()) Object.assign(out, snapshot(dir, rel));
    else if (entry.isSymbolicLink()) out[rel] = `-> ${fs.readlinkSync(path.join(dir, rel))}`;
    else out[rel] = fs.readFileSync(path.join(dir, rel), 'utf8');
  }
  return out;
}

function run(dir: string, ...args: string[]) {
  const printed: string[] = [];
  const refused: string[] = [];
  const code = runSetup(['setup', '--cwd', dir, ...args], {
    cwd: '/',
    print: (l) => printed.push(l),
    refuse: (l) => refused.push(l),
  });
  return { code, printed, refused };
}

const appRouter = () =>
  project({
    'package.json': `${JSON.stringify(PACKAGE, null, 2)}\n`,
    'app/layout.tsx': LAYOUT,
    'tsconfig.json': '{}\n',
  });
const pagesRouter = () =>
  project({
    'package.json': JSON.stringify(PACKAGE, null, 4),
    'pages/_app.tsx': APP,
    'pages/index.tsx': 'export default () => null;\n',
  });
const read = (dir: string, file: string) => fs.readFileSync(path.join(dir, file), 'utf8');

describe('an app router project', () => {
  it('gets the tag in app/layout.tsx, the package in dependencies and the four names in a new .env.example', () => {
    const dir = appRouter();
    const { code, printed, refused } = run(dir);
    expect(code).toBe(0);
    expect(refused).toEqual([]);
    const layout = read(dir, 'app/layout.tsx');
    expect(layout).toContain("import './globals.css';\nimport { LifelineTag } from '@lifeline/sdk/react';\n");
    expect(layout).toContain('        {children}\n        <LifelineTag />\n      </body>');
    const pkg = JSON.parse(read(dir, 'package.json'));
    expect(pkg).toEqual({ ...PACKAGE, dependencies: { ...PACKAGE.dependencies, '@lifeline/sdk': `^${VERSION}` } });
    expect(read(dir, 'package.json')).toMatch(/^\{\n {2}"name"/);
    expect(
      read(dir, '.env.example')
        .split('\n')
        .filter((l) => l.includes('=')),
    ).toEqual(ENV_NAMES.map((n) => `${n}=`));
    expect(printed).toEqual([
      'Added <LifelineTag /> to app/layout.tsx.',
      `Added @lifeline/sdk ^${VERSION} to the dependencies in package.json.`,
      'Created .env.example: LIFELINE_SECRET_KEY, NEXT_PUBLIC_LIFELINE_KEY, LIFELINE_URL, NEXT_PUBLIC_LIFELINE_URL.',
      'Now run npm install to fetch @lifeline/sdk; setup runs nothing itself.',
      'Then put your keys in .env.local under the names listed in .env.example.',
    ]);
  });

  it('a second run says everything is already in and changes nothing', () => {
    const dir = appRouter();
    expect(run(dir).code).toBe(0);
    const before = snapshot(dir);
    const second = run(dir);
    expect(second.code).toBe(0);
    expect(second.printed[second.printed.length - 1]).toBe('Lifeline is already in this project: nothing to change.');
    expect(second.printed).toContain('LifelineTag is already in app/layout.tsx.');
    expect(snapshot(dir)).toEqual(before);
  });

  it('src/app/layout.jsx is found too, and a body on one line takes the tag inline', () => {
    const dir = project({
      'package.json': JSON.stringify({ devDependencies: { next: '15.0.0' } }),
      'src/app/layout.jsx':
        'export default function L({ children }) {\n  return <html><body>{children}</body></html>;\n}\n',
    });
    expect(run(dir).code).toBe(0);
    expect(read(dir, 'src/app/layout.jsx')).toBe(
      "import { LifelineTag } from '@lifeline/sdk/react';\n\nexport default function L({ children }) {\n  return <html><body>{children}<LifelineTag /></body></html>;\n}\n",
    );
  });

  it("prints the install command of the project's package manager", () => {
    const dir = appRouter();
    fs.writeFileSync(path.join(dir, 'pnpm-lock.yaml'), 'lockfileVersion: 9\n');
    expect(run(dir).printed).toContain('Now run pnpm install to fetch @lifeline/sdk; setup runs nothing itself.');
  });
});

describe('a pages router project', () => {
  it("gets the tag beside the page in pages/_app.tsx, keeping package.json's four-space indent", () => {
    const dir = pagesRouter();
    const { code, printed } = run(dir);
    expect(code).toBe(0);
    expect(read(dir, 'pages/_app.tsx')).toBe(
      "import '@/styles/globals.css';\nimport type { AppProps } from 'next/app';\nimport { LifelineTag } from '@lifeline/sdk/react';\n\nexport default function App({ Component, pageProps }: AppProps) {\n  return <><Component {...pageProps} /><LifelineTag /></>;\n}\n",
    );
    expect(read(dir, 'package.json')).toMatch(/^\{\n {4}"name"/);
    expect(printed[0]).toBe('Added <LifelineTag /> to pages/_app.tsx.');
  });

  it('without a pages/_app, one is created', () => {
    const dir = project({ 'package.json': JSON.stringify(PACKAGE), 'pages/index.jsx': 'export default () => null;\n' });
    expect(run(dir).code).toBe(0);
    expect(read(dir, 'pages/_app.jsx')).toContain('<LifelineTag />');
    expect(read(dir, 'pages/_app.jsx')).not.toContain('AppProps');
  });
});

describe('refusals: exit 1, one sentence each, nothing written', () => {
  function refusedUnchanged(dir: string, args: string[] = []) {
    const before = snapshot(dir);
    const result = run(dir, ...args);
    expect(result.code).toBe(1);
    expect(result.printed).toEqual([]);
    expect(result.refused[result.refused.length - 1]).toBe('Nothing was written.');
    expect(snapshot(dir)).toEqual(before);
    return result.refused;
  }

  it('a project without next', () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'api', dependencies: { express: '5.0.0' } }),
      'app/layout.tsx': LAYOUT,
    });
    expect(refusedUnchanged(dir)[0]).toBe(
      'Refused: This project has no next in its package.json: setup is for Next.js projects; elsewhere, follow the package README by hand.',
    );
  });

  it('a folder without package.json', () => {
    const dir = project({ 'README.md': 'hello\n' });
    expect(refusedUnchanged(dir)[0]).toMatch(/^Refused: There is no package.json in .*pass --cwd DIR\.$/);
  });

  it('a Next.js project with neither app/layout nor pages', () => {
    const dir = project({ 'package.json': JSON.stringify(PACKAGE) });
    expect(refusedUnchanged(dir)[0]).toMatch(/Found neither app\/layout\.tsx .* nor a pages folder/);
  });

  it('a layout without </body>: nothing else is written either', () => {
    const dir = project({
      'package.json': JSON.stringify(PACKAGE),
      'app/layout.tsx': 'export default function L({ children }) { return children; }\n',
    });
    expect(refusedUnchanged(dir)[0]).toMatch(/app\/layout\.tsx has no <\/body>: put <LifelineTag \/> inside/);
  });

  it('a file that cannot be written: what was written before it is put back', () => {
    const dir = appRouter();
    // A link into a folder that does not exist: it reads as absent, and writing through it fails.
    fs.symlinkSync(path.join(dir, 'missing', 'env'), path.join(dir, '.env.example'));
    const refused = refusedUnchanged(dir).filter((l) => l !== 'Nothing was written.');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatch(/^Refused: Cannot write \.env\.example \(.*\): fix it, then run setup again\.$/);
  });

  it('a file that cannot be read', () => {
    const dir = appRouter();
    fs.mkdirSync(path.join(dir, '.env.example'));
    expect(refusedUnchanged(dir)[0]).toMatch(/^Refused: Cannot read \.env\.example/);
  });

  it('an unknown option, and no command', () => {
    const dir = appRouter();
    expect(refusedUnchanged(dir, ['--force'])[0]).toMatch(/unknown option --force\. Usage: npx @lifeline\/sdk setup/);
    const none = runSetup([], { cwd: dir, print: () => undefined, refuse: () => undefined });
    expect(none).toBe(1);
  });
});

describe('values already set are never overwritten', () => {
  it('names already in .env.example keep their lines and values; only the missing ones are appended', () => {
    const env =
      '# mine\nDATABASE_URL=postgres://x\nNEXT_PUBLIC_LIFELINE_URL=https://lifeline.acme.test\nexport LIFELINE_SECRET_KEY=sk_live_placeholder';
    const dir = appRouter();
    fs.writeFileSync(path.join(dir, '.env.example'), env);
    const { code, printed } = run(dir);
    expect(code).toBe(0);
    const text = read(dir, '.env.example');
    expect(text.startsWith(`${env}\n\n# Lifeline`)).toBe(true);
    expect(text.split('\n').filter((l) => /LIFELINE/.test(l) && l.includes('='))).toEqual([
      'NEXT_PUBLIC_LIFELINE_URL=https://lifeline.acme.test',
      'export LIFELINE_SECRET_KEY=sk_live_placeholder',
      'NEXT_PUBLIC_LIFELINE_KEY=',
      'LIFELINE_URL=',
    ]);
    expect(printed).toContain(
      'LIFELINE_SECRET_KEY, NEXT_PUBLIC_LIFELINE_URL are already in .env.example and kept as written.',
    );
    expect(printed).toContain('Appended to .env.example: NEXT_PUBLIC_LIFELINE_KEY, LIFELINE_URL.');
  });

  it('a package already in dependencies keeps its version', () => {
    const dir = project({
      'package.json': JSON.stringify({ dependencies: { next: '14.0.0', '@lifeline/sdk': '0.1.0' } }),
      'app/layout.tsx': LAYOUT,
    });
    const { printed } = run(dir);
    expect(JSON.parse(read(dir, 'package.json')).dependencies['@lifeline/sdk']).toBe('0.1.0');
    expect(printed).toContain('@lifeline/sdk is already in the dependencies in package.json.');
    expect(printed.some((l) => l.startsWith('Now run'))).toBe(false);
  });
});

describe('--dry-run', () => {
  it('prints the changes and makes none', () => {
    const dir = appRouter();
    const before = snapshot(dir);
    const { code, printed } = run(dir, '--dry-run');
    expect(code).toBe(0);
    expect(printed).toEqual([
      'Would do: Added <LifelineTag /> to app/layout.tsx.',
      `Would do: Added @lifeline/sdk ^${VERSION} to the dependencies in package.json.`,
      'Would do: Created .env.example: LIFELINE_SECRET_KEY, NEXT_PUBLIC_LIFELINE_KEY, LIFELINE_URL, NEXT_PUBLIC_LIFELINE_URL.',
      'Dry run: nothing was written.',
    ]);
    expect(snapshot(dir)).toEqual(before);
  });
});

describe('version', () => {
  it("the setup command's version constant equals the package version", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
    expect(pkg.version).toBe(VERSION);
    expect(VERSION).toBe('0.2.0');
    const printed: string[] = [];
    expect(runSetup(['--version'], { cwd: '/', print: (l) => printed.push(l), refuse: () => undefined })).toBe(0);
    expect(printed).toEqual([VERSION]);
  });
});
