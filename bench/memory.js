#!/usr/bin/env node
// npm run bench:memory — resident memory (RSS, /proc) of each process of `npm start`
// (development: npm, its sh, the launcher, the api, the worker) and of `npm run start:prod` (NODE_ENV=
// production, dist/ as built), summed per process, at rest (BENCH_REST_SECONDS, 30, after the start, and
// again at BENCH_SETTLED_SECONDS, 90: V8's memory reducer gives back the young generation the start-up
// grew only after some idle time, sooner or later) and under load (the peak while 8 lanes post batches
// of 100 events for BENCH_LOAD_SECONDS, 10). Each round
// starts every tree on a fresh database (local PostgreSQL and Redis on their default ports). The baseline,
// in the same run: BENCH_BASE=<another checkout with its dist/ and dist/console built> (e.g. a worktree of
// the commit before) measured the same way, interleaved round by round; and an idle `node` (one
// setInterval), the floor of any Node process. BENCH_ROUNDS (3) rounds; BENCH_ONLY=dev|prod.
// Needs `npm run build` (or node scripts/build.js && node scripts/build-console.js) in each checkout.
const { spawn, spawnSync } = require('node:child_process');
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const { loadavg } = require('node:os');
const { join, resolve } = require('node:path');

const ROOT = resolve(__dirname, '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const REST_SECONDS = Number(process.env.BENCH_REST_SECONDS || 30);
const SETTLED_SECONDS = Number(process.env.BENCH_SETTLED_SECONDS || 90);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS || 10);
const ADMIN_TOKEN = 'bench-admin-token-0123456789';
const MODES = { dev: ['npm', ['start']], prod: ['npm', ['run', 'start:prod']] };
const ROLES = ['npm', 'launcher', 'api', 'worker', 'other'];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

function read(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** RSS in MB of one process (0 once it is gone). */
const rss = (pid) => Number(/VmRSS:\s+(\d+)/.exec(read(`/proc/${pid}/status`))?.[1] ?? 0) / 1024;
const cmdline = (pid) => read(`/proc/${pid}/cmdline`).replace(/\0/g, ' ');

/** The process and all its descendants, from /proc's parent links. */
function tree(top) {
  const parents = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const ppid = Number(/^PPid:\s+(\d+)/m.exec(read(`/proc/${name}/status`))?.[1]);
    if (ppid) parents.set(Number(name), ppid);
  }
  const found = [top];
  for (let i = 0; i < found.length; i++) for (const [pid, ppid] of parents) if (ppid === found[i]) found.push(pid);
  return found;
}

/** Who a process of the tree is: npm (npm and the sh it runs the script in), the launcher, an app. */
function role(pid, top) {
  const cmd = cmdline(pid);
  if (pid === top || /^(\/bin\/)?sh -c/.test(cmd)) return 'npm';
  if (/apps\/api\/src\/main/.test(cmd)) return 'api';
  if (/apps\/worker\/src\/main/.test(cmd)) return 'worker';
  if (/scripts\/start\.js|apps\/launcher\/src\/main/.test(cmd)) return 'launcher';
  return 'other';
}

/** MB of RSS by role, the tree summed. */
function sample(top) {
  const by = Object.fromEntries(ROLES.map((r) => [r, 0]));
  for (const pid of tree(top)) by[role(pid, top)] += rss(pid);
  by.total = ROLES.reduce((sum, r) => sum + by[r], 0);
  return by;
}

async function post(url, path, body, key) {
  const answer = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  const text = await answer.text();
  if (!answer.ok && answer.status !== 207) throw new Error(`${path} answered ${answer.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** A workspace with `n` secret keys (each may post 600 times in ten minutes). */
async function keys(url, n) {
  const gql = async (query, variables, key) => {
    const body = await post(url, '/graphql', { query, variables }, key);
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data;
  };
  const made = await gql(
    'mutation($i: CreateWorkspaceInput!) { createWorkspace(input: $i) { secretKey } }',
    { i: { slug: 'bench-memory', owner: 'owner@memory.test' } },
    ADMIN_TOKEN,
  );
  const secrets = [made.createWorkspace.secretKey];
  for (let i = 1; i < n; i++)
    secrets.push(
      (
        await gql(
          'mutation($m: String!) { createKey(member: $m) { secretKey } }',
          { m: `m${i}@memory.test` },
          secrets[0],
        )
      ).createKey.secretKey,
    );
  return secrets;
}

/** One tree: started, at rest, under load, stopped. Figures in MB by role. */
async function measure(checkout, mode, round) {
  const database = `lifeline_bench_memory_${process.pid}_${round}`;
  spawnSync('dropdb', ['-h', '127.0.0.1', '-U', 'postgres', '--if-exists', database]);
  const port = 24000 + (process.pid % 1000) * 3 + (round % 3);
  const url = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    NODE_ENV: mode === 'prod' ? 'production' : 'development',
    DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${database}`,
    REDIS_PREFIX: `bench:${database}:${Date.now()}`,
    APP_SECRET: 'bench-memory-secret-0123456789-0123456789',
    ADMIN_TOKEN,
    PORT: String(port),
    BASE_URL: url,
    LOG_LEVEL: 'warn',
  };
  const [command, args] = MODES[mode];
  const child = spawn(command, args, { cwd: checkout, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  try {
    for (let i = 0; !(output.includes('worker started\n') && output.includes('api listening')); i++) {
      if (i > 1200 || child.exitCode !== null) throw new Error(`${checkout} ${mode} did not start:\n${output}`);
      await sleep(100);
    }
    await sleep(REST_SECONDS * 1000);
    const rest = sample(child.pid);
    await sleep(Math.max(0, SETTLED_SECONDS - REST_SECONDS) * 1000);
    const settled = sample(child.pid);
    const secrets = await keys(url, 6);
    let turn = 0;
    const peak = Object.fromEntries([...ROLES, 'total'].map((r) => [r, 0]));
    const until = Date.now() + LOAD_SECONDS * 1000;
    const lane = async () => {
      while (Date.now() < until) {
        const events = Array.from({ length: 100 }, (_, i) => ({
          type: 'pageview',
          email: `p${(turn * 100 + i) % 5000}@memory.test`,
          properties: { n: i },
        }));
        await post(url, '/api/v1/events', { events }, secrets[turn++ % secrets.length]);
      }
    };
    const sampler = setInterval(() => {
      const now = sample(child.pid);
      for (const r of Object.keys(peak)) peak[r] = Math.max(peak[r], now[r]);
    }, 500);
    await Promise.all(Array.from({ length: 8 }, lane));
    clearInterval(sampler);
    return { rest, settled, peak, batches: turn };
  } finally {
    const pids = tree(child.pid);
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    for (let i = 0; i < 150 && pids.some((pid) => rss(pid) > 0); i++) await sleep(100);
    for (const pid of pids) if (rss(pid) > 0) process.kill(pid, 'SIGKILL');
    spawnSync('dropdb', ['-h', '127.0.0.1', '-U', 'postgres', '--if-exists', database]);
  }
}

/** RSS of an idle `node` after REST_SECONDS: the floor of any Node process. */
async function idleNode() {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  await sleep(Math.min(REST_SECONDS, 5) * 1000);
  const mb = rss(child.pid);
  child.kill();
  return mb;
}

const fmt = (x) => String(Math.round(x));

async function main() {
  const base = process.env.BENCH_BASE ? resolve(process.env.BENCH_BASE) : null;
  const checkouts = base ? { base, this: ROOT } : { this: ROOT };
  const modes = process.env.BENCH_ONLY ? [process.env.BENCH_ONLY] : Object.keys(MODES);
  for (const dir of Object.values(checkouts)) {
    if (!existsSync(join(dir, 'dist/apps/launcher/src/main.js')) || !existsSync(join(dir, 'dist/console')))
      throw new Error(`${dir}: build dist/ first (npm run build)`);
  }
  const commit = (dir) =>
    spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: dir, encoding: 'utf8' }).stdout.trim();
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], {
    cwd: ROOT,
    encoding: 'utf8',
  }).stdout.trim()
    ? ' (working tree)'
    : '';
  const started = { at: new Date().toISOString().slice(0, 16).replace('T', ' '), load: load() };
  const results = {}; // `${name} ${mode}` -> [{ rest, peak }]
  const idle = [];
  for (let round = 0; round < ROUNDS; round++) {
    idle.push(await idleNode());
    for (const mode of modes) {
      // Interleaved, the order turned each round, so a noisy moment does not fall on one side.
      const names = Object.keys(checkouts);
      for (const name of round % 2 ? [...names].reverse() : names) {
        const r = await measure(checkouts[name], mode, round);
        (results[`${name} ${mode}`] ??= []).push(r);
        const at = (when) => `${ROLES.map((x) => `${x} ${fmt(when[x])}`).join(', ')} = ${fmt(when.total)} MB`;
        console.error(
          `round ${round + 1} ${name} ${mode}: ${REST_SECONDS} s: ${at(r.rest)}; ${SETTLED_SECONDS} s: ${at(r.settled)}; load peak ${fmt(r.peak.total)} MB (${r.batches} batches)`,
        );
      }
    }
  }
  const lines = [
    `\`npm run bench:memory\` (BENCH_BASE=${base ? 'a worktree of ' + commit(base) : 'unset'}): ${started.at} UTC, this checkout ${commit(ROOT)}${dirty}; load ${started.load} → ${load()}.`,
    `Medians of ${ROUNDS} rounds, RSS in MB summed per process (shared pages such as node's own code count in each), each cell at rest ${REST_SECONDS} s /`,
    `${SETTLED_SECONDS} s after the start; under load: the peak while 8 lanes post batches of 100 events for ${LOAD_SECONDS} s (after the ${SETTLED_SECONDS} s).`,
    `Idle \`node -e "setInterval(…)"\`: ${fmt(median(idle))} MB (any Node process's floor).`,
    '',
    '| tree | npm + sh | launcher | api | worker | total at rest | api + worker at rest | total under load | api + worker under load |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const [key, rs] of Object.entries(results)) {
    const m = (pick) => fmt(median(rs.map(pick)));
    const both = (pick) => `${m((r) => pick(r.rest))} / ${m((r) => pick(r.settled))}`;
    lines.push(
      `| ${key} | ${both((x) => x.npm)} | ${both((x) => x.launcher)} | ${both((x) => x.api)} | ${both((x) => x.worker)} | ${both((x) => x.total)} | ` +
        `${both((x) => x.api + x.worker)} | ${m((r) => r.peak.total)} | ${m((r) => r.peak.api + r.peak.worker)} |`,
    );
  }
  if (base) {
    for (const mode of modes) {
      const ratio = (pick) =>
        (median(results[`this ${mode}`].map(pick)) / median(results[`base ${mode}`].map(pick))).toFixed(2);
      lines.push(
        '',
        `${mode}, this / base: total at rest ${ratio((r) => r.rest.total)} / ${ratio((r) => r.settled.total)}, launcher ${ratio((r) => r.settled.launcher)}, ` +
          `api ${ratio((r) => r.rest.api)} / ${ratio((r) => r.settled.api)}, worker ${ratio((r) => r.rest.worker)} / ${ratio((r) => r.settled.worker)}, total under load ${ratio((r) => r.peak.total)}.`,
      );
    }
  }
  console.log(lines.join('\n'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
