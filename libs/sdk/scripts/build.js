#!/usr/bin/env node
// Builds @lifeline/sdk into dist/: CommonJS in dist/cjs, ESM in dist/esm, each with declarations and
// a package.json naming its module type. tsc only, no bundler: the sources import nothing outside
// the package but the wire module, as the package @app/wire.
//
// Why paths and a rewrite: @app/wire is the monorepo's own name for libs/wire (tsconfig.json, jest,
// scripts/build.js), not a published package, and @lifeline/sdk must install alone and offline. So
// tsconfig.build.json's paths points tsc at the wire source, which tsc compiles into dist/<format>/
// like the sdk's own files, and below every specifier that paths maps is rewritten in the emitted
// .js and .d.ts to the relative path of that compiled file (tsc resolves paths but never rewrites
// them). Project references would still leave a bare specifier needing a package in node_modules
// (bundledDependencies or a workspace), and package.json "imports" (#wire) is not understood by
// consumers' TypeScript under moduleResolution node10; the rewrite keeps the published layout
// exactly as before, plain relative files.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const dist = path.join(root, 'dist');
const tsc = require.resolve('typescript/bin/tsc', { paths: [root] });
const ts = require(require.resolve('typescript', { paths: [root] }));
const project = path.join(root, 'tsconfig.build.json');

/** Each paths specifier of tsconfig.build.json -> its source's place under rootDir, as emitted (.js). */
function mappedSpecifiers() {
  const read = ts.readConfigFile(project, ts.sys.readFile);
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const { options } = ts.parseJsonConfigFileContent(read.config, ts.sys, root);
  const base = options.pathsBasePath ?? root;
  return Object.entries(options.paths ?? {}).map(([specifier, [target, ...more]]) => {
    if (specifier.includes('*') || more.length || !target.endsWith('.ts')) {
      throw new Error(
        `tsconfig.build.json paths: ${specifier} must name exactly one .ts file, so the build can rewrite it.`,
      );
    }
    return [specifier, path.relative(options.rootDir, path.resolve(base, target)).replace(/\.ts$/, '.js')];
  });
}

function* emitted(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* emitted(file);
    else if (/\.(js|d\.ts)$/.test(entry.name)) yield file;
  }
}

/**
 * require("x"), import("x"), from 'x', import 'x': a mapped x becomes the relative path to its emitted file,
 * and a relative x written without an extension (the wire module's own files import each other so, as the
 * monorepo's scripts need) gains the .js of the file tsc emitted, which ESM requires.
 */
function rewrite(out, mapped) {
  const targets = new Map(mapped.map(([specifier, file]) => [specifier, path.join(out, file)]));
  for (const file of emitted(out)) {
    const text = fs.readFileSync(file, 'utf8');
    const next = text.replace(
      /(\b(?:from|import|require)\s*\(?\s*)(["'])([^"'\n]+)\2/g,
      (whole, lead, quote, specifier) => {
        const bare = /^\.\.?\//.test(specifier) && !path.extname(specifier);
        if (bare && fs.existsSync(path.resolve(path.dirname(file), `${specifier}.js`)))
          return `${lead}${quote}${specifier}.js${quote}`;
        if (!targets.has(specifier)) return whole;
        const relative = path.relative(path.dirname(file), targets.get(specifier)).split(path.sep).join('/');
        return `${lead}${quote}${relative.startsWith('.') ? relative : `./${relative}`}${quote}`;
      },
    );
    const left = mapped.find(([specifier]) => next.includes(`"${specifier}"`) || next.includes(`'${specifier}'`));
    if (left) throw new Error(`${path.relative(root, file)} still names ${left[0]} after the rewrite.`);
    if (next !== text) fs.writeFileSync(file, next);
  }
}

const mapped = mappedSpecifiers();
fs.rmSync(dist, { recursive: true, force: true });
for (const [dir, type, flags] of [
  ['cjs', 'commonjs', ['--module', 'commonjs', '--moduleResolution', 'node10']],
  ['esm', 'module', ['--module', 'es2020', '--moduleResolution', 'bundler']],
]) {
  execFileSync(process.execPath, [tsc, '-p', project, '--outDir', path.join(dist, dir), ...flags], {
    stdio: 'inherit',
  });
  rewrite(path.join(dist, dir), mapped);
  for (const [, file] of mapped) {
    if (!fs.existsSync(path.join(dist, dir, file))) throw new Error(`tsc did not emit ${file} into dist/${dir}.`);
  }
  fs.writeFileSync(path.join(dist, dir, 'package.json'), `${JSON.stringify({ type }, null, 2)}\n`);
}
fs.chmodSync(path.join(dist, 'cjs', 'sdk', 'src', 'setup', 'bin.js'), 0o755);
