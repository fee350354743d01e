#!/usr/bin/env node
// npm start (api + worker), npm run start:api, npm run start:worker.
// The admin console is built first when missing or stale (a few seconds, in a process of its own so
// the launcher does not carry the bundler); the api serves dist/console at /console.
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

if (process.argv[2] !== 'worker' && require('./build-console').isStale()) {
  console.log('Building the admin console (dist/console)…');
  const built = spawnSync(process.execPath, [join(__dirname, 'build-console.js'), '--if-stale', '--no-checks'], { stdio: 'inherit' });
  if (built.status !== 0) console.error('The console could not be built; the api starts without it (/console says how to build it).');
}
require('@swc-node/register');
require('../apps/launcher/src/main');
