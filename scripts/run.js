#!/usr/bin/env node
// Runs one compiled entry point of dist/ (the CLI, migrations): `node scripts/run.js apps/api/src/cli ...args`.
// In a development checkout (@swc/core installed) it first recompiles the sources changed since the last
// build, which takes milliseconds, so dist/ is never stale; a production install runs dist/ as built.
const { join } = require('node:path');

const entry = process.argv[2];
process.argv.splice(2, 1);
let build = null;
try {
  require.resolve('@swc/core');
  build = require('./build');
} catch {
  // --omit=dev install: dist/ was built before; run it as it is.
}
if (build) build.build({ changed: true });
// The website tag is not needed by these entries; `npm run build` minifies it.
// As `node dist/<entry>.js` would: the entry is the main module, so its `require.main === module` holds.
process.argv[1] = join(__dirname, '..', 'dist', `${entry}.js`);
require('node:module').runMain();
