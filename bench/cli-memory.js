#!/usr/bin/env node
// Figures of the CLI: its time a call (wall and CPU, medians; `node -e 0` measured in the same run
// as the baseline; with BENCH_BEFORE=<an older checkout with its dist/ built> its CLI too), and the idle
// memory of the api and worker of `npm run start:prod`. Needs `npm run build` first and PostgreSQL/Redis
// on their default ports. BENCH_RUNS (5) calls of each; BENCH_NO_IDLE=1 skips the memory part.
// node bench/cli-memory.js
const { execFileSync, spawn, spawnSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const database = `lifeline_bench_cli_${process.pid}`;
const env = {
  ...process.env,
  DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${database}`,
  REDIS_PREFIX: `bench:${database}`,
  APP_SECRET: 'bench-secret-0123456789-0123456789-abc',
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function timed(args, runs) {
  const wall = [];
  const cpu = [];
  const peak = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    const [command, ...rest] = args[0] === 'npm' ? args : [process.execPath, ...args];
    const r = spawnSync('/usr/bin/time', ['-f', '%U %S %M', command, ...rest], { cwd: root, env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stdout}${r.stderr}`);
    wall.push(Number(process.hrtime.bigint() - started) / 1e6);
    const [u, s, kb] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
    cpu.push((u + s) * 1000);
    peak.push(kb / 1024);
  }
  return { wall: Math.round(median(wall)), cpu: Math.round(median(cpu)), rss: Math.round(median(peak)) };
}

const rss = (pid) => Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) / 1024;

async function main() {
  execFileSync(process.execPath, ['dist/apps/api/src/migrate.js'], { cwd: root, env });
  execFileSync(
    process.execPath,
    ['dist/apps/api/src/cli.js', 'workspace', 'create', '--slug', 'bench', '--owner', 'o@bench.test'],
    { cwd: root, env },
  );
  const runs = Number(process.env.BENCH_RUNS || 5);
  const line = (name, t) =>
    console.log(
      `${name.padEnd(44)} ${String(t.wall).padStart(5)} ms wall ${String(t.cpu).padStart(5)} ms CPU ${String(t.rss).padStart(4)} MB peak RSS`,
    );
  console.log(
    `median of ${runs} calls each; load average at start: ${require('node:os')
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`,
  );
  line('node -e 0 (baseline)', timed(['-e', '0'], runs));
  const calls = {
    '--help': ['--help'],
    'workspace list': ['workspace', 'list'],
    'key list': ['key', 'list', '--workspace', 'bench'],
  };
  for (const [name, args] of Object.entries(calls)) {
    line(`prod: node dist/…/cli.js ${name}`, timed(['dist/apps/api/src/cli.js', ...args], runs));
    line(`dev: node scripts/run.js … ${name}`, timed(['scripts/run.js', 'apps/api/src/cli', ...args], runs));
    line(`dev: npm run -s cli -- ${name}`, timed(['npm', 'run', '-s', 'cli', '--', ...args], runs));
  }
  if (process.env.BENCH_BEFORE)
    line(
      `before: ${process.env.BENCH_BEFORE} workspace list`,
      timed([join(process.env.BENCH_BEFORE, 'dist/apps/api/src/cli.js'), 'workspace', 'list'], runs),
    );
  console.log(
    `load average at end: ${require('node:os')
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`,
  );
  if (process.env.BENCH_NO_IDLE) return drop();

  const launcher = spawn(process.execPath, ['dist/apps/launcher/src/main.js'], {
    cwd: root,
    env: { ...env, PORT: '3995', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  launcher.stdout.on('data', (c) => (out += c));
  while (!(
    /api started \(pid (\d+)\)/.test(out) &&
    /worker started \(pid (\d+)\)/.test(out) &&
    out.includes('listening')
  ))
    await new Promise((r) => setTimeout(r, 500));
  await new Promise((r) => setTimeout(r, 30_000)); // idle
  const api = Number(out.match(/api started \(pid (\d+)\)/)[1]);
  const worker = Number(out.match(/worker started \(pid (\d+)\)/)[1]);
  console.log(
    `idle after 30 s: api ${Math.round(rss(api))} MB RSS, worker ${Math.round(rss(worker))} MB RSS, launcher ${Math.round(rss(launcher.pid))} MB RSS`,
  );
  launcher.kill('SIGTERM');
  await new Promise((r) => launcher.on('exit', r));
  drop();
}

function drop() {
  spawnSync('dropdb', ['-h', '127.0.0.1', '-U', 'postgres', '--if-exists', database]);
}

void main();
