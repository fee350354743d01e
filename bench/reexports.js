// `npm run bench:reexports`: what a name costs to read through a lib's index in dist/ (as compiled code
// reads it at each call: `(0, _platform.newId)(...)`), in this checkout and, with BENCH_BASE_ROOT, in
// another (e.g. a worktree from before scripts/build.js settled re-exports). Each checkout's dist/ is
// brought up to date first. Median of 7 runs of 2,000,000 rounds of five reads, in a fresh process per checkout.
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');

const NAMES = ['newId', 'leanRecord', 'Refusal', 'preparedQuery', 'GroupCommit'];

function measure(root) {
  const platform = require(join(root, 'dist/libs/platform/src/index.js'));
  for (const name of NAMES)
    if (typeof platform[name] !== 'function') throw new Error(`@app/platform exports no ${name}`);
  const run = (rounds) => {
    let sum = 0;
    for (let i = 0; i < rounds; i++)
      sum +=
        platform.newId.length +
        platform.leanRecord.length +
        platform.Refusal.length +
        platform.preparedQuery.length +
        platform.GroupCommit.length;
    return sum;
  };
  run(100_000);
  const times = [];
  for (let r = 0; r < 7; r++) {
    const started = process.hrtime.bigint();
    run(2_000_000);
    times.push(Number(process.hrtime.bigint() - started));
  }
  return times.sort((a, b) => a - b)[3] / (2_000_000 * NAMES.length);
}

if (process.argv[2]) {
  console.log(measure(process.argv[2]).toFixed(1));
} else {
  const roots = [join(__dirname, '..'), ...(process.env.BENCH_BASE_ROOT ? [process.env.BENCH_BASE_ROOT] : [])];
  const ns = roots.map((root) => {
    execFileSync(process.execPath, [join(root, 'scripts/build.js'), '--changed', '--quiet'], {
      cwd: root,
      stdio: 'inherit',
    });
    return Number(execFileSync(process.execPath, [__filename, root], { encoding: 'utf8' }).trim());
  });
  roots.forEach((root, i) => console.log(`${root}: ${ns[i].toFixed(1)} ns a read through @app/platform`));
  if (ns.length === 2) console.log(`this checkout / BENCH_BASE_ROOT: ${(ns[0] / ns[1]).toFixed(2)}×`);
}
