#!/usr/bin/env node
// Issue 16 figures: the CLI's time a call (compiled, against the old per-call TypeScript compile and
// a bare `node -e 0` measured in the same run), and the idle memory of the api and worker of
// `npm run start:prod`. Needs `npm run build` first and PostgreSQL/Redis on their default ports.
// node bench/cli-memory.js
const { execFileSync, spawn, spawnSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const database = `lifeline_bench_cli_${process.pid}`;
const env = { ...process.env, DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${database}`, REDIS_PREFIX: `bench:${database}`, APP_SECRET: 'bench-secret-0123456789-0123456789-abc' };
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function timed(args, runs) {
  const wall = [];
  const cpu = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    const r = spawnSync('/usr/bin/time', ['-f', '%U %S', process.execPath, ...args], { cwd: root, env, encoding: 'utf8' });
    wall.push(Number(process.hrtime.bigint() - started) / 1e6);
    const [u, s] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
    cpu.push((u + s) * 1000);
  }
  return { wall: Math.round(median(wall)), cpu: Math.round(median(cpu)) };
}

const rss = (pid) => Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) / 1024;

async function main() {
  execFileSync(process.execPath, ['dist/apps/api/src/migrate.js'], { cwd: root, env });
  const runs = Number(process.env.BENCH_RUNS || 5);
  const line = (name, t) => console.log(`${name.padEnd(34)} ${t.wall} ms wall, ${t.cpu} ms CPU (median of ${runs})`);
  line('node -e 0', timed(['-e', '0'], runs));
  line('CLI compiled (dist)', timed(['dist/apps/api/src/cli.js', 'workspace', 'list'], runs));
  line('CLI via npm run cli (run.js)', timed(['scripts/run.js', 'apps/api/src/cli', 'workspace', 'list'], runs));
  line('CLI compiled at each call (old)', timed(['-r', '@swc-node/register', 'apps/api/src/cli.ts', 'workspace', 'list'], runs));

  const launcher = spawn(process.execPath, ['dist/libs/core/src/runtime/launcher.js'], { cwd: root, env: { ...env, PORT: '3995', LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  launcher.stdout.on('data', (c) => (out += c));
  while (!(/api started \(pid (\d+)\)/.test(out) && /worker started \(pid (\d+)\)/.test(out) && out.includes('listening'))) await new Promise((r) => setTimeout(r, 500));
  await new Promise((r) => setTimeout(r, 30_000)); // idle
  const api = Number(out.match(/api started \(pid (\d+)\)/)[1]);
  const worker = Number(out.match(/worker started \(pid (\d+)\)/)[1]);
  console.log(`idle after 30 s: api ${Math.round(rss(api))} MB RSS, worker ${Math.round(rss(worker))} MB RSS, launcher ${Math.round(rss(launcher.pid))} MB RSS`);
  launcher.kill('SIGTERM');
  await new Promise((r) => launcher.on('exit', r));
  spawnSync('dropdb', ['-h', '127.0.0.1', '-U', 'postgres', '--if-exists', database]);
}

void main();
