// Preloaded with `node -r`: at exit, writes to stderr one JSON line naming every module the process
// loaded and the npm packages among them (test/runtime.e2e-spec.ts: what a CLI call costs).
process.on('exit', () => {
  const modules = Object.keys(require.cache);
  const packages = new Set();
  for (const path of modules) {
    const match = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path.slice(path.lastIndexOf('node_modules/')));
    if (match) packages.add(match[1]);
  }
  process.stderr.write(`${JSON.stringify({ modules: modules.length, packages: [...packages].sort() })}\n`);
});
