#!/usr/bin/env node
// Builds @lifeline/sdk into dist/: CommonJS in dist/cjs, ESM in dist/esm, each with declarations and
// a package.json naming its module type. tsc only, no bundler: the sources import nothing outside
// the package but the wire module, which tsconfig.build.json compiles in beside them.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const dist = path.join(root, 'dist');
const tsc = require.resolve('typescript/bin/tsc', { paths: [root] });

fs.rmSync(dist, { recursive: true, force: true });
for (const [dir, type, flags] of [
  ['cjs', 'commonjs', ['--module', 'commonjs', '--moduleResolution', 'node10']],
  ['esm', 'module', ['--module', 'es2020', '--moduleResolution', 'bundler']],
]) {
  execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json'), '--outDir', path.join(dist, dir), ...flags], { stdio: 'inherit' });
  fs.writeFileSync(path.join(dist, dir, 'package.json'), `${JSON.stringify({ type }, null, 2)}\n`);
}
fs.chmodSync(path.join(dist, 'cjs', 'sdk', 'src', 'setup', 'bin.js'), 0o755);
