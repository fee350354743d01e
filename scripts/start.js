#!/usr/bin/env node
// npm start (api + worker), npm run start:api, npm run start:worker.
// First scripts/start-build.js, in a process of its own: the admin console built when missing or stale,
// the sources changed since the last build compiled to dist/. Then the launcher runs from dist/ and
// carries neither the bundler nor a compiler, and the api and the worker run dist/ as `npm run
// start:prod` does (swc's compiling as they loaded cost them about 150 MB at rest).
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

const built = spawnSync(process.execPath, [join(__dirname, 'start-build.js'), ...process.argv.slice(2)], {
  stdio: 'inherit',
});
if (built.status !== 0) process.exit(built.status ?? 1);
require('../dist/apps/launcher/src/main');
