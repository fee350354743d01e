#!/usr/bin/env node
// The admin console (apps/console) to static files in dist/console, which the api serves at /console.
// Steps: the GraphQL types from schema.graphql (gql-tada generate output), every document checked
// against the schema (gql-tada check) and the code type checked (tsc), then Vite's build. The inputs'
// hash is kept in dist/console/.inputs, so `--if-stale` (npm start, the test set-up) builds only when
// apps/console, schema.graphql or the lock changed. Built beside and renamed into place, so an api
// serving the old build meanwhile never reads half of the new one. Each script, style and SVG is also
// written compressed beside itself (name.br at brotli's best, name.gz at gzip's), once, here: the api
// sends the copy a browser accepts as it is.
const { spawnSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');
const { brotliCompressSync, constants: zlib, gzipSync } = require('node:zlib');

const root = join(__dirname, '..');
const app = join(root, 'apps', 'console');
const out = join(root, 'dist', 'console');
const STAMP = '.inputs';

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.name !== 'graphql-env.d.ts') yield path;
  }
}

/** A hash of everything the build reads: a change to any of them makes the build stale. */
function inputsHash() {
  const hash = createHash('sha256');
  for (const path of [...files(app), join(root, 'schema.graphql'), join(root, 'package-lock.json')]) {
    hash.update(relative(root, path)).update('\0').update(readFileSync(path)).update('\0');
  }
  return hash.digest('hex');
}

function isStale(hash = inputsHash()) {
  const stamp = join(out, STAMP);
  return !existsSync(stamp) || readFileSync(stamp, 'utf8').trim() !== hash;
}

function run(command, args) {
  const result = spawnSync(join(root, 'node_modules', '.bin', command), args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
}

async function build({ checks = true } = {}) {
  const hash = inputsHash();
  const tsconfig = join('apps', 'console', 'tsconfig.json');
  run('gql-tada', ['generate', 'output', '--tsconfig', tsconfig]);
  if (checks) {
    run('gql-tada', ['check', '--tsconfig', tsconfig, '--level', 'warn']);
    run('tsc', ['-p', tsconfig]);
  }
  const temporary = `${out}.${process.pid}.tmp`;
  // Vite takes the bundle's NODE_ENV from the environment: under jest (test) or npm start (development)
  // it would ship React's development build, three times the size and slower.
  process.env.NODE_ENV = 'production';
  const { build: viteBuild } = await import('vite');
  await viteBuild({ configFile: join(app, 'vite.config.mts'), build: { outDir: temporary } });
  compressAssets(join(temporary, 'assets'));
  writeFileSync(join(temporary, STAMP), `${hash}\n`);
  swapInto(temporary);
}

/** name.br and name.gz beside each script, style and SVG. */
function compressAssets(dir) {
  for (const name of readdirSync(dir)) {
    if (!/\.(js|css|svg)$/.test(name)) continue;
    const path = join(dir, name);
    const raw = readFileSync(path);
    const params = { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length };
    writeFileSync(`${path}.br`, brotliCompressSync(raw, { params }));
    writeFileSync(`${path}.gz`, gzipSync(raw, { level: zlib.Z_BEST_COMPRESSION }));
  }
}

/** The new build in place of the old; another build swapping at the same moment is waited for. */
function swapInto(temporary) {
  const old = `${out}.${process.pid}.old`;
  for (let attempt = 0; ; attempt++) {
    try {
      if (existsSync(out)) renameSync(out, old);
      renameSync(temporary, out);
      break;
    } catch (error) {
      if (attempt >= 20) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
  }
  rmSync(old, { recursive: true, force: true });
}

/** Builds when stale (with the checks unless told otherwise); answers whether it built. */
async function ensureBuilt(options = {}) {
  if (!isStale()) return false;
  await build(options);
  return true;
}

module.exports = { build, ensureBuilt, isStale, CONSOLE_DIR: out };

if (require.main === module) {
  const started = Date.now();
  const ifStale = process.argv.includes('--if-stale');
  const checks = !process.argv.includes('--no-checks');
  (ifStale ? ensureBuilt({ checks }) : build({ checks }).then(() => true)).then(
    (built) => console.log(built ? `dist/console: built in ${Date.now() - started} ms` : 'dist/console: up to date'),
    (error) => {
      console.error(error.message);
      process.exit(1);
    },
  );
}
