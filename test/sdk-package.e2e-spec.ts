// The published shape of @lifeline/sdk: `npm pack` (which builds it, via prepack) installs offline
// into a scratch project outside the monorepo, and there `import`, `require`, the types and the
// setup bin all work, with no import reaching outside the package.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SDK = path.join(__dirname, '..', 'libs', 'sdk');
const KEY = 'sk_live_0123456789abcdefghijklmnopqrstuv';
const VERSION = JSON.parse(fs.readFileSync(path.join(SDK, 'package.json'), 'utf8')).version as string;

let scratch: string;
let packed: string[];
let server: Server;
let url: string;
const received: Array<{ path: string; authorization?: string; body: unknown }> = [];

const node = (args: string[]) => run(process.execPath, args, { cwd: scratch, env: { ...process.env, NODE_PATH: '' } });
const npm = (args: string[], cwd: string) =>
  run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });

beforeAll(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeline-sdk-scratch-'));
  const { stdout } = await npm(['pack', '--json', '--pack-destination', scratch], SDK);
  const [info] = JSON.parse(stdout.slice(stdout.indexOf('[')));
  packed = info.files.map((f: { path: string }) => f.path);
  fs.writeFileSync(
    path.join(scratch, 'package.json'),
    JSON.stringify({ name: 'scratch', version: '1.0.0', private: true }),
  );
  await npm(['install', '--offline', path.join(scratch, info.filename)], scratch);

  // A stand-in service answering like the events endpoint, so the installed client is seen to post.
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        authorization: req.headers.authorization,
        body: body ? JSON.parse(body) : undefined,
      });
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ ok: true, status: 'recorded', id: 'per_1' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 300_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

it('the scratch project is outside the monorepo, and the package installed with nothing beside it', () => {
  expect(path.relative(path.join(__dirname, '..'), scratch).startsWith('..')).toBe(true);
  expect(fs.readdirSync(path.join(scratch, 'node_modules')).filter((d) => !d.startsWith('.'))).toEqual(['@lifeline']);
});

it('the tarball holds the built package and its README, with no sources or specs', () => {
  expect(packed).toEqual(
    expect.arrayContaining([
      'package.json',
      'README.md',
      'dist/cjs/sdk/src/index.js',
      'dist/esm/sdk/src/index.js',
      'dist/cjs/sdk/src/index.d.ts',
      'dist/esm/sdk/src/react.js',
      'dist/cjs/wire/src/index.js',
    ]),
  );
  expect(packed.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
  expect(packed.filter((f) => /spec|testing/.test(f))).toEqual([]);
});

it('no import in the package reaches outside it: only its own files, react and node: built-ins', () => {
  const root = path.join(scratch, 'node_modules', '@lifeline', 'sdk');
  const outside: string[] = [];
  for (const file of packed.filter((f) => f.endsWith('.js'))) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    // tsc writes specifiers in double quotes; the package's own strings and comments use single quotes.
    const specs = [...text.matchAll(/\brequire\("([^"]+)"\)|^(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"/gm)].map(
      (m) => m[1] ?? m[2],
    );
    for (const spec of specs) {
      if (spec.startsWith('.')) {
        const target = path.resolve(path.dirname(path.join(root, file)), spec);
        if (!target.startsWith(root + path.sep) || !fs.existsSync(target)) outside.push(`${file}: ${spec}`);
      } else if (spec !== 'react' && !spec.startsWith('node:')) outside.push(`${file}: ${spec}`);
    }
  }
  expect(outside).toEqual([]);
});

it('require works, and the client posts with the secret key', async () => {
  const script = `const { Lifeline, VERSION } = require('@lifeline/sdk');
    new Lifeline('${KEY}', { url: '${url}' }).track('signup', { email: 'ada@example.com', anonId: 'x' })
      .then((answer) => console.log(JSON.stringify({ VERSION, answer })));`;
  const { stdout } = await node(['-e', script]);
  expect(JSON.parse(stdout)).toEqual({ VERSION, answer: { ok: true, status: 'recorded', id: 'per_1' } });
  expect(received.pop()).toEqual({
    path: '/api/v1/events',
    authorization: `Bearer ${KEY}`,
    body: { type: 'signup', email: 'ada@example.com', anon_id: 'x' },
  });
});

it('import works the same', async () => {
  const script = `import { Lifeline, VERSION } from '@lifeline/sdk';
    const answer = await new Lifeline('${KEY}', { url: '${url}' }).identify({ accountId: 'u-1' });
    console.log(JSON.stringify({ VERSION, answer }));`;
  const { stdout } = await node(['--input-type=module', '-e', script]);
  expect(JSON.parse(stdout)).toEqual({ VERSION, answer: { ok: true, status: 'recorded', id: 'per_1' } });
  expect(received.pop()?.body).toEqual({ type: 'identify', account_id: 'u-1' });
});

it('both forms refuse a public key at construction, by name', async () => {
  const cjs = node(['-e', `new (require('@lifeline/sdk').Lifeline)('wk_abc')`]);
  await expect(cjs).rejects.toMatchObject({ stderr: expect.stringContaining('public keys belong in the website tag') });
  const esm = node(['--input-type=module', '-e', `import { Lifeline } from '@lifeline/sdk'; new Lifeline('wk_abc');`]);
  await expect(esm).rejects.toMatchObject({ stderr: expect.stringContaining('public keys belong in the website tag') });
});

it('@lifeline/sdk/react resolves for both import and require', async () => {
  const { stdout: cjs } = await node(['-e', `console.log(require.resolve('@lifeline/sdk/react'))`]);
  expect(cjs.trim()).toMatch(/dist\/cjs\/sdk\/src\/react\.js$/);
  const { stdout: esm } = await node([
    '--input-type=module',
    '-e',
    `console.log(import.meta.resolve('@lifeline/sdk/react'))`,
  ]);
  expect(esm.trim()).toMatch(/dist\/esm\/sdk\/src\/react\.js$/);
});

it('the types resolve for ESM and CommonJS consumers', async () => {
  fs.writeFileSync(
    path.join(scratch, 'esm.mts'),
    `import { Lifeline, type TrackOutcome, type LifelineRefusal } from '@lifeline/sdk';
const answer: Promise<TrackOutcome> = new Lifeline('${KEY}').track('signup', { email: 'a@example.com', occurredAt: new Date() });
answer.then((a) => { if (!a.ok) { const r: LifelineRefusal = a; console.log(r.httpStatus); } else console.log(a.status); });
`,
  );
  fs.writeFileSync(
    path.join(scratch, 'cjs.cts'),
    `import sdk = require('@lifeline/sdk');
const page: Promise<sdk.PageOutcome> = new sdk.Lifeline('${KEY}').messages.list({ limit: 5 });
// @ts-expect-error: expiresAt is not an option of identify
new sdk.Lifeline('${KEY}').identify({ email: 'a@example.com', expiresAt: new Date() });
`,
  );
  const tsc = require.resolve('typescript/bin/tsc');
  const compilerOptions = {
    noEmit: true,
    strict: true,
    module: 'node16',
    moduleResolution: 'node16',
    target: 'es2022',
    lib: ['es2022', 'dom'],
    types: [],
  };
  fs.writeFileSync(
    path.join(scratch, 'tsconfig.json'),
    JSON.stringify({ compilerOptions, files: ['esm.mts', 'cjs.cts'] }),
  );
  const errors = await node([tsc, '-p', 'tsconfig.json']).then(
    ({ stdout }) => stdout,
    (error: { stdout: string }) => error.stdout,
  );
  expect(errors).toBe('');
}, 120_000);

it('the setup bin runs from the installed package', async () => {
  const bin = path.join(scratch, 'node_modules', '.bin', 'lifeline-sdk');
  const { stdout } = await run(bin, ['--version'], { cwd: scratch });
  expect(stdout.trim()).toBe(VERSION);
  const site = fs.mkdtempSync(path.join(scratch, 'site-'));
  fs.writeFileSync(path.join(site, 'package.json'), JSON.stringify({ dependencies: { next: '14.2.3' } }));
  fs.mkdirSync(path.join(site, 'app'));
  fs.writeFileSync(
    path.join(site, 'app', 'layout.jsx'),
    'export default function L({ children }) { return <html><body>{children}</body></html>; }\n',
  );
  const dry = await run(bin, ['setup', '--dry-run', '--cwd', site], { cwd: scratch });
  expect(dry.stdout).toContain('Would do: Added <LifelineTag /> to app/layout.jsx.');
  expect(fs.existsSync(path.join(site, '.env.example'))).toBe(false);
});
