#!/usr/bin/env node
// npm start's build step, run by scripts/start.js in a process of its own (walking the sources to find
// what is stale costs the launcher nothing then, about 15 MB otherwise): the admin console is built when
// missing or stale (a few seconds; not for `npm run start:worker`), and the sources changed since the
// last build are compiled to dist/ (milliseconds; the whole tree in about a second). Exits 1 when the
// sources cannot be compiled; a console that cannot be built is said and the api starts without it.
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

if (process.argv[2] !== 'worker' && require('./build-console').isStale()) {
  console.log('Building the admin console (dist/console)…');
  const built = spawnSync(process.execPath, [join(__dirname, 'build-console.js'), '--if-stale', '--no-checks'], {
    stdio: 'inherit',
  });
  if (built.status !== 0)
    console.error('The console could not be built; the api starts without it (/console says how to build it).');
}
if (require('./build').stale()) {
  const compiled = spawnSync(process.execPath, [join(__dirname, 'build.js'), '--changed', '--quiet'], {
    stdio: 'inherit',
  });
  if (compiled.status !== 0) process.exit(1);
}
