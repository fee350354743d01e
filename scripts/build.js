#!/usr/bin/env node
// `npm run build`: every apps/* and libs/* TypeScript file to plain CommonJS in dist/ (same layout),
// the @app/<lib> aliases rewritten to relative requires by swc, other files (track.source.js...)
// copied, and the website tag minified once. Type checking is tsc's job (`npm run typecheck`, run
// first by `npm run build`). `--changed` only redoes files newer than their output (the CLI's and
// `npm start`'s fast path); `--quiet` prints nothing but errors.
const { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } = require('node:fs');
const { dirname, join, relative } = require('node:path');

const root = join(__dirname, '..');
const out = join(root, 'dist');

/** Every libs/<name> with a src/index.ts is @app/<name>: new libs need no change here. */
function aliases() {
  const libs = readdirSync(join(root, 'libs')).filter((name) =>
    existsSync(join(root, 'libs', name, 'src', 'index.ts')),
  );
  return Object.fromEntries(
    libs.flatMap((name) => [
      [`@app/${name}`, [`libs/${name}/src`]],
      [`@app/${name}/*`, [`libs/${name}/src/entries/*`]],
    ]),
  );
}

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    // apps/console is a browser app with a build of its own (scripts/build-console.js).
    if (entry.isDirectory()) {
      if (path !== join(root, 'apps', 'console')) yield* sources(path);
    } else if (!/\.(spec|e2e-spec)\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield path;
  }
}

/** Written beside and renamed into place, so a process loading dist/ meanwhile never reads half a file. */
function writeAtomic(target, content) {
  const temporary = `${target}.${process.pid}.tmp`;
  writeFileSync(temporary, content);
  renameSync(temporary, target);
}

function newer(source, target) {
  return !existsSync(target) || statSync(source).mtimeMs > statSync(target).mtimeMs;
}

/** Every [source, target] pair to (re)make: all of them, or with `changed` those newer than their output. */
function* work(changed) {
  for (const top of ['apps', 'libs']) {
    for (const source of sources(join(root, top))) {
      const target = join(out, relative(root, source.endsWith('.ts') ? source.replace(/\.ts$/, '.js') : source));
      if (!changed || newer(source, target)) yield [source, target];
    }
  }
}

// swc's helper for `export * from`: every name re-exported as a getter that reads `from[k]`. One shared
// function with a keyed read, so V8 cannot inline it: each use of a name through a lib's barrel (two or
// three barrels deep) cost a getter call and a megamorphic lookup per level, 6% of the api's time on a
// batch of events. In dist/ the getter settles: the first read that finds the value (the
// source module has run) turns the name into a plain property holding it. Nothing exported is
// reassigned (no `export let` or `export var`; test/build-output.spec.ts checks), so the value read first
// is the value for good; a read while the source is still loading (an import cycle) finds undefined
// and leaves the getter in place.
const STAR_GETTER = `                get: function() {
                    return from[k];
                }`;
const SETTLING_GETTER = `                configurable: true, get: function() {
                    const value = from[k]; if (value !== undefined) Object.defineProperty(to, k, { enumerable: true, value });
                    return value; }`;

function settledReexports(code, source) {
  if (!code.includes('function _export_star(')) return code;
  if (!code.includes(STAR_GETTER))
    throw new Error(`${source}: swc's _export_star helper is not the one scripts/build.js settles; update STAR_GETTER`);
  return code.replace(STAR_GETTER, SETTLING_GETTER);
}

function build({ changed = false } = {}) {
  const stale = [...work(changed)];
  if (!stale.length) return 0; // the CLI's usual case: swc is not even loaded
  const swc = require('@swc/core');
  const options = {
    sourceMaps: true,
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
      baseUrl: root,
      paths: aliases(),
    },
    module: { type: 'commonjs' },
  };
  let compiled = 0;
  for (const [source, target] of stale) {
    mkdirSync(dirname(target), { recursive: true });
    if (!source.endsWith('.ts')) {
      copyFileSync(source, `${target}.${process.pid}.tmp`);
      renameSync(`${target}.${process.pid}.tmp`, target);
      continue;
    }
    const result = swc.transformFileSync(source, {
      ...options,
      filename: source,
      sourceFileName: relative(dirname(target), source),
    });
    writeAtomic(`${target}.map`, result.map);
    writeAtomic(
      target,
      `${settledReexports(result.code, source)}\n//# sourceMappingURL=${target.split('/').pop()}.map\n`,
    );
    compiled++;
  }
  return compiled;
}

async function minifyTag() {
  const tag = join(out, 'libs/events/src/tag/track-script.js');
  if (!existsSync(tag)) return;
  const source = join(root, 'libs/events/src/tag/track.source.js');
  const minified = join(out, 'libs/events/src/tag/track.min.js');
  if (existsSync(minified) && !newer(source, minified)) return;
  const { minifyTrackScript, TRACK_SCRIPT_MINIFIED } = require(tag);
  writeAtomic(TRACK_SCRIPT_MINIFIED, await minifyTrackScript());
}

/** Whether any source is newer than its output (fs only: swc is not loaded). */
function stale() {
  return !work(true).next().done;
}

module.exports = { build, aliases, stale, settledReexports };

if (require.main === module) {
  const changed = process.argv.includes('--changed');
  const started = Date.now();
  const compiled = build({ changed });
  minifyTag().then(
    () =>
      process.argv.includes('--quiet') ||
      console.log(`dist/: ${compiled} files compiled in ${Date.now() - started} ms`),
    (error) => {
      console.error(error.message);
      process.exit(1);
    },
  );
}
