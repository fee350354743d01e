#!/usr/bin/env node
// npm start (api + worker), npm run start:api, npm run start:worker.
// The admin console is built first when missing or stale (a few seconds), and the sources changed since
// the last build are compiled to dist/ (milliseconds; the whole tree in about a second), each in a
// process of its own: the launcher then runs dist/ and carries neither the bundler nor a compiler, and
// the api and the worker run dist/ as `npm run start:prod` does (issue 32: swc's on-the-fly compiling
// cost them about 250 MB at rest).
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

if (process.argv[2] !== 'worker' && require('./build-console').isStale()) {
  console.log('Building the admin console (dist/console)…');
  const built = spawnSync(process.execPath, [join(__dirname, 'build-console.js'), '--if-stale', '--no-checks'], { stdio: 'inherit' });
  if (built.status !== 0) console.error('The console could not be built; the api starts without it (/console says how to build it).');
}
if (require('./build').stale()) {
  const compiled = spawnSync(process.execPath, [join(__dirname, 'build.js'), '--changed', '--quiet'], { stdio: 'inherit' });
  if (compiled.status !== 0) process.exit(1);
}
require('../dist/apps/launcher/src/main');
